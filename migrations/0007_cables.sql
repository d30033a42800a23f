-- Cables (NetBox 4.2's dcim.cable) and where their ends attach: one row per termination, so an
-- endpoint's own table needs no column beyond mark_connected.

-- dcim.cable
CREATE TABLE dcim_cable (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT,
  status TEXT NOT NULL DEFAULT 'connected',
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  label TEXT NOT NULL DEFAULT '',
  color TEXT NOT NULL DEFAULT '',
  length REAL,
  length_unit TEXT,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_cable_tenant_id ON dcim_cable(tenant_id);

-- The ends of each cable: deleted with their cable; an endpoint holds at most one (the unique
-- index refuses a second even between concurrent writers).
CREATE TABLE dcim_cabletermination (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  cable_id INTEGER NOT NULL REFERENCES dcim_cable(id) ON DELETE CASCADE,
  cable_end TEXT NOT NULL CHECK (cable_end IN ('A', 'B')),
  termination_type TEXT NOT NULL,
  termination_id INTEGER NOT NULL
);

CREATE UNIQUE INDEX dcim_cabletermination_termination ON dcim_cabletermination(termination_type, termination_id);

CREATE INDEX dcim_cabletermination_cable ON dcim_cabletermination(cable_id, cable_end);
