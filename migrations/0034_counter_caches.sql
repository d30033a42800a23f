-- Counts NetBox keeps in the counting row (its counter caches): a device's component counts, a
-- virtual chassis' members, a virtual machine's interfaces and disks. Each is a column kept by
-- triggers on the counted table, in the transaction of the write that adds, removes or moves a
-- row, so a read takes the column instead of counting, and change records hold the counts, as
-- NetBox's do. The counts of rows already there are filled in once, here.

-- dcim.device.console_port_count
ALTER TABLE dcim_device ADD COLUMN console_port_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_console_port_count_added AFTER INSERT ON dcim_consoleport WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET console_port_count = console_port_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_console_port_count_removed AFTER DELETE ON dcim_consoleport WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET console_port_count = console_port_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_console_port_count_moved AFTER UPDATE OF device_id ON dcim_consoleport WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET console_port_count = console_port_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET console_port_count = console_port_count + 1 WHERE id = NEW.device_id; END;

-- dcim.device.console_server_port_count
ALTER TABLE dcim_device ADD COLUMN console_server_port_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_console_server_port_count_added AFTER INSERT ON dcim_consoleserverport WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET console_server_port_count = console_server_port_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_console_server_port_count_removed AFTER DELETE ON dcim_consoleserverport WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET console_server_port_count = console_server_port_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_console_server_port_count_moved AFTER UPDATE OF device_id ON dcim_consoleserverport WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET console_server_port_count = console_server_port_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET console_server_port_count = console_server_port_count + 1 WHERE id = NEW.device_id; END;

-- dcim.device.power_port_count
ALTER TABLE dcim_device ADD COLUMN power_port_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_power_port_count_added AFTER INSERT ON dcim_powerport WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET power_port_count = power_port_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_power_port_count_removed AFTER DELETE ON dcim_powerport WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET power_port_count = power_port_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_power_port_count_moved AFTER UPDATE OF device_id ON dcim_powerport WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET power_port_count = power_port_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET power_port_count = power_port_count + 1 WHERE id = NEW.device_id; END;

-- dcim.device.power_outlet_count
ALTER TABLE dcim_device ADD COLUMN power_outlet_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_power_outlet_count_added AFTER INSERT ON dcim_poweroutlet WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET power_outlet_count = power_outlet_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_power_outlet_count_removed AFTER DELETE ON dcim_poweroutlet WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET power_outlet_count = power_outlet_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_power_outlet_count_moved AFTER UPDATE OF device_id ON dcim_poweroutlet WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET power_outlet_count = power_outlet_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET power_outlet_count = power_outlet_count + 1 WHERE id = NEW.device_id; END;

-- dcim.device.interface_count
ALTER TABLE dcim_device ADD COLUMN interface_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_interface_count_added AFTER INSERT ON dcim_interface WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET interface_count = interface_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_interface_count_removed AFTER DELETE ON dcim_interface WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET interface_count = interface_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_interface_count_moved AFTER UPDATE OF device_id ON dcim_interface WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET interface_count = interface_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET interface_count = interface_count + 1 WHERE id = NEW.device_id; END;

-- dcim.device.front_port_count
ALTER TABLE dcim_device ADD COLUMN front_port_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_front_port_count_added AFTER INSERT ON dcim_frontport WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET front_port_count = front_port_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_front_port_count_removed AFTER DELETE ON dcim_frontport WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET front_port_count = front_port_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_front_port_count_moved AFTER UPDATE OF device_id ON dcim_frontport WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET front_port_count = front_port_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET front_port_count = front_port_count + 1 WHERE id = NEW.device_id; END;

-- dcim.device.rear_port_count
ALTER TABLE dcim_device ADD COLUMN rear_port_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_rear_port_count_added AFTER INSERT ON dcim_rearport WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET rear_port_count = rear_port_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_rear_port_count_removed AFTER DELETE ON dcim_rearport WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET rear_port_count = rear_port_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_rear_port_count_moved AFTER UPDATE OF device_id ON dcim_rearport WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET rear_port_count = rear_port_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET rear_port_count = rear_port_count + 1 WHERE id = NEW.device_id; END;

