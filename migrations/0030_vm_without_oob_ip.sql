-- Virtual machines have no out-of-band address in NetBox (devices do): the column added with
-- their primary addresses goes.
DROP INDEX virtualization_virtualmachine_oob_ip_id;
ALTER TABLE virtualization_virtualmachine DROP COLUMN oob_ip_id;
