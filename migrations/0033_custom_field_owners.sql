-- Whether an object type has any custom field decides the shape of its reads' SQL too: a type
-- without one reads `{}` as a constant instead of asking the definitions for every row. Processes
-- learn which types have custom fields with the token data, proven current by the auth version
-- every batch reads, so adding or removing any custom field, or moving one to other types, bumps
-- that version (migration 0020 bumped it for object fields alone).

DROP TRIGGER catalog_custom_field_added;
DROP TRIGGER catalog_custom_field_changed;
DROP TRIGGER catalog_custom_field_deleted;

CREATE TRIGGER catalog_custom_field_added AFTER INSERT ON extras_customfield
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER catalog_custom_field_changed AFTER UPDATE OF type, object_types, related_object_type ON extras_customfield
WHEN OLD.type IS NOT NEW.type OR OLD.object_types IS NOT NEW.object_types OR OLD.related_object_type IS NOT NEW.related_object_type
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;

CREATE TRIGGER catalog_custom_field_deleted AFTER DELETE ON extras_customfield
BEGIN UPDATE auth_state SET version = version + 1 WHERE id = 1; END;
