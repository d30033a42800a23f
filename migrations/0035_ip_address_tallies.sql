-- How many IP addresses each block of 256 addresses holds (its key: an address key without its
-- last two hex digits, as ipam_ipblock's), every row counted, in any VRF, kept by triggers in the
-- transaction of every write. A list of the addresses within a network (`?parent=`) counts them
-- from these rows and the two blocks at its edges (src/apps/ipam/address-tallies.ts).
CREATE TABLE ipam_ipaddress_tally (
  block TEXT PRIMARY KEY,
  n INTEGER NOT NULL
) WITHOUT ROWID;

-- Each trigger on one line: a script is split where a line ends with a semicolon.
CREATE TRIGGER ipam_ipaddress_tally_insert AFTER INSERT ON ipam_ipaddress WHEN NEW.address_start IS NOT NULL
BEGIN INSERT INTO ipam_ipaddress_tally (block, n) VALUES (substr(NEW.address_start, 1, 31), 1) ON CONFLICT (block) DO UPDATE SET n = n + 1; END;

CREATE TRIGGER ipam_ipaddress_tally_delete AFTER DELETE ON ipam_ipaddress WHEN OLD.address_start IS NOT NULL
BEGIN UPDATE ipam_ipaddress_tally SET n = n - 1 WHERE block = substr(OLD.address_start, 1, 31); DELETE FROM ipam_ipaddress_tally WHERE block = substr(OLD.address_start, 1, 31) AND n <= 0; END;

CREATE TRIGGER ipam_ipaddress_tally_move AFTER UPDATE OF address_start ON ipam_ipaddress WHEN OLD.address_start IS NOT NEW.address_start
BEGIN UPDATE ipam_ipaddress_tally SET n = n - 1 WHERE OLD.address_start IS NOT NULL AND block = substr(OLD.address_start, 1, 31); DELETE FROM ipam_ipaddress_tally WHERE OLD.address_start IS NOT NULL AND block = substr(OLD.address_start, 1, 31) AND n <= 0; INSERT INTO ipam_ipaddress_tally (block, n) SELECT substr(NEW.address_start, 1, 31), 1 WHERE NEW.address_start IS NOT NULL ON CONFLICT (block) DO UPDATE SET n = n + 1; END;

INSERT INTO ipam_ipaddress_tally (block, n)
SELECT substr(address_start, 1, 31), count(*) FROM ipam_ipaddress WHERE address_start IS NOT NULL GROUP BY 1;
