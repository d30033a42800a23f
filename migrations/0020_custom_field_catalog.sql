-- The custom fields that name objects (types object and multiobject) decide the shape of every
-- read's SQL: a model's representation resolves their objects in the same statement, over the
-- related types they name. Processes learn which exist with the token data and prove it current
-- with the auth version every batch reads, so a change to them bumps that version too.

CREATE TRIGGER catalog_custom_field_added AFTER INSERT ON extras_customfield
WHEN NEW.type IN ('object', 'multiobject')
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER catalog_custom_field_changed AFTER UPDATE OF type, object_types, related_object_type ON extras_customfield
WHEN OLD.type IN ('object', 'multiobject') OR NEW.type IN ('object', 'multiobject')
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER catalog_custom_field_deleted AFTER DELETE ON extras_customfield
WHEN OLD.type IN ('object', 'multiobject')
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;
