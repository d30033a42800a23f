-- Custom fields and their choice sets (NetBox 4.2). Objects keep their values in their own
-- custom_field_data column; "unique" and "default" are SQL keywords, hence quoted.
-- extras.customfieldchoiceset
CREATE TABLE extras_customfieldchoiceset (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  base_choices TEXT,
  extra_choices TEXT NOT NULL,
  order_alphabetically INTEGER NOT NULL DEFAULT 0,
  created TEXT,
  last_updated TEXT
);

-- extras.customfield
CREATE TABLE extras_customfield (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_types TEXT NOT NULL DEFAULT '[]',
  type TEXT NOT NULL DEFAULT 'text',
  related_object_type TEXT,
  name TEXT NOT NULL UNIQUE,
  label TEXT NOT NULL DEFAULT '',
  group_name TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  required INTEGER NOT NULL DEFAULT 0,
  "unique" INTEGER NOT NULL DEFAULT 0,
  search_weight INTEGER NOT NULL DEFAULT 1000,
  filter_logic TEXT NOT NULL DEFAULT 'loose',
  ui_visible TEXT NOT NULL DEFAULT 'always',
  ui_editable TEXT NOT NULL DEFAULT 'yes',
  is_cloneable INTEGER NOT NULL DEFAULT 0,
  "default" TEXT,
  related_object_filter TEXT,
  weight INTEGER NOT NULL DEFAULT 100,
  validation_minimum INTEGER,
  validation_maximum INTEGER,
  validation_regex TEXT NOT NULL DEFAULT '',
  choice_set_id INTEGER REFERENCES extras_customfieldchoiceset(id) ON DELETE RESTRICT,
  comments TEXT NOT NULL DEFAULT '',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX extras_customfield_choice_set_id ON extras_customfield(choice_set_id);