-- dcim.device.device_bay_count
ALTER TABLE dcim_device ADD COLUMN device_bay_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_device_bay_count_added AFTER INSERT ON dcim_devicebay WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET device_bay_count = device_bay_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_device_bay_count_removed AFTER DELETE ON dcim_devicebay WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET device_bay_count = device_bay_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_device_bay_count_moved AFTER UPDATE OF device_id ON dcim_devicebay WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET device_bay_count = device_bay_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET device_bay_count = device_bay_count + 1 WHERE id = NEW.device_id; END;

-- dcim.device.module_bay_count
ALTER TABLE dcim_device ADD COLUMN module_bay_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_module_bay_count_added AFTER INSERT ON dcim_modulebay WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET module_bay_count = module_bay_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_module_bay_count_removed AFTER DELETE ON dcim_modulebay WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET module_bay_count = module_bay_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_module_bay_count_moved AFTER UPDATE OF device_id ON dcim_modulebay WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET module_bay_count = module_bay_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET module_bay_count = module_bay_count + 1 WHERE id = NEW.device_id; END;

-- dcim.device.inventory_item_count
ALTER TABLE dcim_device ADD COLUMN inventory_item_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_device_inventory_item_count_added AFTER INSERT ON dcim_inventoryitem WHEN NEW.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET inventory_item_count = inventory_item_count + 1 WHERE id = NEW.device_id; END;

CREATE TRIGGER dcim_device_inventory_item_count_removed AFTER DELETE ON dcim_inventoryitem WHEN OLD.device_id IS NOT NULL
BEGIN UPDATE dcim_device SET inventory_item_count = inventory_item_count - 1 WHERE id = OLD.device_id; END;

CREATE TRIGGER dcim_device_inventory_item_count_moved AFTER UPDATE OF device_id ON dcim_inventoryitem WHEN OLD.device_id IS NOT NEW.device_id
BEGIN UPDATE dcim_device SET inventory_item_count = inventory_item_count - 1 WHERE id = OLD.device_id; UPDATE dcim_device SET inventory_item_count = inventory_item_count + 1 WHERE id = NEW.device_id; END;

-- dcim.virtualchassis.member_count
ALTER TABLE dcim_virtualchassis ADD COLUMN member_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_virtualchassis_member_count_added AFTER INSERT ON dcim_device WHEN NEW.virtual_chassis_id IS NOT NULL
BEGIN UPDATE dcim_virtualchassis SET member_count = member_count + 1 WHERE id = NEW.virtual_chassis_id; END;

CREATE TRIGGER dcim_virtualchassis_member_count_removed AFTER DELETE ON dcim_device WHEN OLD.virtual_chassis_id IS NOT NULL
BEGIN UPDATE dcim_virtualchassis SET member_count = member_count - 1 WHERE id = OLD.virtual_chassis_id; END;

CREATE TRIGGER dcim_virtualchassis_member_count_moved AFTER UPDATE OF virtual_chassis_id ON dcim_device WHEN OLD.virtual_chassis_id IS NOT NEW.virtual_chassis_id
BEGIN UPDATE dcim_virtualchassis SET member_count = member_count - 1 WHERE id = OLD.virtual_chassis_id; UPDATE dcim_virtualchassis SET member_count = member_count + 1 WHERE id = NEW.virtual_chassis_id; END;

-- virtualization.virtualmachine.interface_count
ALTER TABLE virtualization_virtualmachine ADD COLUMN interface_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER virtualization_virtualmachine_interface_count_added AFTER INSERT ON virtualization_vminterface WHEN NEW.virtual_machine_id IS NOT NULL
BEGIN UPDATE virtualization_virtualmachine SET interface_count = interface_count + 1 WHERE id = NEW.virtual_machine_id; END;

CREATE TRIGGER virtualization_virtualmachine_interface_count_removed AFTER DELETE ON virtualization_vminterface WHEN OLD.virtual_machine_id IS NOT NULL
BEGIN UPDATE virtualization_virtualmachine SET interface_count = interface_count - 1 WHERE id = OLD.virtual_machine_id; END;

