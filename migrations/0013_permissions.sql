-- Object permissions (NetBox's ObjectPermission), what changes them bumps the auth version, and the
-- write guard that refuses a change leaving an object outside the requester's constraints.

-- users.objectpermission
CREATE TABLE users_objectpermission (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  enabled INTEGER NOT NULL DEFAULT 1,
  object_types TEXT NOT NULL,
  actions TEXT NOT NULL,
  constraints TEXT
);

CREATE TABLE users_objectpermission_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  objectpermission_id INTEGER NOT NULL REFERENCES users_objectpermission(id) ON DELETE CASCADE,
  group_id INTEGER NOT NULL REFERENCES users_group(id) ON DELETE CASCADE,
  UNIQUE (objectpermission_id, group_id)
);

CREATE INDEX users_objectpermission_groups_group_id ON users_objectpermission_groups(group_id);

CREATE TABLE users_objectpermission_users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  objectpermission_id INTEGER NOT NULL REFERENCES users_objectpermission(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users_user(id) ON DELETE CASCADE,
  UNIQUE (objectpermission_id, user_id)
);

CREATE INDEX users_objectpermission_users_user_id ON users_objectpermission_users(user_id);

CREATE TRIGGER auth_permission_added AFTER INSERT ON users_objectpermission
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_permission_changed AFTER UPDATE ON users_objectpermission
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_permission_deleted AFTER DELETE ON users_objectpermission
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_permission_user_added AFTER INSERT ON users_objectpermission_users
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_permission_user_removed AFTER DELETE ON users_objectpermission_users
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_permission_group_added AFTER INSERT ON users_objectpermission_groups
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_permission_group_removed AFTER DELETE ON users_objectpermission_groups
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

ALTER TABLE engine_guard ADD COLUMN denied INTEGER CONSTRAINT guard_denied CHECK (denied IS NULL);

-- Failed credential checks per username and per client address, in a one-minute window, shared by
-- every process and isolate (see src/auth/throttle.ts).
CREATE TABLE auth_throttle (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  failures INTEGER NOT NULL
);

-- Browser sessions (src/auth/sessions.ts): the keyed digest of each session key, never the key.
-- A password change or a deactivation ends every session of the user at once.
CREATE TABLE users_session (
  digest TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users_user(id) ON DELETE CASCADE,
  csrf TEXT NOT NULL,
  created TEXT NOT NULL,
  expires TEXT NOT NULL
);

CREATE INDEX users_session_user_id ON users_session(user_id);

CREATE TRIGGER session_ends_on_password_change AFTER UPDATE OF password ON users_user
WHEN NEW.password IS NOT OLD.password
BEGIN DELETE FROM users_session WHERE user_id = NEW.id; END;

CREATE TRIGGER session_ends_on_deactivation AFTER UPDATE OF is_active ON users_user
WHEN NOT NEW.is_active
BEGIN DELETE FROM users_session WHERE user_id = NEW.id; END;
