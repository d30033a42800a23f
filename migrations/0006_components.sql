-- Device components (console, power, bays, inventory items), modules and module types, and the
-- component templates of device and module types. Every modular component gains its module.

-- dcim.moduletype
CREATE TABLE dcim_moduletype (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  manufacturer_id INTEGER NOT NULL REFERENCES dcim_manufacturer(id) ON DELETE RESTRICT,
  model TEXT NOT NULL,
  part_number TEXT NOT NULL DEFAULT '',
  airflow TEXT,
  weight REAL,
  weight_unit TEXT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_moduletype_manufacturer_id ON dcim_moduletype(manufacturer_id);

CREATE UNIQUE INDEX dcim_moduletype_manufacturer_model ON dcim_moduletype(manufacturer_id, model);

-- dcim.module
CREATE TABLE dcim_module (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  module_bay_id INTEGER NOT NULL UNIQUE REFERENCES dcim_modulebay(id) ON DELETE CASCADE,
  module_type_id INTEGER NOT NULL REFERENCES dcim_moduletype(id) ON DELETE RESTRICT,
  status TEXT NOT NULL DEFAULT 'active',
  serial TEXT NOT NULL DEFAULT '',
  asset_tag TEXT UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_module_device_id ON dcim_module(device_id);

CREATE INDEX dcim_module_module_type_id ON dcim_module(module_type_id);

-- dcim.consoleport
CREATE TABLE dcim_consoleport (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  module_id INTEGER REFERENCES dcim_module(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT,
  speed INTEGER,
  description TEXT NOT NULL DEFAULT '',
  mark_connected INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_consoleport_device_id ON dcim_consoleport(device_id);

CREATE INDEX dcim_consoleport_module_id ON dcim_consoleport(module_id);

CREATE UNIQUE INDEX dcim_consoleport_device_name ON dcim_consoleport(device_id, name);

-- dcim.consoleserverport
CREATE TABLE dcim_consoleserverport (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  module_id INTEGER REFERENCES dcim_module(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT,
  speed INTEGER,
  description TEXT NOT NULL DEFAULT '',
  mark_connected INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_consoleserverport_device_id ON dcim_consoleserverport(device_id);

CREATE INDEX dcim_consoleserverport_module_id ON dcim_consoleserverport(module_id);

CREATE UNIQUE INDEX dcim_consoleserverport_device_name ON dcim_consoleserverport(device_id, name);

-- dcim.powerport
CREATE TABLE dcim_powerport (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  module_id INTEGER REFERENCES dcim_module(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT,
  maximum_draw INTEGER,
  allocated_draw INTEGER,
  description TEXT NOT NULL DEFAULT '',
  mark_connected INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_powerport_device_id ON dcim_powerport(device_id);

CREATE INDEX dcim_powerport_module_id ON dcim_powerport(module_id);

CREATE UNIQUE INDEX dcim_powerport_device_name ON dcim_powerport(device_id, name);

-- dcim.poweroutlet
CREATE TABLE dcim_poweroutlet (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  module_id INTEGER REFERENCES dcim_module(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT,
  color TEXT NOT NULL DEFAULT '',
  power_port_id INTEGER REFERENCES dcim_powerport(id) ON DELETE SET NULL,
  feed_leg TEXT,
  description TEXT NOT NULL DEFAULT '',
  mark_connected INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_poweroutlet_device_id ON dcim_poweroutlet(device_id);

CREATE INDEX dcim_poweroutlet_module_id ON dcim_poweroutlet(module_id);

CREATE INDEX dcim_poweroutlet_power_port_id ON dcim_poweroutlet(power_port_id);

CREATE UNIQUE INDEX dcim_poweroutlet_device_name ON dcim_poweroutlet(device_id, name);

-- dcim.devicebay
CREATE TABLE dcim_devicebay (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  installed_device_id INTEGER UNIQUE REFERENCES dcim_device(id) ON DELETE SET NULL,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_devicebay_device_id ON dcim_devicebay(device_id);

CREATE UNIQUE INDEX dcim_devicebay_device_name ON dcim_devicebay(device_id, name);

-- dcim.modulebay
CREATE TABLE dcim_modulebay (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  module_id INTEGER REFERENCES dcim_module(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  position TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_modulebay_device_id ON dcim_modulebay(device_id);

CREATE INDEX dcim_modulebay_module_id ON dcim_modulebay(module_id);

CREATE UNIQUE INDEX dcim_modulebay_device_name ON dcim_modulebay(device_id, name);

-- dcim.inventoryitemrole
CREATE TABLE dcim_inventoryitemrole (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  color TEXT NOT NULL DEFAULT '9e9e9e',
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- dcim.inventoryitem
CREATE TABLE dcim_inventoryitem (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE CASCADE,
  parent_id INTEGER REFERENCES dcim_inventoryitem(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'active',
  role_id INTEGER REFERENCES dcim_inventoryitemrole(id) ON DELETE SET NULL,
  manufacturer_id INTEGER REFERENCES dcim_manufacturer(id) ON DELETE RESTRICT,
  part_id TEXT NOT NULL DEFAULT '',
  serial TEXT NOT NULL DEFAULT '',
  asset_tag TEXT UNIQUE,
  discovered INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  component_type TEXT,
  component_id INTEGER,
  _depth INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_inventoryitem_device_id ON dcim_inventoryitem(device_id);

CREATE INDEX dcim_inventoryitem_parent_id ON dcim_inventoryitem(parent_id);

CREATE INDEX dcim_inventoryitem_role_id ON dcim_inventoryitem(role_id);

CREATE INDEX dcim_inventoryitem_manufacturer_id ON dcim_inventoryitem(manufacturer_id);

CREATE INDEX dcim_inventoryitem_component ON dcim_inventoryitem(component_type, component_id);

CREATE UNIQUE INDEX dcim_inventoryitem_device_parent_name ON dcim_inventoryitem(device_id, coalesce(parent_id, 0), name);

-- dcim.consoleporttemplate
CREATE TABLE dcim_consoleporttemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  module_type_id INTEGER REFERENCES dcim_moduletype(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_consoleporttemplate_device_type_id ON dcim_consoleporttemplate(device_type_id);

CREATE INDEX dcim_consoleporttemplate_module_type_id ON dcim_consoleporttemplate(module_type_id);

CREATE UNIQUE INDEX dcim_consoleporttemplate_device_type_name ON dcim_consoleporttemplate(device_type_id, name);

CREATE UNIQUE INDEX dcim_consoleporttemplate_module_type_name ON dcim_consoleporttemplate(module_type_id, name);

-- dcim.consoleserverporttemplate
CREATE TABLE dcim_consoleserverporttemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  module_type_id INTEGER REFERENCES dcim_moduletype(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_consoleserverporttemplate_device_type_id ON dcim_consoleserverporttemplate(device_type_id);

CREATE INDEX dcim_consoleserverporttemplate_module_type_id ON dcim_consoleserverporttemplate(module_type_id);

CREATE UNIQUE INDEX dcim_consoleserverporttemplate_device_type_name ON dcim_consoleserverporttemplate(device_type_id, name);

CREATE UNIQUE INDEX dcim_consoleserverporttemplate_module_type_name ON dcim_consoleserverporttemplate(module_type_id, name);

-- dcim.powerporttemplate
CREATE TABLE dcim_powerporttemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  module_type_id INTEGER REFERENCES dcim_moduletype(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT,
  maximum_draw INTEGER,
  allocated_draw INTEGER,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_powerporttemplate_device_type_id ON dcim_powerporttemplate(device_type_id);

CREATE INDEX dcim_powerporttemplate_module_type_id ON dcim_powerporttemplate(module_type_id);

CREATE UNIQUE INDEX dcim_powerporttemplate_device_type_name ON dcim_powerporttemplate(device_type_id, name);

CREATE UNIQUE INDEX dcim_powerporttemplate_module_type_name ON dcim_powerporttemplate(module_type_id, name);

-- dcim.poweroutlettemplate
CREATE TABLE dcim_poweroutlettemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  module_type_id INTEGER REFERENCES dcim_moduletype(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT,
  power_port_id INTEGER REFERENCES dcim_powerporttemplate(id) ON DELETE SET NULL,
  feed_leg TEXT,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_poweroutlettemplate_device_type_id ON dcim_poweroutlettemplate(device_type_id);

CREATE INDEX dcim_poweroutlettemplate_module_type_id ON dcim_poweroutlettemplate(module_type_id);

CREATE INDEX dcim_poweroutlettemplate_power_port_id ON dcim_poweroutlettemplate(power_port_id);

CREATE UNIQUE INDEX dcim_poweroutlettemplate_device_type_name ON dcim_poweroutlettemplate(device_type_id, name);

CREATE UNIQUE INDEX dcim_poweroutlettemplate_module_type_name ON dcim_poweroutlettemplate(module_type_id, name);

-- dcim.interfacetemplate
CREATE TABLE dcim_interfacetemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  module_type_id INTEGER REFERENCES dcim_moduletype(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  mgmt_only INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  bridge_id INTEGER REFERENCES dcim_interfacetemplate(id) ON DELETE SET NULL,
  poe_mode TEXT,
  poe_type TEXT,
  rf_role TEXT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_interfacetemplate_device_type_id ON dcim_interfacetemplate(device_type_id);

CREATE INDEX dcim_interfacetemplate_module_type_id ON dcim_interfacetemplate(module_type_id);

CREATE INDEX dcim_interfacetemplate_bridge_id ON dcim_interfacetemplate(bridge_id);

CREATE UNIQUE INDEX dcim_interfacetemplate_device_type_name ON dcim_interfacetemplate(device_type_id, name);

CREATE UNIQUE INDEX dcim_interfacetemplate_module_type_name ON dcim_interfacetemplate(module_type_id, name);

-- dcim.rearporttemplate
CREATE TABLE dcim_rearporttemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  module_type_id INTEGER REFERENCES dcim_moduletype(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL,
  color TEXT NOT NULL DEFAULT '',
  positions INTEGER NOT NULL DEFAULT 1,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_rearporttemplate_device_type_id ON dcim_rearporttemplate(device_type_id);

CREATE INDEX dcim_rearporttemplate_module_type_id ON dcim_rearporttemplate(module_type_id);

CREATE UNIQUE INDEX dcim_rearporttemplate_device_type_name ON dcim_rearporttemplate(device_type_id, name);

CREATE UNIQUE INDEX dcim_rearporttemplate_module_type_name ON dcim_rearporttemplate(module_type_id, name);

-- dcim.frontporttemplate
CREATE TABLE dcim_frontporttemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  module_type_id INTEGER REFERENCES dcim_moduletype(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL,
  color TEXT NOT NULL DEFAULT '',
  rear_port_id INTEGER NOT NULL REFERENCES dcim_rearporttemplate(id) ON DELETE CASCADE,
  rear_port_position INTEGER NOT NULL DEFAULT 1,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_frontporttemplate_device_type_id ON dcim_frontporttemplate(device_type_id);

CREATE INDEX dcim_frontporttemplate_module_type_id ON dcim_frontporttemplate(module_type_id);

CREATE INDEX dcim_frontporttemplate_rear_port_id ON dcim_frontporttemplate(rear_port_id);

CREATE UNIQUE INDEX dcim_frontporttemplate_device_type_name ON dcim_frontporttemplate(device_type_id, name);

CREATE UNIQUE INDEX dcim_frontporttemplate_module_type_name ON dcim_frontporttemplate(module_type_id, name);

CREATE UNIQUE INDEX dcim_frontporttemplate_rear_port_rear_port_position ON dcim_frontporttemplate(rear_port_id, rear_port_position);

-- dcim.devicebaytemplate
CREATE TABLE dcim_devicebaytemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER NOT NULL REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_devicebaytemplate_device_type_id ON dcim_devicebaytemplate(device_type_id);

CREATE UNIQUE INDEX dcim_devicebaytemplate_device_type_name ON dcim_devicebaytemplate(device_type_id, name);

-- dcim.modulebaytemplate
CREATE TABLE dcim_modulebaytemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  module_type_id INTEGER REFERENCES dcim_moduletype(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  position TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_modulebaytemplate_device_type_id ON dcim_modulebaytemplate(device_type_id);

CREATE INDEX dcim_modulebaytemplate_module_type_id ON dcim_modulebaytemplate(module_type_id);

CREATE UNIQUE INDEX dcim_modulebaytemplate_device_type_name ON dcim_modulebaytemplate(device_type_id, name);

CREATE UNIQUE INDEX dcim_modulebaytemplate_module_type_name ON dcim_modulebaytemplate(module_type_id, name);

-- dcim.inventoryitemtemplate
CREATE TABLE dcim_inventoryitemtemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_type_id INTEGER NOT NULL REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  parent_id INTEGER REFERENCES dcim_inventoryitemtemplate(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  role_id INTEGER REFERENCES dcim_inventoryitemrole(id) ON DELETE SET NULL,
  manufacturer_id INTEGER REFERENCES dcim_manufacturer(id) ON DELETE RESTRICT,
  part_id TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  component_type TEXT,
  component_id INTEGER,
  _depth INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_inventoryitemtemplate_device_type_id ON dcim_inventoryitemtemplate(device_type_id);

CREATE INDEX dcim_inventoryitemtemplate_parent_id ON dcim_inventoryitemtemplate(parent_id);

CREATE INDEX dcim_inventoryitemtemplate_role_id ON dcim_inventoryitemtemplate(role_id);

CREATE INDEX dcim_inventoryitemtemplate_manufacturer_id ON dcim_inventoryitemtemplate(manufacturer_id);

CREATE INDEX dcim_inventoryitemtemplate_component ON dcim_inventoryitemtemplate(component_type, component_id);

CREATE UNIQUE INDEX dcim_inventoryitemtemplate_device_type_parent_name ON dcim_inventoryitemtemplate(device_type_id, coalesce(parent_id, 0), name);

-- dcim.interface.module
ALTER TABLE dcim_interface ADD COLUMN module_id INTEGER REFERENCES dcim_module(id) ON DELETE CASCADE;

CREATE INDEX dcim_interface_module_id ON dcim_interface(module_id);

-- dcim.frontport.module
ALTER TABLE dcim_frontport ADD COLUMN module_id INTEGER REFERENCES dcim_module(id) ON DELETE CASCADE;

CREATE INDEX dcim_frontport_module_id ON dcim_frontport(module_id);

-- dcim.rearport.module
ALTER TABLE dcim_rearport ADD COLUMN module_id INTEGER REFERENCES dcim_module(id) ON DELETE CASCADE;

CREATE INDEX dcim_rearport_module_id ON dcim_rearport(module_id);

