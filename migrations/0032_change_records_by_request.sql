-- A write finds the objects it wrote through its change records (by request, then object type);
-- the records' index by request alone let SQLite pick the index by object type instead, and read
-- every record of the type ever written. This one serves the lookup, and the outbox's grouping of a
-- request's records by object, from the index alone.
DROP INDEX IF EXISTS core_objectchange_request_id;
CREATE INDEX core_objectchange_request ON core_objectchange(request_id, changed_object_type, changed_object_id);
