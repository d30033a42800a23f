-- Fields NetBox 4.2 has on models already here.

-- Services belong to a device or to a virtual machine (NetBox's `virtual_machine`).
-- ipam.service.virtual_machine
ALTER TABLE ipam_service ADD COLUMN virtual_machine_id INTEGER REFERENCES virtualization_virtualmachine(id) ON DELETE CASCADE;

CREATE INDEX ipam_service_virtual_machine_id ON ipam_service(virtual_machine_id);

-- Interfaces: their primary MAC address and VRF.
-- dcim.interface.primary_mac_address
ALTER TABLE dcim_interface ADD COLUMN primary_mac_address_id INTEGER REFERENCES dcim_macaddress(id) ON DELETE SET NULL;

CREATE INDEX dcim_interface_primary_mac_address_id ON dcim_interface(primary_mac_address_id);

-- dcim.interface.vrf
ALTER TABLE dcim_interface ADD COLUMN vrf_id INTEGER REFERENCES ipam_vrf(id) ON DELETE SET NULL;

CREATE INDEX dcim_interface_vrf_id ON dcim_interface(vrf_id);

-- VM interfaces: their 802.1Q VLANs and VRF.
-- virtualization.vminterface.untagged_vlan
ALTER TABLE virtualization_vminterface ADD COLUMN untagged_vlan_id INTEGER REFERENCES ipam_vlan(id) ON DELETE SET NULL;

CREATE INDEX virtualization_vminterface_untagged_vlan_id ON virtualization_vminterface(untagged_vlan_id);

-- virtualization.vminterface.vrf
ALTER TABLE virtualization_vminterface ADD COLUMN vrf_id INTEGER REFERENCES ipam_vrf(id) ON DELETE SET NULL;

CREATE INDEX virtualization_vminterface_vrf_id ON virtualization_vminterface(vrf_id);

-- virtualization.vminterface.tagged_vlans
CREATE TABLE virtualization_vminterface_tagged_vlans (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  vminterface_id INTEGER NOT NULL REFERENCES virtualization_vminterface(id) ON DELETE CASCADE,
  vlan_id INTEGER NOT NULL REFERENCES ipam_vlan(id) ON DELETE CASCADE,
  UNIQUE (vminterface_id, vlan_id)
);

CREATE INDEX virtualization_vminterface_tagged_vlans_vlan_id ON virtualization_vminterface_tagged_vlans(vlan_id);

-- Sites and providers hold ASNs.
-- dcim.site.asns
CREATE TABLE dcim_site_asns (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id INTEGER NOT NULL REFERENCES dcim_site(id) ON DELETE CASCADE,
  asn_id INTEGER NOT NULL REFERENCES ipam_asn(id) ON DELETE CASCADE,
  UNIQUE (site_id, asn_id)
);

CREATE INDEX dcim_site_asns_asn_id ON dcim_site_asns(asn_id);

-- circuits.provider.asns
CREATE TABLE circuits_provider_asns (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  provider_id INTEGER NOT NULL REFERENCES circuits_provider(id) ON DELETE CASCADE,
  asn_id INTEGER NOT NULL REFERENCES ipam_asn(id) ON DELETE CASCADE,
  UNIQUE (provider_id, asn_id)
);

CREATE INDEX circuits_provider_asns_asn_id ON circuits_provider_asns(asn_id);
