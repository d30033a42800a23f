-- IPAM: RIRs, aggregates, ASNs and ASN ranges, VRFs and route targets, roles, prefixes, IP ranges,
-- IP addresses, VLAN groups and VLANs, services and templates, FHRP groups, devices' primary
-- addresses and interfaces' VLANs.

-- ipam.rir
CREATE TABLE ipam_rir (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  is_private INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- ipam.aggregate
CREATE TABLE ipam_aggregate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  family INTEGER NOT NULL,
  prefix_start TEXT NOT NULL,
  prefix_end TEXT NOT NULL,
  prefix_length INTEGER NOT NULL,
  prefix TEXT NOT NULL,
  rir_id INTEGER NOT NULL REFERENCES ipam_rir(id) ON DELETE RESTRICT,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  date_added TEXT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_aggregate_prefix ON ipam_aggregate(prefix_start, prefix_end, prefix_length, prefix);

CREATE INDEX ipam_aggregate_rir_id ON ipam_aggregate(rir_id);

CREATE INDEX ipam_aggregate_tenant_id ON ipam_aggregate(tenant_id);

-- ipam.asn
CREATE TABLE ipam_asn (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  asn INTEGER NOT NULL UNIQUE,
  rir_id INTEGER REFERENCES ipam_rir(id) ON DELETE RESTRICT,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_asn_rir_id ON ipam_asn(rir_id);

CREATE INDEX ipam_asn_tenant_id ON ipam_asn(tenant_id);

-- ipam.asnrange
CREATE TABLE ipam_asnrange (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  rir_id INTEGER NOT NULL REFERENCES ipam_rir(id) ON DELETE RESTRICT,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_asnrange_rir_id ON ipam_asnrange(rir_id);

CREATE INDEX ipam_asnrange_tenant_id ON ipam_asnrange(tenant_id);

-- ipam.routetarget
CREATE TABLE ipam_routetarget (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_routetarget_tenant_id ON ipam_routetarget(tenant_id);

-- ipam.vrf
CREATE TABLE ipam_vrf (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  rd TEXT UNIQUE,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  enforce_unique INTEGER NOT NULL DEFAULT 1,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_vrf_tenant_id ON ipam_vrf(tenant_id);

CREATE TABLE ipam_vrf_import_targets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  vrf_id INTEGER NOT NULL REFERENCES ipam_vrf(id) ON DELETE CASCADE,
  routetarget_id INTEGER NOT NULL REFERENCES ipam_routetarget(id) ON DELETE CASCADE,
  UNIQUE (vrf_id, routetarget_id)
);

CREATE INDEX ipam_vrf_import_targets_routetarget_id ON ipam_vrf_import_targets(routetarget_id);

CREATE TABLE ipam_vrf_export_targets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  vrf_id INTEGER NOT NULL REFERENCES ipam_vrf(id) ON DELETE CASCADE,
  routetarget_id INTEGER NOT NULL REFERENCES ipam_routetarget(id) ON DELETE CASCADE,
  UNIQUE (vrf_id, routetarget_id)
);

CREATE INDEX ipam_vrf_export_targets_routetarget_id ON ipam_vrf_export_targets(routetarget_id);

-- ipam.role
CREATE TABLE ipam_role (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  weight INTEGER NOT NULL DEFAULT 1000,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- ipam.prefix
CREATE TABLE ipam_prefix (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  family INTEGER NOT NULL,
  prefix_start TEXT NOT NULL,
  prefix_end TEXT NOT NULL,
  prefix_length INTEGER NOT NULL,
  prefix TEXT NOT NULL,
  site_id INTEGER REFERENCES dcim_site(id) ON DELETE RESTRICT,
  vrf_id INTEGER REFERENCES ipam_vrf(id) ON DELETE RESTRICT,
  scope_type TEXT,
  scope_id INTEGER,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  vlan_id INTEGER REFERENCES ipam_vlan(id) ON DELETE RESTRICT,
  status TEXT NOT NULL DEFAULT 'active',
  role_id INTEGER REFERENCES ipam_role(id) ON DELETE SET NULL,
  is_pool INTEGER NOT NULL DEFAULT 0,
  mark_utilized INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  children INTEGER NOT NULL DEFAULT 0,
  _depth INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_prefix_prefix ON ipam_prefix(prefix_start, prefix_end, prefix_length, prefix);

CREATE INDEX ipam_prefix_site_id ON ipam_prefix(site_id);

-- Ranges are searched within one VRF (NULL: the global table; `vrf_id IS ?` uses the index).
CREATE INDEX ipam_prefix_vrf_range ON ipam_prefix(vrf_id, prefix_start, prefix_length);

CREATE INDEX ipam_prefix_scope ON ipam_prefix(scope_type, scope_id);

CREATE INDEX ipam_prefix_tenant_id ON ipam_prefix(tenant_id);

CREATE INDEX ipam_prefix_vlan_id ON ipam_prefix(vlan_id);

CREATE INDEX ipam_prefix_role_id ON ipam_prefix(role_id);

-- ipam.iprange
CREATE TABLE ipam_iprange (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  family INTEGER NOT NULL,
  start_address_start TEXT NOT NULL,
  start_address_end TEXT NOT NULL,
  start_address_length INTEGER NOT NULL,
  start_address TEXT NOT NULL,
  end_address_start TEXT NOT NULL,
  end_address_end TEXT NOT NULL,
  end_address_length INTEGER NOT NULL,
  end_address TEXT NOT NULL,
  size INTEGER NOT NULL DEFAULT 0,
  vrf_id INTEGER REFERENCES ipam_vrf(id) ON DELETE RESTRICT,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  status TEXT NOT NULL DEFAULT 'active',
  role_id INTEGER REFERENCES ipam_role(id) ON DELETE SET NULL,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  mark_utilized INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_iprange_start_address ON ipam_iprange(start_address_start, start_address_end, start_address_length, start_address);

CREATE INDEX ipam_iprange_end_address ON ipam_iprange(end_address_start, end_address_end, end_address_length, end_address);

CREATE INDEX ipam_iprange_vrf_range ON ipam_iprange(vrf_id, start_address_start);

CREATE INDEX ipam_iprange_tenant_id ON ipam_iprange(tenant_id);

CREATE INDEX ipam_iprange_role_id ON ipam_iprange(role_id);

-- ipam.ipaddress
CREATE TABLE ipam_ipaddress (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  family INTEGER NOT NULL,
  address_start TEXT NOT NULL,
  address_end TEXT NOT NULL,
  address_length INTEGER NOT NULL,
  address TEXT NOT NULL,
  vrf_id INTEGER REFERENCES ipam_vrf(id) ON DELETE RESTRICT,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  status TEXT NOT NULL DEFAULT 'active',
  role TEXT,
  assigned_object_type TEXT,
  assigned_object_id INTEGER,
  nat_inside_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE SET NULL,
  dns_name TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_ipaddress_address ON ipam_ipaddress(address_start, address_end, address_length, address);

CREATE INDEX ipam_ipaddress_vrf_range ON ipam_ipaddress(vrf_id, address_start);

CREATE INDEX ipam_ipaddress_tenant_id ON ipam_ipaddress(tenant_id);

CREATE INDEX ipam_ipaddress_assigned_object ON ipam_ipaddress(assigned_object_type, assigned_object_id);

CREATE INDEX ipam_ipaddress_nat_inside_id ON ipam_ipaddress(nat_inside_id);

-- ipam.vlangroup
CREATE TABLE ipam_vlangroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  scope_type TEXT,
  scope_id INTEGER,
  vid_ranges TEXT NOT NULL DEFAULT '[[1,4094]]',
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_vlangroup_scope ON ipam_vlangroup(scope_type, scope_id);

-- ipam.vlan
CREATE TABLE ipam_vlan (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id INTEGER REFERENCES dcim_site(id) ON DELETE RESTRICT,
  group_id INTEGER REFERENCES ipam_vlangroup(id) ON DELETE RESTRICT,
  vid INTEGER NOT NULL,
  name TEXT NOT NULL,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  status INTEGER NOT NULL DEFAULT 1,
  role_id INTEGER REFERENCES ipam_role(id) ON DELETE SET NULL,
  description TEXT NOT NULL DEFAULT '',
  qinq_role TEXT,
  qinq_svlan_id INTEGER REFERENCES ipam_vlan(id) ON DELETE SET NULL,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_vlan_site_id ON ipam_vlan(site_id);

CREATE INDEX ipam_vlan_group_id ON ipam_vlan(group_id);

CREATE INDEX ipam_vlan_tenant_id ON ipam_vlan(tenant_id);

CREATE INDEX ipam_vlan_role_id ON ipam_vlan(role_id);

CREATE INDEX ipam_vlan_qinq_svlan_id ON ipam_vlan(qinq_svlan_id);

CREATE UNIQUE INDEX ipam_vlan_group_vid ON ipam_vlan(group_id, vid);

CREATE UNIQUE INDEX ipam_vlan_group_name ON ipam_vlan(group_id, name);

-- ipam.servicetemplate
CREATE TABLE ipam_servicetemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  protocol TEXT NOT NULL,
  ports TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- ipam.service
CREATE TABLE ipam_service (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  device_id INTEGER REFERENCES dcim_device(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  protocol TEXT NOT NULL,
  ports TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_service_device_id ON ipam_service(device_id);

CREATE TABLE ipam_service_ipaddresses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  service_id INTEGER NOT NULL REFERENCES ipam_service(id) ON DELETE CASCADE,
  ipaddress_id INTEGER NOT NULL REFERENCES ipam_ipaddress(id) ON DELETE CASCADE,
  UNIQUE (service_id, ipaddress_id)
);

CREATE INDEX ipam_service_ipaddresses_ipaddress_id ON ipam_service_ipaddresses(ipaddress_id);

-- ipam.fhrpgroup
CREATE TABLE ipam_fhrpgroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL DEFAULT '',
  protocol TEXT NOT NULL,
  group_id INTEGER NOT NULL,
  auth_type TEXT,
  auth_key TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- ipam.fhrpgroupassignment
CREATE TABLE ipam_fhrpgroupassignment (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  group_id INTEGER NOT NULL REFERENCES ipam_fhrpgroup(id) ON DELETE CASCADE,
  interface_type TEXT NOT NULL,
  interface_id INTEGER NOT NULL,
  priority INTEGER NOT NULL,
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_fhrpgroupassignment_group_id ON ipam_fhrpgroupassignment(group_id);

CREATE UNIQUE INDEX ipam_fhrpgroupassignment_interface ON ipam_fhrpgroupassignment(interface_type, interface_id, group_id);

-- dcim.device.primary_ip4
ALTER TABLE dcim_device ADD COLUMN primary_ip4_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE SET NULL;

CREATE INDEX dcim_device_primary_ip4_id ON dcim_device(primary_ip4_id);

-- dcim.device.primary_ip6
ALTER TABLE dcim_device ADD COLUMN primary_ip6_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE SET NULL;

CREATE INDEX dcim_device_primary_ip6_id ON dcim_device(primary_ip6_id);

-- dcim.device.oob_ip
ALTER TABLE dcim_device ADD COLUMN oob_ip_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE SET NULL;

CREATE INDEX dcim_device_oob_ip_id ON dcim_device(oob_ip_id);

-- dcim.interface.untagged_vlan
ALTER TABLE dcim_interface ADD COLUMN untagged_vlan_id INTEGER REFERENCES ipam_vlan(id) ON DELETE SET NULL;

CREATE INDEX dcim_interface_untagged_vlan_id ON dcim_interface(untagged_vlan_id);

-- dcim.interface.tagged_vlans
CREATE TABLE dcim_interface_tagged_vlans (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  interface_id INTEGER NOT NULL REFERENCES dcim_interface(id) ON DELETE CASCADE,
  vlan_id INTEGER NOT NULL REFERENCES ipam_vlan(id) ON DELETE CASCADE,
  UNIQUE (interface_id, vlan_id)
);

CREATE INDEX dcim_interface_tagged_vlans_vlan_id ON dcim_interface_tagged_vlans(vlan_id);

-- How many distinct hosts each 256-address block of each VRF (0: the global table) holds, kept
-- by the triggers below, so a search for free addresses skips full blocks whole instead of
-- reading every address of a nearly full prefix. `block` is an address key less its last two
-- hex digits.
CREATE TABLE ipam_ipblock (
  vrf INTEGER NOT NULL,
  block TEXT NOT NULL,
  used INTEGER NOT NULL,
  PRIMARY KEY (vrf, block)
) WITHOUT ROWID;

CREATE TRIGGER ipam_ipaddress_block_insert AFTER INSERT ON ipam_ipaddress WHEN NOT EXISTS (SELECT 1 FROM ipam_ipaddress o WHERE o.vrf_id IS NEW.vrf_id AND o.address_start = NEW.address_start AND o.id <> NEW.id) BEGIN INSERT INTO ipam_ipblock (vrf, block, used) VALUES (coalesce(NEW.vrf_id, 0), substr(NEW.address_start, 1, 31), 1) ON CONFLICT (vrf, block) DO UPDATE SET used = used + 1; END;

CREATE TRIGGER ipam_ipaddress_block_delete AFTER DELETE ON ipam_ipaddress WHEN NOT EXISTS (SELECT 1 FROM ipam_ipaddress o WHERE o.vrf_id IS OLD.vrf_id AND o.address_start = OLD.address_start) BEGIN UPDATE ipam_ipblock SET used = used - 1 WHERE vrf = coalesce(OLD.vrf_id, 0) AND block = substr(OLD.address_start, 1, 31); END;

CREATE TRIGGER ipam_ipaddress_block_update AFTER UPDATE OF address_start, vrf_id ON ipam_ipaddress WHEN OLD.address_start IS NOT NEW.address_start OR OLD.vrf_id IS NOT NEW.vrf_id BEGIN UPDATE ipam_ipblock SET used = used - 1 WHERE vrf = coalesce(OLD.vrf_id, 0) AND block = substr(OLD.address_start, 1, 31) AND NOT EXISTS (SELECT 1 FROM ipam_ipaddress o WHERE o.vrf_id IS OLD.vrf_id AND o.address_start = OLD.address_start); INSERT INTO ipam_ipblock (vrf, block, used) SELECT coalesce(NEW.vrf_id, 0), substr(NEW.address_start, 1, 31), 1 WHERE NOT EXISTS (SELECT 1 FROM ipam_ipaddress o WHERE o.vrf_id IS NEW.vrf_id AND o.address_start = NEW.address_start AND o.id <> NEW.id) ON CONFLICT (vrf, block) DO UPDATE SET used = used + 1; END;

-- An allocation (POST .../available-ips/ and the like) picks its value inside the insert; NULL
-- means a concurrent allocation took every candidate offered. The abort reads as the engine's
-- guard failures do, and the allocation looks again (src/ipam/allocation-plan.ts).
CREATE TRIGGER ipam_ipaddress_exhausted BEFORE INSERT ON ipam_ipaddress WHEN NEW.address_start IS NULL BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: guard_exhausted'); END;

CREATE TRIGGER ipam_prefix_exhausted BEFORE INSERT ON ipam_prefix WHEN NEW.prefix_start IS NULL BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: guard_exhausted'); END;

CREATE TRIGGER ipam_vlan_exhausted BEFORE INSERT ON ipam_vlan WHEN NEW.vid IS NULL BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: guard_exhausted'); END;

CREATE TRIGGER ipam_asn_exhausted BEFORE INSERT ON ipam_asn WHEN NEW.asn IS NULL BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: guard_exhausted'); END;

