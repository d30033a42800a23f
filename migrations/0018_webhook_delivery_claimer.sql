-- Which consumer holds a delivery's claim (a Node or Deno process: host, pid and a token of its
-- start), so a restarted process takes back the claims of a dead one at once instead of waiting
-- for their leases. NULL: a Workers consumer, or never claimed.
-- extras.webhookdelivery.claimed_by
ALTER TABLE extras_webhookdelivery ADD COLUMN claimed_by TEXT;
