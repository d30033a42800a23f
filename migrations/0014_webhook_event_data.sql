-- Each delivery keeps its event as of the commit: `data` is the object's full representation read
-- in the write's transaction (shaped by the consumer, never read again at send time), and
-- `conditions` the rule's conditions then. A run whose conditions are not yet evaluated is
-- `pending`: the API does not show it; the consumer evaluates them and queues or drops it.
ALTER TABLE extras_webhookdelivery ADD COLUMN data TEXT;

ALTER TABLE extras_webhookdelivery ADD COLUMN conditions TEXT;
