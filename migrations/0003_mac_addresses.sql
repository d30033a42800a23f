-- NetBox 4.2's MAC addresses: the first model with a generic relation (assigned_object, to interfaces).

-- dcim.macaddress
CREATE TABLE dcim_macaddress (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  mac_address TEXT NOT NULL,
  assigned_object_type TEXT,
  assigned_object_id INTEGER,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_macaddress_assigned_object ON dcim_macaddress(assigned_object_type, assigned_object_id);

