-- Racks and what hangs off them: rack roles, rack types, racks, reservations, virtual chassis, power panels and feeds; devices' rack placement and chassis membership.
-- dcim.rackrole
CREATE TABLE dcim_rackrole (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  color TEXT NOT NULL DEFAULT '9e9e9e',
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- dcim.racktype
CREATE TABLE dcim_racktype (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  manufacturer_id INTEGER NOT NULL REFERENCES dcim_manufacturer(id) ON DELETE RESTRICT,
  model TEXT NOT NULL,
  slug TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  form_factor TEXT NOT NULL,
  width INTEGER NOT NULL DEFAULT 19,
  u_height INTEGER NOT NULL DEFAULT 42,
  starting_unit INTEGER NOT NULL DEFAULT 1,
  desc_units INTEGER NOT NULL DEFAULT 0,
  outer_width INTEGER,
  outer_depth INTEGER,
  outer_unit TEXT,
  mounting_depth INTEGER,
  weight REAL,
  max_weight INTEGER,
  weight_unit TEXT,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_racktype_manufacturer_id ON dcim_racktype(manufacturer_id);

CREATE UNIQUE INDEX dcim_racktype_manufacturer_model ON dcim_racktype(manufacturer_id, model);

CREATE UNIQUE INDEX dcim_racktype_manufacturer_slug ON dcim_racktype(manufacturer_id, slug);

-- dcim.rack
CREATE TABLE dcim_rack (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  facility_id TEXT,
  site_id INTEGER NOT NULL REFERENCES dcim_site(id) ON DELETE RESTRICT,
  location_id INTEGER REFERENCES dcim_location(id) ON DELETE SET NULL,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  status TEXT NOT NULL DEFAULT 'active',
  role_id INTEGER REFERENCES dcim_rackrole(id) ON DELETE RESTRICT,
  serial TEXT NOT NULL DEFAULT '',
  asset_tag TEXT UNIQUE,
  rack_type_id INTEGER REFERENCES dcim_racktype(id) ON DELETE RESTRICT,
  form_factor TEXT,
  width INTEGER NOT NULL DEFAULT 19,
  u_height INTEGER NOT NULL DEFAULT 42,
  starting_unit INTEGER NOT NULL DEFAULT 1,
  desc_units INTEGER NOT NULL DEFAULT 0,
  outer_width INTEGER,
  outer_depth INTEGER,
  outer_unit TEXT,
  mounting_depth INTEGER,
  weight REAL,
  max_weight INTEGER,
  weight_unit TEXT,
  airflow TEXT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_rack_site_id ON dcim_rack(site_id);

CREATE INDEX dcim_rack_location_id ON dcim_rack(location_id);

CREATE INDEX dcim_rack_tenant_id ON dcim_rack(tenant_id);

CREATE INDEX dcim_rack_role_id ON dcim_rack(role_id);

CREATE INDEX dcim_rack_rack_type_id ON dcim_rack(rack_type_id);

CREATE UNIQUE INDEX dcim_rack_location_name ON dcim_rack(location_id, name);

CREATE UNIQUE INDEX dcim_rack_location_facility_id ON dcim_rack(location_id, facility_id);

-- dcim.rackreservation
CREATE TABLE dcim_rackreservation (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  rack_id INTEGER NOT NULL REFERENCES dcim_rack(id) ON DELETE CASCADE,
  units TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users_user(id) ON DELETE RESTRICT,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  description TEXT NOT NULL,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_rackreservation_rack_id ON dcim_rackreservation(rack_id);

CREATE INDEX dcim_rackreservation_user_id ON dcim_rackreservation(user_id);

CREATE INDEX dcim_rackreservation_tenant_id ON dcim_rackreservation(tenant_id);

-- dcim.virtualchassis
CREATE TABLE dcim_virtualchassis (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  domain TEXT NOT NULL DEFAULT '',
  master_id INTEGER UNIQUE REFERENCES dcim_device(id) ON DELETE SET NULL,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- dcim.powerpanel
CREATE TABLE dcim_powerpanel (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id INTEGER NOT NULL REFERENCES dcim_site(id) ON DELETE RESTRICT,
  location_id INTEGER REFERENCES dcim_location(id) ON DELETE RESTRICT,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_powerpanel_site_id ON dcim_powerpanel(site_id);

CREATE INDEX dcim_powerpanel_location_id ON dcim_powerpanel(location_id);

CREATE UNIQUE INDEX dcim_powerpanel_site_name ON dcim_powerpanel(site_id, name);

-- dcim.powerfeed
CREATE TABLE dcim_powerfeed (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  power_panel_id INTEGER NOT NULL REFERENCES dcim_powerpanel(id) ON DELETE RESTRICT,
  rack_id INTEGER REFERENCES dcim_rack(id) ON DELETE RESTRICT,
  name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active',
  type TEXT NOT NULL DEFAULT 'primary',
  supply TEXT NOT NULL DEFAULT 'ac',
  phase TEXT NOT NULL DEFAULT 'single-phase',
  voltage INTEGER NOT NULL DEFAULT 120,
  amperage INTEGER NOT NULL DEFAULT 20,
  max_utilization INTEGER NOT NULL DEFAULT 80,
  mark_connected INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_powerfeed_power_panel_id ON dcim_powerfeed(power_panel_id);

CREATE INDEX dcim_powerfeed_rack_id ON dcim_powerfeed(rack_id);

CREATE INDEX dcim_powerfeed_tenant_id ON dcim_powerfeed(tenant_id);

CREATE UNIQUE INDEX dcim_powerfeed_power_panel_name ON dcim_powerfeed(power_panel_id, name);

-- dcim.device.rack
ALTER TABLE dcim_device ADD COLUMN rack_id INTEGER REFERENCES dcim_rack(id) ON DELETE RESTRICT;

CREATE INDEX dcim_device_rack_id ON dcim_device(rack_id);

-- dcim.device.position
ALTER TABLE dcim_device ADD COLUMN position REAL;

-- dcim.device.face
ALTER TABLE dcim_device ADD COLUMN face TEXT;

-- dcim.device.virtual_chassis
ALTER TABLE dcim_device ADD COLUMN virtual_chassis_id INTEGER REFERENCES dcim_virtualchassis(id) ON DELETE SET NULL;

CREATE INDEX dcim_device_virtual_chassis_id ON dcim_device(virtual_chassis_id);

-- dcim.device.vc_position
ALTER TABLE dcim_device ADD COLUMN vc_position INTEGER;

-- dcim.device.vc_priority
ALTER TABLE dcim_device ADD COLUMN vc_priority INTEGER;

-- dcim.device (virtual_chassis, vc_position): unique together
CREATE UNIQUE INDEX dcim_device_virtual_chassis_vc_position ON dcim_device(virtual_chassis_id, vc_position);
