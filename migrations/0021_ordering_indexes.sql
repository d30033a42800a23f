-- Each list's default ordering gets an index to page through (orderingIndexSql in src/engine/ddl.ts,
-- which new models' DDL now includes): without one, a page of a large table sorted every row it
-- had, so a page's cost grew with the table (10,000 devices: a brief page 2.7x slower than on 100).

-- circuits.circuit: provider, provider_account, cid
CREATE INDEX circuits_circuit_ordering ON circuits_circuit(provider_id, provider_account_id, cid);

-- circuits.circuitgroupassignment: group, priority
CREATE INDEX circuits_circuitgroupassignment_ordering ON circuits_circuitgroupassignment(group_id, priority);

-- dcim.region: name
CREATE INDEX dcim_region_ordering ON dcim_region(name);

-- dcim.sitegroup: name
CREATE INDEX dcim_sitegroup_ordering ON dcim_sitegroup(name);

-- dcim.location: name
CREATE INDEX dcim_location_ordering ON dcim_location(name);

-- dcim.devicetype: model
CREATE INDEX dcim_devicetype_ordering ON dcim_devicetype(model);

-- dcim.device: name
CREATE INDEX dcim_device_ordering ON dcim_device(name);

-- dcim.macaddress: mac_address
CREATE INDEX dcim_macaddress_ordering ON dcim_macaddress(mac_address);

-- dcim.rack: site, location, name
CREATE INDEX dcim_rack_ordering ON dcim_rack(site_id, location_id, name);

-- dcim.virtualchassis: name
CREATE INDEX dcim_virtualchassis_ordering ON dcim_virtualchassis(name);

-- dcim.rackreservation: created, id
CREATE INDEX dcim_rackreservation_ordering ON dcim_rackreservation(created);

-- dcim.consoleporttemplate: device_type, module_type, name
CREATE INDEX dcim_consoleporttemplate_ordering ON dcim_consoleporttemplate(device_type_id, module_type_id, name);

-- dcim.consoleserverporttemplate: device_type, module_type, name
CREATE INDEX dcim_consoleserverporttemplate_ordering ON dcim_consoleserverporttemplate(device_type_id, module_type_id, name);

-- dcim.powerporttemplate: device_type, module_type, name
CREATE INDEX dcim_powerporttemplate_ordering ON dcim_powerporttemplate(device_type_id, module_type_id, name);

-- dcim.poweroutlettemplate: device_type, module_type, name
CREATE INDEX dcim_poweroutlettemplate_ordering ON dcim_poweroutlettemplate(device_type_id, module_type_id, name);

-- dcim.interfacetemplate: device_type, module_type, name
CREATE INDEX dcim_interfacetemplate_ordering ON dcim_interfacetemplate(device_type_id, module_type_id, name);

-- dcim.rearporttemplate: device_type, module_type, name
CREATE INDEX dcim_rearporttemplate_ordering ON dcim_rearporttemplate(device_type_id, module_type_id, name);

-- dcim.frontporttemplate: device_type, module_type, name
CREATE INDEX dcim_frontporttemplate_ordering ON dcim_frontporttemplate(device_type_id, module_type_id, name);

-- dcim.modulebaytemplate: device_type, module_type, name
CREATE INDEX dcim_modulebaytemplate_ordering ON dcim_modulebaytemplate(device_type_id, module_type_id, name);

-- extras.customfield: group_name, weight, name
CREATE INDEX extras_customfield_ordering ON extras_customfield(group_name, weight, name);

-- extras.configcontext: weight, name
CREATE INDEX extras_configcontext_ordering ON extras_configcontext(weight, name);

-- extras.journalentry: -created
CREATE INDEX extras_journalentry_ordering ON extras_journalentry(created DESC);

-- ipam.vrf: name, rd
CREATE INDEX ipam_vrf_ordering ON ipam_vrf(name, rd);

-- ipam.role: weight, name
CREATE INDEX ipam_role_ordering ON ipam_role(weight, name);

-- ipam.vlangroup: name
CREATE INDEX ipam_vlangroup_ordering ON ipam_vlangroup(name);

-- ipam.vlan: site, group, vid
CREATE INDEX ipam_vlan_ordering ON ipam_vlan(site_id, group_id, vid);

-- ipam.service: protocol, name
CREATE INDEX ipam_service_ordering ON ipam_service(protocol, name);

-- ipam.fhrpgroup: protocol, group_id
CREATE INDEX ipam_fhrpgroup_ordering ON ipam_fhrpgroup(protocol, group_id);

-- ipam.fhrpgroupassignment: priority
CREATE INDEX ipam_fhrpgroupassignment_ordering ON ipam_fhrpgroupassignment(priority);

-- tenancy.tenant: name
CREATE INDEX tenancy_tenant_ordering ON tenancy_tenant(name);

-- tenancy.contactgroup: name
CREATE INDEX tenancy_contactgroup_ordering ON tenancy_contactgroup(name);

-- tenancy.contact: name
CREATE INDEX tenancy_contact_ordering ON tenancy_contact(name);

-- tenancy.contactassignment: contact, priority, role
CREATE INDEX tenancy_contactassignment_ordering ON tenancy_contactassignment(contact_id, priority, role_id);

-- users.token: -created
CREATE INDEX users_token_ordering ON users_token(created DESC);

-- users.objectpermission: name
CREATE INDEX users_objectpermission_ordering ON users_objectpermission(name);

-- virtualization.cluster: name
CREATE INDEX virtualization_cluster_ordering ON virtualization_cluster(name);

-- virtualization.virtualmachine: name
CREATE INDEX virtualization_virtualmachine_ordering ON virtualization_virtualmachine(name);
