-- Models several areas of the inventory build on: locations, clusters, front and rear ports.
-- dcim.location
CREATE TABLE dcim_location (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  site_id INTEGER NOT NULL REFERENCES dcim_site(id) ON DELETE CASCADE,
  parent_id INTEGER REFERENCES dcim_location(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'active',
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  facility TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  _depth INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_location_site_id ON dcim_location(site_id);

CREATE INDEX dcim_location_parent_id ON dcim_location(parent_id);

CREATE INDEX dcim_location_tenant_id ON dcim_location(tenant_id);

CREATE UNIQUE INDEX dcim_location_site_parent_name ON dcim_location(site_id, coalesce(parent_id, 0), name);

CREATE UNIQUE INDEX dcim_location_site_parent_slug ON dcim_location(site_id, coalesce(parent_id, 0), slug);

-- dcim.rearport
CREATE TABLE dcim_rearport (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL,
  color TEXT NOT NULL DEFAULT '',
  positions INTEGER NOT NULL DEFAULT 1,
  description TEXT NOT NULL DEFAULT '',
  mark_connected INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_rearport_device_id ON dcim_rearport(device_id);

CREATE UNIQUE INDEX dcim_rearport_device_name ON dcim_rearport(device_id, name);

-- dcim.frontport
CREATE TABLE dcim_frontport (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL,
  color TEXT NOT NULL DEFAULT '',
  rear_port_id INTEGER NOT NULL REFERENCES dcim_rearport(id) ON DELETE CASCADE,
  rear_port_position INTEGER NOT NULL DEFAULT 1,
  description TEXT NOT NULL DEFAULT '',
  mark_connected INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_frontport_device_id ON dcim_frontport(device_id);

CREATE INDEX dcim_frontport_rear_port_id ON dcim_frontport(rear_port_id);

CREATE UNIQUE INDEX dcim_frontport_device_name ON dcim_frontport(device_id, name);

CREATE UNIQUE INDEX dcim_frontport_rear_port_rear_port_position ON dcim_frontport(rear_port_id, rear_port_position);

-- virtualization.clustertype
CREATE TABLE virtualization_clustertype (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- virtualization.clustergroup
CREATE TABLE virtualization_clustergroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- virtualization.cluster
CREATE TABLE virtualization_cluster (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  type_id INTEGER NOT NULL REFERENCES virtualization_clustertype(id) ON DELETE RESTRICT,
  group_id INTEGER REFERENCES virtualization_clustergroup(id) ON DELETE RESTRICT,
  status TEXT NOT NULL DEFAULT 'active',
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  scope_type TEXT,
  scope_id INTEGER,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX virtualization_cluster_type_id ON virtualization_cluster(type_id);

CREATE INDEX virtualization_cluster_group_id ON virtualization_cluster(group_id);

CREATE INDEX virtualization_cluster_tenant_id ON virtualization_cluster(tenant_id);

CREATE INDEX virtualization_cluster_scope ON virtualization_cluster(scope_type, scope_id);

CREATE UNIQUE INDEX virtualization_cluster_group_name ON virtualization_cluster(coalesce(group_id, 0), name);

-- dcim.device.cluster
ALTER TABLE dcim_device ADD COLUMN cluster_id INTEGER REFERENCES virtualization_cluster(id) ON DELETE SET NULL;

CREATE INDEX dcim_device_cluster_id ON dcim_device(cluster_id);

-- dcim.device.location
ALTER TABLE dcim_device ADD COLUMN location_id INTEGER REFERENCES dcim_location(id) ON DELETE RESTRICT;

CREATE INDEX dcim_device_location_id ON dcim_device(location_id);

