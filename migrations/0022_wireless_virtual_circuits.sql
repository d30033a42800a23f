-- Wireless LAN groups, wireless LANs and wireless links (with interfaces' wireless LANs); virtual
-- circuit types, virtual circuits and their terminations.
-- wireless.wirelesslangroup
CREATE TABLE wireless_wirelesslangroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  parent_id INTEGER REFERENCES wireless_wirelesslangroup(id) ON DELETE CASCADE,
  description TEXT NOT NULL DEFAULT '',
  _depth INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX wireless_wirelesslangroup_parent_id ON wireless_wirelesslangroup(parent_id);

-- wireless.wirelesslan
CREATE TABLE wireless_wirelesslan (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ssid TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  group_id INTEGER REFERENCES wireless_wirelesslangroup(id) ON DELETE SET NULL,
  status TEXT NOT NULL DEFAULT 'active',
  vlan_id INTEGER REFERENCES ipam_vlan(id) ON DELETE RESTRICT,
  scope_type TEXT,
  scope_id INTEGER,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  auth_type TEXT,
  auth_cipher TEXT,
  auth_psk TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX wireless_wirelesslan_group_id ON wireless_wirelesslan(group_id);

CREATE INDEX wireless_wirelesslan_vlan_id ON wireless_wirelesslan(vlan_id);

CREATE INDEX wireless_wirelesslan_scope ON wireless_wirelesslan(scope_type, scope_id);

CREATE INDEX wireless_wirelesslan_tenant_id ON wireless_wirelesslan(tenant_id);

CREATE INDEX wireless_wirelesslan_ordering ON wireless_wirelesslan(ssid);

-- wireless.wirelesslink
CREATE TABLE wireless_wirelesslink (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  interface_a_id INTEGER NOT NULL REFERENCES dcim_interface(id) ON DELETE CASCADE,
  interface_b_id INTEGER NOT NULL REFERENCES dcim_interface(id) ON DELETE CASCADE,
  ssid TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'connected',
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  auth_type TEXT,
  auth_cipher TEXT,
  auth_psk TEXT NOT NULL DEFAULT '',
  distance REAL,
  distance_unit TEXT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX wireless_wirelesslink_interface_a_id ON wireless_wirelesslink(interface_a_id);

CREATE INDEX wireless_wirelesslink_interface_b_id ON wireless_wirelesslink(interface_b_id);

CREATE INDEX wireless_wirelesslink_tenant_id ON wireless_wirelesslink(tenant_id);

CREATE UNIQUE INDEX wireless_wirelesslink_interface_a_interface_b ON wireless_wirelesslink(interface_a_id, interface_b_id);

-- circuits.virtualcircuittype
CREATE TABLE circuits_virtualcircuittype (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  color TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- circuits.virtualcircuit
CREATE TABLE circuits_virtualcircuit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  cid TEXT NOT NULL,
  provider_network_id INTEGER NOT NULL REFERENCES circuits_providernetwork(id) ON DELETE RESTRICT,
  provider_account_id INTEGER REFERENCES circuits_provideraccount(id) ON DELETE RESTRICT,
  type_id INTEGER NOT NULL REFERENCES circuits_virtualcircuittype(id) ON DELETE RESTRICT,
  status TEXT NOT NULL DEFAULT 'active',
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX circuits_virtualcircuit_provider_network_id ON circuits_virtualcircuit(provider_network_id);

CREATE INDEX circuits_virtualcircuit_provider_account_id ON circuits_virtualcircuit(provider_account_id);

CREATE INDEX circuits_virtualcircuit_type_id ON circuits_virtualcircuit(type_id);

CREATE INDEX circuits_virtualcircuit_tenant_id ON circuits_virtualcircuit(tenant_id);

CREATE INDEX circuits_virtualcircuit_ordering ON circuits_virtualcircuit(provider_network_id, provider_account_id, cid);

CREATE UNIQUE INDEX circuits_virtualcircuit_provider_network_cid ON circuits_virtualcircuit(provider_network_id, cid);

CREATE UNIQUE INDEX circuits_virtualcircuit_provider_account_cid ON circuits_virtualcircuit(provider_account_id, cid);

-- circuits.virtualcircuittermination
CREATE TABLE circuits_virtualcircuittermination (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  virtual_circuit_id INTEGER NOT NULL REFERENCES circuits_virtualcircuit(id) ON DELETE CASCADE,
  role TEXT NOT NULL DEFAULT 'peer',
  interface_id INTEGER NOT NULL UNIQUE REFERENCES dcim_interface(id) ON DELETE CASCADE,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX circuits_virtualcircuittermination_virtual_circuit_id ON circuits_virtualcircuittermination(virtual_circuit_id);

CREATE INDEX circuits_virtualcircuittermination_ordering ON circuits_virtualcircuittermination(virtual_circuit_id, role);

-- dcim.interface.wireless_lans
CREATE TABLE dcim_interface_wireless_lans (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  interface_id INTEGER NOT NULL REFERENCES dcim_interface(id) ON DELETE CASCADE,
  wirelesslan_id INTEGER NOT NULL REFERENCES wireless_wirelesslan(id) ON DELETE CASCADE,
  UNIQUE (interface_id, wirelesslan_id)
);

CREATE INDEX dcim_interface_wireless_lans_wirelesslan_id ON dcim_interface_wireless_lans(wirelesslan_id);
