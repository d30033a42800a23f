-- NetBox 4.2's core data sources, data files and jobs; synced data on config contexts and
-- templates; image attachments and device type images, with the list of files to remove.

-- core.datasource
CREATE TABLE core_datasource (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  source_url TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  status TEXT NOT NULL DEFAULT 'new',
  description TEXT NOT NULL DEFAULT '',
  parameters TEXT,
  ignore_rules TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  last_synced TEXT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);


-- core.datafile
CREATE TABLE core_datafile (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source_id INTEGER NOT NULL REFERENCES core_datasource(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  hash TEXT NOT NULL,
  created TEXT,
  last_updated TEXT,
  data TEXT NOT NULL DEFAULT ''
);

CREATE INDEX core_datafile_source_id ON core_datafile(source_id);

CREATE UNIQUE INDEX core_datafile_source_path ON core_datafile(source_id, path);


-- core.job
CREATE TABLE core_job (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_type TEXT NOT NULL,
  object_id INTEGER,
  name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  created TEXT,
  scheduled TEXT,
  interval INTEGER,
  started TEXT,
  completed TEXT,
  user_id INTEGER REFERENCES users_user(id) ON DELETE SET NULL,
  data TEXT,
  error TEXT NOT NULL DEFAULT '',
  job_id TEXT NOT NULL
);

CREATE INDEX core_job_user_id ON core_job(user_id);

CREATE INDEX core_job_ordering ON core_job(created DESC);


-- extras.imageattachment
CREATE TABLE extras_imageattachment (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_type TEXT NOT NULL,
  object_id INTEGER NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  image_height INTEGER NOT NULL,
  image_width INTEGER NOT NULL,
  size INTEGER NOT NULL,
  created TEXT,
  last_updated TEXT,
  image TEXT NOT NULL DEFAULT ''
);

CREATE INDEX extras_imageattachment_object ON extras_imageattachment(object_type, object_id);

CREATE INDEX extras_imageattachment_ordering ON extras_imageattachment(name);


-- Synced data (src/apps/extras/data-sync.ts) on config contexts and config templates.
ALTER TABLE extras_configcontext ADD COLUMN data_source_id INTEGER REFERENCES core_datasource(id) ON DELETE RESTRICT;
ALTER TABLE extras_configcontext ADD COLUMN data_path TEXT NOT NULL DEFAULT '';
ALTER TABLE extras_configcontext ADD COLUMN data_file_id INTEGER REFERENCES core_datafile(id) ON DELETE SET NULL;
ALTER TABLE extras_configcontext ADD COLUMN data_synced TEXT;
ALTER TABLE extras_configcontext ADD COLUMN auto_sync_enabled INTEGER NOT NULL DEFAULT 0;
CREATE INDEX extras_configcontext_data_source_id ON extras_configcontext(data_source_id);
CREATE INDEX extras_configcontext_data_file_id ON extras_configcontext(data_file_id);

ALTER TABLE extras_configtemplate ADD COLUMN data_source_id INTEGER REFERENCES core_datasource(id) ON DELETE RESTRICT;
ALTER TABLE extras_configtemplate ADD COLUMN data_path TEXT NOT NULL DEFAULT '';
ALTER TABLE extras_configtemplate ADD COLUMN data_file_id INTEGER REFERENCES core_datafile(id) ON DELETE SET NULL;
ALTER TABLE extras_configtemplate ADD COLUMN data_synced TEXT;
ALTER TABLE extras_configtemplate ADD COLUMN auto_sync_enabled INTEGER NOT NULL DEFAULT 0;
CREATE INDEX extras_configtemplate_data_source_id ON extras_configtemplate(data_source_id);
CREATE INDEX extras_configtemplate_data_file_id ON extras_configtemplate(data_file_id);

-- Device type images: the stored names of their files, '' when none.
ALTER TABLE dcim_devicetype ADD COLUMN front_image TEXT NOT NULL DEFAULT '';
ALTER TABLE dcim_devicetype ADD COLUMN rear_image TEXT NOT NULL DEFAULT '';

-- Files to remove from the file store: listed by these triggers in the transaction that replaces
-- or deletes an image (directly or by cascade), removed after it commits (removeFilesSoon).
CREATE TABLE core_fileremoval (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL
);

-- (One line per trigger: scripts are split at a semicolon that ends a line.)
CREATE TRIGGER extras_imageattachment_file_deleted AFTER DELETE ON extras_imageattachment WHEN OLD.image <> ''
BEGIN INSERT INTO core_fileremoval (name) VALUES (OLD.image); END;

CREATE TRIGGER extras_imageattachment_file_replaced AFTER UPDATE OF image ON extras_imageattachment WHEN OLD.image <> '' AND OLD.image <> NEW.image
BEGIN INSERT INTO core_fileremoval (name) VALUES (OLD.image); END;

CREATE TRIGGER dcim_devicetype_images_deleted AFTER DELETE ON dcim_devicetype
BEGIN INSERT INTO core_fileremoval (name) SELECT OLD.front_image WHERE OLD.front_image <> ''; INSERT INTO core_fileremoval (name) SELECT OLD.rear_image WHERE OLD.rear_image <> ''; END;

CREATE TRIGGER dcim_devicetype_images_replaced AFTER UPDATE OF front_image, rear_image ON dcim_devicetype
BEGIN INSERT INTO core_fileremoval (name) SELECT OLD.front_image WHERE OLD.front_image <> '' AND OLD.front_image <> NEW.front_image; INSERT INTO core_fileremoval (name) SELECT OLD.rear_image WHERE OLD.rear_image <> '' AND OLD.rear_image <> NEW.rear_image; END;
