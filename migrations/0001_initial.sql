-- The first schema: users and tokens, tags, tenancy, the first dcim models, and change records.
-- Every table uses AUTOINCREMENT so ids are never reused: change records and webhooks name
-- objects by id, and a reused id would point them at the wrong object.

-- users.user
CREATE TABLE users_user (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE,
  password TEXT NOT NULL,
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  is_staff INTEGER NOT NULL DEFAULT 0,
  is_active INTEGER NOT NULL DEFAULT 1,
  is_superuser INTEGER NOT NULL DEFAULT 0,
  date_joined TEXT,
  last_login TEXT
);

CREATE TABLE users_user_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users_user(id) ON DELETE CASCADE,
  group_id INTEGER NOT NULL REFERENCES users_group(id) ON DELETE CASCADE,
  UNIQUE (user_id, group_id)
);

CREATE INDEX users_user_groups_group_id ON users_user_groups(group_id);

-- users.group
CREATE TABLE users_group (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT ''
);

-- users.token
CREATE TABLE users_token (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users_user(id) ON DELETE CASCADE,
  created TEXT,
  expires TEXT,
  last_used TEXT,
  write_enabled INTEGER NOT NULL DEFAULT 1,
  description TEXT NOT NULL DEFAULT '',
  allowed_ips TEXT NOT NULL DEFAULT '[]',
  key_digest TEXT NOT NULL UNIQUE,
  key_last6 TEXT NOT NULL,
  key_ciphertext TEXT
);

CREATE INDEX users_token_user_id ON users_token(user_id);

-- extras.tag
CREATE TABLE extras_tag (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  color TEXT NOT NULL DEFAULT '9e9e9e',
  description TEXT NOT NULL DEFAULT '',
  object_types TEXT NOT NULL DEFAULT '[]',
  created TEXT,
  last_updated TEXT
);

-- Tags on any model: one link table for all, keyed by object type (app.model).
CREATE TABLE extras_taggeditem (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tag_id INTEGER NOT NULL REFERENCES extras_tag(id) ON DELETE CASCADE,
  object_type TEXT NOT NULL,
  object_id INTEGER NOT NULL,
  UNIQUE (object_type, object_id, tag_id)
);

CREATE INDEX extras_taggeditem_tag_id ON extras_taggeditem(tag_id);

-- tenancy.tenantgroup
CREATE TABLE tenancy_tenantgroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  parent_id INTEGER REFERENCES tenancy_tenantgroup(id) ON DELETE CASCADE,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  _depth INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX tenancy_tenantgroup_parent_id ON tenancy_tenantgroup(parent_id);

-- tenancy.tenant
CREATE TABLE tenancy_tenant (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  group_id INTEGER REFERENCES tenancy_tenantgroup(id) ON DELETE RESTRICT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX tenancy_tenant_group_id ON tenancy_tenant(group_id);

CREATE UNIQUE INDEX tenancy_tenant_group_name ON tenancy_tenant(coalesce(group_id, 0), name);

CREATE UNIQUE INDEX tenancy_tenant_group_slug ON tenancy_tenant(coalesce(group_id, 0), slug);

-- dcim.region
CREATE TABLE dcim_region (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  parent_id INTEGER REFERENCES dcim_region(id) ON DELETE CASCADE,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  _depth INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_region_parent_id ON dcim_region(parent_id);

CREATE UNIQUE INDEX dcim_region_parent_name ON dcim_region(coalesce(parent_id, 0), name);

CREATE UNIQUE INDEX dcim_region_parent_slug ON dcim_region(coalesce(parent_id, 0), slug);

-- dcim.sitegroup
CREATE TABLE dcim_sitegroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  parent_id INTEGER REFERENCES dcim_sitegroup(id) ON DELETE CASCADE,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  _depth INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_sitegroup_parent_id ON dcim_sitegroup(parent_id);

CREATE UNIQUE INDEX dcim_sitegroup_parent_name ON dcim_sitegroup(coalesce(parent_id, 0), name);

CREATE UNIQUE INDEX dcim_sitegroup_parent_slug ON dcim_sitegroup(coalesce(parent_id, 0), slug);

-- dcim.site
CREATE TABLE dcim_site (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'active',
  region_id INTEGER REFERENCES dcim_region(id) ON DELETE RESTRICT,
  group_id INTEGER REFERENCES dcim_sitegroup(id) ON DELETE RESTRICT,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  facility TEXT NOT NULL DEFAULT '',
  time_zone TEXT,
  description TEXT NOT NULL DEFAULT '',
  physical_address TEXT NOT NULL DEFAULT '',
  shipping_address TEXT NOT NULL DEFAULT '',
  latitude REAL,
  longitude REAL,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_site_region_id ON dcim_site(region_id);

CREATE INDEX dcim_site_group_id ON dcim_site(group_id);

CREATE INDEX dcim_site_tenant_id ON dcim_site(tenant_id);

-- One record per changed object, written in the same transaction as the change.
CREATE TABLE core_objectchange (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  time TEXT NOT NULL,
  user_id INTEGER REFERENCES users_user(id) ON DELETE SET NULL,
  user_name TEXT NOT NULL,
  request_id TEXT NOT NULL,
  action TEXT NOT NULL,
  changed_object_type TEXT NOT NULL,
  changed_object_id INTEGER NOT NULL,
  related_object_type TEXT,
  related_object_id INTEGER,
  object_repr TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  prechange_data TEXT,
  postchange_data TEXT
);

CREATE INDEX core_objectchange_request_id ON core_objectchange(request_id);

CREATE INDEX core_objectchange_object ON core_objectchange(changed_object_type, changed_object_id);

CREATE INDEX core_objectchange_time ON core_objectchange(time);