CREATE TRIGGER virtualization_virtualmachine_interface_count_moved AFTER UPDATE OF virtual_machine_id ON virtualization_vminterface WHEN OLD.virtual_machine_id IS NOT NEW.virtual_machine_id
BEGIN UPDATE virtualization_virtualmachine SET interface_count = interface_count - 1 WHERE id = OLD.virtual_machine_id; UPDATE virtualization_virtualmachine SET interface_count = interface_count + 1 WHERE id = NEW.virtual_machine_id; END;

-- virtualization.virtualmachine.virtual_disk_count
ALTER TABLE virtualization_virtualmachine ADD COLUMN virtual_disk_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER virtualization_virtualmachine_virtual_disk_count_added AFTER INSERT ON virtualization_virtualdisk WHEN NEW.virtual_machine_id IS NOT NULL
BEGIN UPDATE virtualization_virtualmachine SET virtual_disk_count = virtual_disk_count + 1 WHERE id = NEW.virtual_machine_id; END;

CREATE TRIGGER virtualization_virtualmachine_virtual_disk_count_removed AFTER DELETE ON virtualization_virtualdisk WHEN OLD.virtual_machine_id IS NOT NULL
BEGIN UPDATE virtualization_virtualmachine SET virtual_disk_count = virtual_disk_count - 1 WHERE id = OLD.virtual_machine_id; END;

CREATE TRIGGER virtualization_virtualmachine_virtual_disk_count_moved AFTER UPDATE OF virtual_machine_id ON virtualization_virtualdisk WHEN OLD.virtual_machine_id IS NOT NEW.virtual_machine_id
BEGIN UPDATE virtualization_virtualmachine SET virtual_disk_count = virtual_disk_count - 1 WHERE id = OLD.virtual_machine_id; UPDATE virtualization_virtualmachine SET virtual_disk_count = virtual_disk_count + 1 WHERE id = NEW.virtual_machine_id; END;

-- The counts of what is there already.
UPDATE dcim_device SET console_port_count = (SELECT count(*) FROM dcim_consoleport x WHERE x.device_id = dcim_device.id);
UPDATE dcim_device SET console_server_port_count = (SELECT count(*) FROM dcim_consoleserverport x WHERE x.device_id = dcim_device.id);
UPDATE dcim_device SET power_port_count = (SELECT count(*) FROM dcim_powerport x WHERE x.device_id = dcim_device.id);
UPDATE dcim_device SET power_outlet_count = (SELECT count(*) FROM dcim_poweroutlet x WHERE x.device_id = dcim_device.id);
UPDATE dcim_device SET interface_count = (SELECT count(*) FROM dcim_interface x WHERE x.device_id = dcim_device.id);
UPDATE dcim_device SET front_port_count = (SELECT count(*) FROM dcim_frontport x WHERE x.device_id = dcim_device.id);
UPDATE dcim_device SET rear_port_count = (SELECT count(*) FROM dcim_rearport x WHERE x.device_id = dcim_device.id);
UPDATE dcim_device SET device_bay_count = (SELECT count(*) FROM dcim_devicebay x WHERE x.device_id = dcim_device.id);
UPDATE dcim_device SET module_bay_count = (SELECT count(*) FROM dcim_modulebay x WHERE x.device_id = dcim_device.id);
UPDATE dcim_device SET inventory_item_count = (SELECT count(*) FROM dcim_inventoryitem x WHERE x.device_id = dcim_device.id);
UPDATE dcim_virtualchassis SET member_count = (SELECT count(*) FROM dcim_device x WHERE x.virtual_chassis_id = dcim_virtualchassis.id);
UPDATE virtualization_virtualmachine SET interface_count = (SELECT count(*) FROM virtualization_vminterface x WHERE x.virtual_machine_id = virtualization_virtualmachine.id);
UPDATE virtualization_virtualmachine SET virtual_disk_count = (SELECT count(*) FROM virtualization_virtualdisk x WHERE x.virtual_machine_id = virtualization_virtualmachine.id);
