-- Per-object order: a run is claimed only when no earlier run of the same webhook and object is
-- still unsettled (queued or pending), and a settling run finds the next one waiting. Both look
-- up the unsettled runs of one webhook and object; settled runs, the bulk of the table, stay out.
CREATE INDEX extras_webhookdelivery_unsettled ON extras_webhookdelivery(webhook_id, object_type, object_id)
  WHERE status IN ('queued', 'pending');
