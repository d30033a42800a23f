-- Services belong to a device or to a virtual machine (NetBox's `virtual_machine`).
-- ipam.service.virtual_machine
ALTER TABLE ipam_service ADD COLUMN virtual_machine_id INTEGER REFERENCES virtualization_virtualmachine(id) ON DELETE CASCADE;

CREATE INDEX ipam_service_virtual_machine_id ON ipam_service(virtual_machine_id);
