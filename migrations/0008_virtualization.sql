-- Virtual machines, their interfaces and virtual disks.
-- virtualization.virtualmachine
CREATE TABLE virtualization_virtualmachine (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active',
  site_id INTEGER REFERENCES dcim_site(id) ON DELETE RESTRICT,
  cluster_id INTEGER REFERENCES virtualization_cluster(id) ON DELETE RESTRICT,
  device_id INTEGER REFERENCES dcim_device(id) ON DELETE RESTRICT,
  serial TEXT NOT NULL DEFAULT '',
  role_id INTEGER REFERENCES dcim_devicerole(id) ON DELETE RESTRICT,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  platform_id INTEGER REFERENCES dcim_platform(id) ON DELETE SET NULL,
  vcpus REAL,
  memory INTEGER,
  disk INTEGER,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  local_context_data TEXT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX virtualization_virtualmachine_site_id ON virtualization_virtualmachine(site_id);

CREATE INDEX virtualization_virtualmachine_cluster_id ON virtualization_virtualmachine(cluster_id);

CREATE INDEX virtualization_virtualmachine_device_id ON virtualization_virtualmachine(device_id);

CREATE INDEX virtualization_virtualmachine_role_id ON virtualization_virtualmachine(role_id);

CREATE INDEX virtualization_virtualmachine_tenant_id ON virtualization_virtualmachine(tenant_id);

CREATE INDEX virtualization_virtualmachine_platform_id ON virtualization_virtualmachine(platform_id);

CREATE UNIQUE INDEX virtualization_virtualmachine_cluster_tenant_name ON virtualization_virtualmachine(cluster_id, coalesce(tenant_id, 0), lower(name));

-- virtualization.vminterface
CREATE TABLE virtualization_vminterface (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  virtual_machine_id INTEGER NOT NULL REFERENCES virtualization_virtualmachine(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  parent_id INTEGER REFERENCES virtualization_vminterface(id) ON DELETE SET NULL,
  bridge_id INTEGER REFERENCES virtualization_vminterface(id) ON DELETE SET NULL,
  mtu INTEGER,
  primary_mac_address_id INTEGER REFERENCES dcim_macaddress(id) ON DELETE SET NULL,
  description TEXT NOT NULL DEFAULT '',
  mode TEXT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX virtualization_vminterface_virtual_machine_id ON virtualization_vminterface(virtual_machine_id);

CREATE INDEX virtualization_vminterface_parent_id ON virtualization_vminterface(parent_id);

CREATE INDEX virtualization_vminterface_bridge_id ON virtualization_vminterface(bridge_id);

CREATE INDEX virtualization_vminterface_primary_mac_address_id ON virtualization_vminterface(primary_mac_address_id);

CREATE UNIQUE INDEX virtualization_vminterface_virtual_machine_name ON virtualization_vminterface(virtual_machine_id, name);

-- virtualization.virtualdisk
CREATE TABLE virtualization_virtualdisk (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  virtual_machine_id INTEGER NOT NULL REFERENCES virtualization_virtualmachine(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  size INTEGER NOT NULL,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX virtualization_virtualdisk_virtual_machine_id ON virtualization_virtualdisk(virtual_machine_id);

CREATE UNIQUE INDEX virtualization_virtualdisk_virtual_machine_name ON virtualization_virtualdisk(virtual_machine_id, name);

-- A virtual machine's disk is the total size of its virtual disks whenever they change, as NetBox
-- keeps it (0 once the last one is gone); a trigger covers every path, cascades included. The
-- trigger's inner statement ends on the line of END, so the script splitter keeps it whole.
CREATE TRIGGER virtualization_virtualdisk_added AFTER INSERT ON virtualization_virtualdisk BEGIN
  UPDATE virtualization_virtualmachine SET disk = (SELECT coalesce(sum(size), 0) FROM virtualization_virtualdisk
    WHERE virtual_machine_id = NEW.virtual_machine_id) WHERE id = NEW.virtual_machine_id; END;

CREATE TRIGGER virtualization_virtualdisk_changed AFTER UPDATE OF size, virtual_machine_id ON virtualization_virtualdisk BEGIN
  UPDATE virtualization_virtualmachine SET disk = (SELECT coalesce(sum(size), 0) FROM virtualization_virtualdisk
    WHERE virtual_machine_id = virtualization_virtualmachine.id) WHERE id IN (OLD.virtual_machine_id, NEW.virtual_machine_id); END;

CREATE TRIGGER virtualization_virtualdisk_removed AFTER DELETE ON virtualization_virtualdisk BEGIN
  UPDATE virtualization_virtualmachine SET disk = (SELECT coalesce(sum(size), 0) FROM virtualization_virtualdisk
    WHERE virtual_machine_id = OLD.virtual_machine_id) WHERE id = OLD.virtual_machine_id; END;
