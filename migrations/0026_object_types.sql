-- Object types (NetBox's content types): ids for the models, which filters such as
-- `changed_object_type_id` take. Rows are written at start for every model served.
-- extras.objecttype
CREATE TABLE extras_objecttype (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_label TEXT NOT NULL,
  model TEXT NOT NULL
);

CREATE UNIQUE INDEX extras_objecttype_app_label_model ON extras_objecttype(app_label, model);

