-- Lists order empty values as NetBox's PostgreSQL does: last ascending, first descending
-- (planOrdering in src/engine/filters.ts). The ordering indexes take the same expressions,
-- so that a page of a large table still costs the page.

-- circuits.circuit: provider, provider_account, cid
DROP INDEX IF EXISTS circuits_circuit_ordering;
CREATE INDEX circuits_circuit_ordering ON circuits_circuit(provider_id, provider_account_id IS NULL, provider_account_id, cid);

-- circuits.circuitgroupassignment: group, priority
DROP INDEX IF EXISTS circuits_circuitgroupassignment_ordering;
CREATE INDEX circuits_circuitgroupassignment_ordering ON circuits_circuitgroupassignment(group_id, priority IS NULL, priority);

-- circuits.virtualcircuit: provider_network, provider_account, cid
DROP INDEX IF EXISTS circuits_virtualcircuit_ordering;
CREATE INDEX circuits_virtualcircuit_ordering ON circuits_virtualcircuit(provider_network_id, provider_account_id IS NULL, provider_account_id, cid);

-- dcim.device: name
DROP INDEX IF EXISTS dcim_device_ordering;
CREATE INDEX dcim_device_ordering ON dcim_device(name IS NULL, name);

-- dcim.rack: site, location, name
DROP INDEX IF EXISTS dcim_rack_ordering;
CREATE INDEX dcim_rack_ordering ON dcim_rack(site_id, location_id IS NULL, location_id, name);

-- dcim.rackreservation: created, id
DROP INDEX IF EXISTS dcim_rackreservation_ordering;
CREATE INDEX dcim_rackreservation_ordering ON dcim_rackreservation(created IS NULL, created);

-- dcim.consoleporttemplate: device_type, module_type, name
DROP INDEX IF EXISTS dcim_consoleporttemplate_ordering;
CREATE INDEX dcim_consoleporttemplate_ordering ON dcim_consoleporttemplate(device_type_id IS NULL, device_type_id, module_type_id IS NULL, module_type_id, name);

-- dcim.consoleserverporttemplate: device_type, module_type, name
DROP INDEX IF EXISTS dcim_consoleserverporttemplate_ordering;
CREATE INDEX dcim_consoleserverporttemplate_ordering ON dcim_consoleserverporttemplate(device_type_id IS NULL, device_type_id, module_type_id IS NULL, module_type_id, name);

-- dcim.powerporttemplate: device_type, module_type, name
DROP INDEX IF EXISTS dcim_powerporttemplate_ordering;
CREATE INDEX dcim_powerporttemplate_ordering ON dcim_powerporttemplate(device_type_id IS NULL, device_type_id, module_type_id IS NULL, module_type_id, name);

-- dcim.poweroutlettemplate: device_type, module_type, name
DROP INDEX IF EXISTS dcim_poweroutlettemplate_ordering;
CREATE INDEX dcim_poweroutlettemplate_ordering ON dcim_poweroutlettemplate(device_type_id IS NULL, device_type_id, module_type_id IS NULL, module_type_id, name);

-- dcim.interfacetemplate: device_type, module_type, name
DROP INDEX IF EXISTS dcim_interfacetemplate_ordering;
CREATE INDEX dcim_interfacetemplate_ordering ON dcim_interfacetemplate(device_type_id IS NULL, device_type_id, module_type_id IS NULL, module_type_id, name);

-- dcim.rearporttemplate: device_type, module_type, name
DROP INDEX IF EXISTS dcim_rearporttemplate_ordering;
CREATE INDEX dcim_rearporttemplate_ordering ON dcim_rearporttemplate(device_type_id IS NULL, device_type_id, module_type_id IS NULL, module_type_id, name);

-- dcim.frontporttemplate: device_type, module_type, name
DROP INDEX IF EXISTS dcim_frontporttemplate_ordering;
CREATE INDEX dcim_frontporttemplate_ordering ON dcim_frontporttemplate(device_type_id IS NULL, device_type_id, module_type_id IS NULL, module_type_id, name);

-- dcim.modulebaytemplate: device_type, module_type, name
DROP INDEX IF EXISTS dcim_modulebaytemplate_ordering;
CREATE INDEX dcim_modulebaytemplate_ordering ON dcim_modulebaytemplate(device_type_id IS NULL, device_type_id, module_type_id IS NULL, module_type_id, name);

-- extras.journalentry: -created
DROP INDEX IF EXISTS extras_journalentry_ordering;
CREATE INDEX extras_journalentry_ordering ON extras_journalentry(created IS NULL DESC, created DESC);

-- ipam.vrf: name, rd
DROP INDEX IF EXISTS ipam_vrf_ordering;
CREATE INDEX ipam_vrf_ordering ON ipam_vrf(name, rd IS NULL, rd);

-- ipam.vlan: site, group, vid
DROP INDEX IF EXISTS ipam_vlan_ordering;
CREATE INDEX ipam_vlan_ordering ON ipam_vlan(site_id IS NULL, site_id, group_id IS NULL, group_id, vid);

-- tenancy.contactassignment: contact, priority, role
DROP INDEX IF EXISTS tenancy_contactassignment_ordering;
CREATE INDEX tenancy_contactassignment_ordering ON tenancy_contactassignment(contact_id, priority IS NULL, priority, role_id IS NULL, role_id);

-- vpn.l2vpn: name, identifier
DROP INDEX IF EXISTS vpn_l2vpn_ordering;
CREATE INDEX vpn_l2vpn_ordering ON vpn_l2vpn(name, identifier IS NULL, identifier);

