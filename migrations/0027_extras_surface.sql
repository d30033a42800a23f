-- NetBox 4.2's remaining extras: bookmarks, custom links, export templates, saved filters,
-- notification groups, notifications, subscriptions, and each user's dashboard.

CREATE TABLE extras_bookmark (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_type TEXT NOT NULL,
  object_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users_user(id) ON DELETE CASCADE,
  created TEXT
);

CREATE INDEX extras_bookmark_object ON extras_bookmark(object_type, object_id);

CREATE INDEX extras_bookmark_user_id ON extras_bookmark(user_id);

CREATE INDEX extras_bookmark_ordering ON extras_bookmark(created, user_id);

CREATE UNIQUE INDEX extras_bookmark_object_user ON extras_bookmark(object_type, object_id, user_id);

CREATE TABLE extras_customlink (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_types TEXT NOT NULL,
  name TEXT NOT NULL UNIQUE,
  enabled INTEGER NOT NULL DEFAULT 1,
  link_text TEXT NOT NULL DEFAULT '',
  link_url TEXT NOT NULL DEFAULT '',
  weight INTEGER NOT NULL DEFAULT 100,
  group_name TEXT NOT NULL DEFAULT '',
  button_class TEXT NOT NULL DEFAULT 'default',
  new_window INTEGER NOT NULL DEFAULT 0,
  created TEXT,
  last_updated TEXT
);

CREATE INDEX extras_customlink_ordering ON extras_customlink(group_name, weight, name);

CREATE TABLE extras_exporttemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_types TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  template_code TEXT NOT NULL DEFAULT '',
  mime_type TEXT NOT NULL DEFAULT '',
  file_name TEXT NOT NULL DEFAULT '',
  file_extension TEXT NOT NULL DEFAULT '',
  as_attachment INTEGER NOT NULL DEFAULT 1,
  data_source_id INTEGER REFERENCES core_datasource(id) ON DELETE RESTRICT,
  data_path TEXT NOT NULL DEFAULT '',
  data_file_id INTEGER REFERENCES core_datafile(id) ON DELETE SET NULL,
  data_synced TEXT,
  auto_sync_enabled INTEGER NOT NULL DEFAULT 0,
  created TEXT,
  last_updated TEXT
);

CREATE INDEX extras_exporttemplate_data_source_id ON extras_exporttemplate(data_source_id);

CREATE INDEX extras_exporttemplate_data_file_id ON extras_exporttemplate(data_file_id);

CREATE INDEX extras_exporttemplate_ordering ON extras_exporttemplate(name);

CREATE TABLE extras_savedfilter (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_types TEXT NOT NULL,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  user_id INTEGER REFERENCES users_user(id) ON DELETE SET NULL,
  weight INTEGER NOT NULL DEFAULT 100,
  enabled INTEGER NOT NULL DEFAULT 1,
  shared INTEGER NOT NULL DEFAULT 1,
  parameters TEXT NOT NULL,
  created TEXT,
  last_updated TEXT
);

CREATE INDEX extras_savedfilter_user_id ON extras_savedfilter(user_id);

CREATE INDEX extras_savedfilter_ordering ON extras_savedfilter(weight, name);

CREATE TABLE extras_notificationgroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT ''
);

CREATE TABLE extras_notificationgroup_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  notificationgroup_id INTEGER NOT NULL REFERENCES extras_notificationgroup(id) ON DELETE CASCADE,
  group_id INTEGER NOT NULL REFERENCES users_group(id) ON DELETE CASCADE,
  UNIQUE (notificationgroup_id, group_id)
);

CREATE INDEX extras_notificationgroup_groups_group_id ON extras_notificationgroup_groups(group_id);

CREATE TABLE extras_notificationgroup_users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  notificationgroup_id INTEGER NOT NULL REFERENCES extras_notificationgroup(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users_user(id) ON DELETE CASCADE,
  UNIQUE (notificationgroup_id, user_id)
);

CREATE INDEX extras_notificationgroup_users_user_id ON extras_notificationgroup_users(user_id);

CREATE TABLE extras_notification (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_type TEXT NOT NULL,
  object_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users_user(id) ON DELETE CASCADE,
  created TEXT,
  read TEXT,
  event_type TEXT NOT NULL
);

CREATE INDEX extras_notification_object ON extras_notification(object_type, object_id);

CREATE INDEX extras_notification_user_id ON extras_notification(user_id);

CREATE INDEX extras_notification_ordering ON extras_notification(created DESC);

CREATE TABLE extras_subscription (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_type TEXT NOT NULL,
  object_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users_user(id) ON DELETE CASCADE,
  created TEXT
);

CREATE INDEX extras_subscription_object ON extras_subscription(object_type, object_id);

CREATE INDEX extras_subscription_user_id ON extras_subscription(user_id);

CREATE INDEX extras_subscription_ordering ON extras_subscription(created DESC, user_id);

CREATE UNIQUE INDEX extras_subscription_object_user ON extras_subscription(object_type, object_id, user_id);

-- The requester's dashboard (/api/extras/dashboard/): NetBox keeps one layout and config per user.
CREATE TABLE extras_dashboard (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL UNIQUE REFERENCES users_user(id) ON DELETE CASCADE,
  layout TEXT NOT NULL DEFAULT '[]',
  config TEXT NOT NULL DEFAULT '{}'
);

-- A committed change to an object notifies its subscribers, as NetBox does: on an update or a
-- delete each subscriber gets one notification (an older one of theirs for the object is
-- replaced), written in the transaction of the change, so a refused write notifies no one. A
-- trigger, so a write costs no statement more whatever it changes. (Scripts are split at a `;` that
-- ends a line: the trigger's inner ones do not.)
CREATE TRIGGER extras_notify_subscribers AFTER INSERT ON core_objectchange
WHEN NEW.action IN ('update', 'delete')
  AND EXISTS (SELECT 1 FROM extras_subscription s WHERE s.object_type = NEW.changed_object_type AND s.object_id = NEW.changed_object_id)
BEGIN
  DELETE FROM extras_notification WHERE object_type = NEW.changed_object_type AND object_id = NEW.changed_object_id
    AND user_id IN (SELECT user_id FROM extras_subscription WHERE object_type = NEW.changed_object_type AND object_id = NEW.changed_object_id); INSERT INTO extras_notification (object_type, object_id, user_id, created, read, event_type)
    SELECT s.object_type, s.object_id, s.user_id, NEW.time, NULL, CASE NEW.action WHEN 'update' THEN 'object_updated' ELSE 'object_deleted' END
    FROM extras_subscription s WHERE s.object_type = NEW.changed_object_type AND s.object_id = NEW.changed_object_id ORDER BY s.id; END;
