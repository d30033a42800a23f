-- Virtual machines gain their primary and out-of-band IP addresses.
-- virtualization.virtualmachine.primary_ip4
ALTER TABLE virtualization_virtualmachine ADD COLUMN primary_ip4_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE SET NULL;

CREATE INDEX virtualization_virtualmachine_primary_ip4_id ON virtualization_virtualmachine(primary_ip4_id);

-- virtualization.virtualmachine.primary_ip6
ALTER TABLE virtualization_virtualmachine ADD COLUMN primary_ip6_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE SET NULL;

CREATE INDEX virtualization_virtualmachine_primary_ip6_id ON virtualization_virtualmachine(primary_ip6_id);

-- virtualization.virtualmachine.oob_ip
ALTER TABLE virtualization_virtualmachine ADD COLUMN oob_ip_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE SET NULL;

CREATE INDEX virtualization_virtualmachine_oob_ip_id ON virtualization_virtualmachine(oob_ip_id);

