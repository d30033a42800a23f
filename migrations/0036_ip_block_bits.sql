-- Which addresses of each block ipam_ipblock counts are taken, as 256 bits in four 64-bit words
-- (w0 holds offsets 0-63, bit i of a word offset 64k + i; an offset is the key's last two hex
-- digits). A search for free addresses reads a partly used block's bits, one row, instead of its
-- addresses, up to 255 rows (src/apps/ipam/free-space.ts); the triggers set a bit when the first
-- address of its host enters a VRF and clear it when the last one leaves, as they count `used`.
ALTER TABLE ipam_ipblock ADD COLUMN w0 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ipam_ipblock ADD COLUMN w1 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ipam_ipblock ADD COLUMN w2 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ipam_ipblock ADD COLUMN w3 INTEGER NOT NULL DEFAULT 0;

-- A global container prefix looks for free addresses in every VRF: by block, whatever the VRF.
CREATE INDEX ipam_ipblock_block ON ipam_ipblock(block);

DROP TRIGGER ipam_ipaddress_block_insert;
DROP TRIGGER ipam_ipaddress_block_delete;
DROP TRIGGER ipam_ipaddress_block_update;

-- Each trigger on one line: a script is split where a line ends with a semicolon.
CREATE TRIGGER ipam_ipaddress_block_insert AFTER INSERT ON ipam_ipaddress WHEN NOT EXISTS (SELECT 1 FROM ipam_ipaddress o WHERE o.vrf_id IS NEW.vrf_id AND o.address_start = NEW.address_start AND o.id <> NEW.id) BEGIN INSERT INTO ipam_ipblock (vrf, block, used, w0, w1, w2, w3) SELECT coalesce(NEW.vrf_id, 0), substr(NEW.address_start, 1, 31), 1, ((n >> 6) = 0) << (n & 63), ((n >> 6) = 1) << (n & 63), ((n >> 6) = 2) << (n & 63), ((n >> 6) = 3) << (n & 63) FROM (SELECT instr('0123456789abcdef', substr(NEW.address_start, 32, 1)) * 16 + instr('0123456789abcdef', substr(NEW.address_start, 33, 1)) - 17 AS n) WHERE 1 ON CONFLICT (vrf, block) DO UPDATE SET used = used + 1, w0 = w0 | excluded.w0, w1 = w1 | excluded.w1, w2 = w2 | excluded.w2, w3 = w3 | excluded.w3; END;

CREATE TRIGGER ipam_ipaddress_block_delete AFTER DELETE ON ipam_ipaddress WHEN NOT EXISTS (SELECT 1 FROM ipam_ipaddress o WHERE o.vrf_id IS OLD.vrf_id AND o.address_start = OLD.address_start) BEGIN UPDATE ipam_ipblock SET used = used - 1, w0 = w0 & ~(((n >> 6) = 0) << (n & 63)), w1 = w1 & ~(((n >> 6) = 1) << (n & 63)), w2 = w2 & ~(((n >> 6) = 2) << (n & 63)), w3 = w3 & ~(((n >> 6) = 3) << (n & 63)) FROM (SELECT instr('0123456789abcdef', substr(OLD.address_start, 32, 1)) * 16 + instr('0123456789abcdef', substr(OLD.address_start, 33, 1)) - 17 AS n) WHERE vrf = coalesce(OLD.vrf_id, 0) AND block = substr(OLD.address_start, 1, 31); END;

CREATE TRIGGER ipam_ipaddress_block_update AFTER UPDATE OF address_start, vrf_id ON ipam_ipaddress WHEN OLD.address_start IS NOT NEW.address_start OR OLD.vrf_id IS NOT NEW.vrf_id BEGIN UPDATE ipam_ipblock SET used = used - 1, w0 = w0 & ~(((n >> 6) = 0) << (n & 63)), w1 = w1 & ~(((n >> 6) = 1) << (n & 63)), w2 = w2 & ~(((n >> 6) = 2) << (n & 63)), w3 = w3 & ~(((n >> 6) = 3) << (n & 63)) FROM (SELECT instr('0123456789abcdef', substr(OLD.address_start, 32, 1)) * 16 + instr('0123456789abcdef', substr(OLD.address_start, 33, 1)) - 17 AS n) WHERE vrf = coalesce(OLD.vrf_id, 0) AND block = substr(OLD.address_start, 1, 31) AND NOT EXISTS (SELECT 1 FROM ipam_ipaddress o WHERE o.vrf_id IS OLD.vrf_id AND o.address_start = OLD.address_start); INSERT INTO ipam_ipblock (vrf, block, used, w0, w1, w2, w3) SELECT coalesce(NEW.vrf_id, 0), substr(NEW.address_start, 1, 31), 1, ((n >> 6) = 0) << (n & 63), ((n >> 6) = 1) << (n & 63), ((n >> 6) = 2) << (n & 63), ((n >> 6) = 3) << (n & 63) FROM (SELECT instr('0123456789abcdef', substr(NEW.address_start, 32, 1)) * 16 + instr('0123456789abcdef', substr(NEW.address_start, 33, 1)) - 17 AS n) WHERE NOT EXISTS (SELECT 1 FROM ipam_ipaddress o WHERE o.vrf_id IS NEW.vrf_id AND o.address_start = NEW.address_start AND o.id <> NEW.id) ON CONFLICT (vrf, block) DO UPDATE SET used = used + 1, w0 = w0 | excluded.w0, w1 = w1 | excluded.w1, w2 = w2 | excluded.w2, w3 = w3 | excluded.w3; END;

-- The bits of the addresses already held; a block whose addresses are all gone has no row now.
DELETE FROM ipam_ipblock;
INSERT INTO ipam_ipblock (vrf, block, used, w0, w1, w2, w3)
SELECT v, substr(k, 1, 31), count(*), sum(((n >> 6) = 0) << (n & 63)), sum(((n >> 6) = 1) << (n & 63)), sum(((n >> 6) = 2) << (n & 63)), sum(((n >> 6) = 3) << (n & 63))
FROM (SELECT DISTINCT coalesce(vrf_id, 0) AS v, address_start AS k, instr('0123456789abcdef', substr(ipam_ipaddress.address_start, 32, 1)) * 16 + instr('0123456789abcdef', substr(ipam_ipaddress.address_start, 33, 1)) - 17 AS n FROM ipam_ipaddress)
GROUP BY v, substr(k, 1, 31);
