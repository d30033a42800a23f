-- A site's counts of its virtual machines, racks, devices, prefixes and VLANs, kept in columns of
-- the site by triggers on the counted tables (the `counter` kind, as 0034's counter caches), so a
-- page of sites reads five columns instead of running five counts for each site. NetBox computes
-- these counts as it reads; change records leave them out, as NetBox's do. The counts of rows
-- already there are filled in once, here.

-- dcim.site.virtualmachine_count
ALTER TABLE dcim_site ADD COLUMN virtualmachine_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_site_virtualmachine_count_added AFTER INSERT ON virtualization_virtualmachine WHEN NEW.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET virtualmachine_count = virtualmachine_count + 1 WHERE id = NEW.site_id; END;

CREATE TRIGGER dcim_site_virtualmachine_count_removed AFTER DELETE ON virtualization_virtualmachine WHEN OLD.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET virtualmachine_count = virtualmachine_count - 1 WHERE id = OLD.site_id; END;

CREATE TRIGGER dcim_site_virtualmachine_count_moved AFTER UPDATE OF site_id ON virtualization_virtualmachine WHEN OLD.site_id IS NOT NEW.site_id
BEGIN UPDATE dcim_site SET virtualmachine_count = virtualmachine_count - 1 WHERE id = OLD.site_id; UPDATE dcim_site SET virtualmachine_count = virtualmachine_count + 1 WHERE id = NEW.site_id; END;

-- dcim.site.rack_count
ALTER TABLE dcim_site ADD COLUMN rack_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_site_rack_count_added AFTER INSERT ON dcim_rack WHEN NEW.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET rack_count = rack_count + 1 WHERE id = NEW.site_id; END;

CREATE TRIGGER dcim_site_rack_count_removed AFTER DELETE ON dcim_rack WHEN OLD.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET rack_count = rack_count - 1 WHERE id = OLD.site_id; END;

CREATE TRIGGER dcim_site_rack_count_moved AFTER UPDATE OF site_id ON dcim_rack WHEN OLD.site_id IS NOT NEW.site_id
BEGIN UPDATE dcim_site SET rack_count = rack_count - 1 WHERE id = OLD.site_id; UPDATE dcim_site SET rack_count = rack_count + 1 WHERE id = NEW.site_id; END;

-- dcim.site.device_count
ALTER TABLE dcim_site ADD COLUMN device_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_site_device_count_added AFTER INSERT ON dcim_device WHEN NEW.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET device_count = device_count + 1 WHERE id = NEW.site_id; END;

CREATE TRIGGER dcim_site_device_count_removed AFTER DELETE ON dcim_device WHEN OLD.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET device_count = device_count - 1 WHERE id = OLD.site_id; END;

CREATE TRIGGER dcim_site_device_count_moved AFTER UPDATE OF site_id ON dcim_device WHEN OLD.site_id IS NOT NEW.site_id
BEGIN UPDATE dcim_site SET device_count = device_count - 1 WHERE id = OLD.site_id; UPDATE dcim_site SET device_count = device_count + 1 WHERE id = NEW.site_id; END;

-- dcim.site.prefix_count
ALTER TABLE dcim_site ADD COLUMN prefix_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_site_prefix_count_added AFTER INSERT ON ipam_prefix WHEN NEW.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET prefix_count = prefix_count + 1 WHERE id = NEW.site_id; END;

CREATE TRIGGER dcim_site_prefix_count_removed AFTER DELETE ON ipam_prefix WHEN OLD.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET prefix_count = prefix_count - 1 WHERE id = OLD.site_id; END;

CREATE TRIGGER dcim_site_prefix_count_moved AFTER UPDATE OF site_id ON ipam_prefix WHEN OLD.site_id IS NOT NEW.site_id
BEGIN UPDATE dcim_site SET prefix_count = prefix_count - 1 WHERE id = OLD.site_id; UPDATE dcim_site SET prefix_count = prefix_count + 1 WHERE id = NEW.site_id; END;

-- dcim.site.vlan_count
ALTER TABLE dcim_site ADD COLUMN vlan_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER dcim_site_vlan_count_added AFTER INSERT ON ipam_vlan WHEN NEW.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET vlan_count = vlan_count + 1 WHERE id = NEW.site_id; END;

CREATE TRIGGER dcim_site_vlan_count_removed AFTER DELETE ON ipam_vlan WHEN OLD.site_id IS NOT NULL
BEGIN UPDATE dcim_site SET vlan_count = vlan_count - 1 WHERE id = OLD.site_id; END;

CREATE TRIGGER dcim_site_vlan_count_moved AFTER UPDATE OF site_id ON ipam_vlan WHEN OLD.site_id IS NOT NEW.site_id
BEGIN UPDATE dcim_site SET vlan_count = vlan_count - 1 WHERE id = OLD.site_id; UPDATE dcim_site SET vlan_count = vlan_count + 1 WHERE id = NEW.site_id; END;

-- the counts of rows already there
UPDATE dcim_site SET virtualmachine_count = (SELECT count(*) FROM virtualization_virtualmachine x WHERE x.site_id = dcim_site.id),
  rack_count = (SELECT count(*) FROM dcim_rack x WHERE x.site_id = dcim_site.id),
  device_count = (SELECT count(*) FROM dcim_device x WHERE x.site_id = dcim_site.id),
  prefix_count = (SELECT count(*) FROM ipam_prefix x WHERE x.site_id = dcim_site.id),
  vlan_count = (SELECT count(*) FROM ipam_vlan x WHERE x.site_id = dcim_site.id);
