-- The engine's second floor: the auth version counter, the write guard, and the first device models.

-- One row counting changes to what authentication depends on. Processes and isolates cache token
-- data in memory and prove it current by reading this version in every batch; these triggers
-- bump it on every change that could alter who a token is or what it may do. Token creation and
-- `last_used` updates do not bump it: neither changes a cached token.
CREATE TABLE auth_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);

INSERT INTO auth_state (id, version) VALUES (1, 1);

CREATE TRIGGER auth_token_changed AFTER UPDATE OF user_id, key_digest, write_enabled, expires, allowed_ips ON users_token
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_token_deleted AFTER DELETE ON users_token
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_user_changed AFTER UPDATE OF username, is_active, is_superuser, is_staff ON users_user
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_user_deleted AFTER DELETE ON users_user
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_membership_added AFTER INSERT ON users_user_groups
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER auth_membership_removed AFTER DELETE ON users_user_groups
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

-- A write transaction re-checks its preconditions by inserting into this table when one fails:
-- every row is refused, and the named constraint tells the engine which check it was (SQLite has
-- no RAISE outside triggers). No row is ever stored.
CREATE TABLE engine_guard (
  gone INTEGER CONSTRAINT guard_object_gone CHECK (gone IS NULL),
  stale INTEGER CONSTRAINT guard_auth_changed CHECK (stale IS NULL)
);

-- dcim.manufacturer
CREATE TABLE dcim_manufacturer (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- dcim.platform
CREATE TABLE dcim_platform (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  manufacturer_id INTEGER REFERENCES dcim_manufacturer(id) ON DELETE RESTRICT,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_platform_manufacturer_id ON dcim_platform(manufacturer_id);

-- dcim.devicetype
CREATE TABLE dcim_devicetype (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  manufacturer_id INTEGER NOT NULL REFERENCES dcim_manufacturer(id) ON DELETE RESTRICT,
  default_platform_id INTEGER REFERENCES dcim_platform(id) ON DELETE SET NULL,
  model TEXT NOT NULL,
  slug TEXT NOT NULL,
  part_number TEXT NOT NULL DEFAULT '',
  u_height REAL NOT NULL DEFAULT 1,
  exclude_from_utilization INTEGER NOT NULL DEFAULT 0,
  is_full_depth INTEGER NOT NULL DEFAULT 1,
  subdevice_role TEXT,
  airflow TEXT,
  weight REAL,
  weight_unit TEXT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_devicetype_manufacturer_id ON dcim_devicetype(manufacturer_id);

CREATE INDEX dcim_devicetype_default_platform_id ON dcim_devicetype(default_platform_id);

CREATE UNIQUE INDEX dcim_devicetype_manufacturer_model ON dcim_devicetype(manufacturer_id, model);

CREATE UNIQUE INDEX dcim_devicetype_manufacturer_slug ON dcim_devicetype(manufacturer_id, slug);

-- dcim.devicerole
CREATE TABLE dcim_devicerole (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  color TEXT NOT NULL DEFAULT '9e9e9e',
  vm_role INTEGER NOT NULL DEFAULT 1,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- dcim.device
CREATE TABLE dcim_device (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT,
  device_type_id INTEGER NOT NULL REFERENCES dcim_devicetype(id) ON DELETE RESTRICT,
  role_id INTEGER NOT NULL REFERENCES dcim_devicerole(id) ON DELETE RESTRICT,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  platform_id INTEGER REFERENCES dcim_platform(id) ON DELETE SET NULL,
  serial TEXT NOT NULL DEFAULT '',
  asset_tag TEXT UNIQUE,
  site_id INTEGER NOT NULL REFERENCES dcim_site(id) ON DELETE RESTRICT,
  latitude REAL,
  longitude REAL,
  status TEXT NOT NULL DEFAULT 'active',
  airflow TEXT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  local_context_data TEXT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_device_device_type_id ON dcim_device(device_type_id);

CREATE INDEX dcim_device_role_id ON dcim_device(role_id);

CREATE INDEX dcim_device_tenant_id ON dcim_device(tenant_id);

CREATE INDEX dcim_device_platform_id ON dcim_device(platform_id);

CREATE INDEX dcim_device_site_id ON dcim_device(site_id);

CREATE UNIQUE INDEX dcim_device_site_tenant_name ON dcim_device(site_id, coalesce(tenant_id, 0), name);

-- dcim.interface
CREATE TABLE dcim_interface (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  parent_id INTEGER REFERENCES dcim_interface(id) ON DELETE SET NULL,
  bridge_id INTEGER REFERENCES dcim_interface(id) ON DELETE SET NULL,
  lag_id INTEGER REFERENCES dcim_interface(id) ON DELETE SET NULL,
  mtu INTEGER,
  speed INTEGER,
  duplex TEXT,
  wwn TEXT,
  mgmt_only INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  mode TEXT,
  rf_role TEXT,
  rf_channel TEXT,
  poe_mode TEXT,
  poe_type TEXT,
  rf_channel_frequency REAL,
  rf_channel_width REAL,
  tx_power INTEGER,
  mark_connected INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_interface_device_id ON dcim_interface(device_id);

CREATE INDEX dcim_interface_parent_id ON dcim_interface(parent_id);

CREATE INDEX dcim_interface_bridge_id ON dcim_interface(bridge_id);

CREATE INDEX dcim_interface_lag_id ON dcim_interface(lag_id);

CREATE UNIQUE INDEX dcim_interface_device_name ON dcim_interface(device_id, name);

