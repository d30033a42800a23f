-- Circuits (providers, accounts, networks, types, circuits, terminations, groups), contacts and journal entries.
-- circuits.provider
CREATE TABLE circuits_provider (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- circuits.provideraccount
CREATE TABLE circuits_provideraccount (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  provider_id INTEGER NOT NULL REFERENCES circuits_provider(id) ON DELETE RESTRICT,
  name TEXT NOT NULL DEFAULT '',
  account TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX circuits_provideraccount_provider_id ON circuits_provideraccount(provider_id);

CREATE UNIQUE INDEX circuits_provideraccount_provider_account ON circuits_provideraccount(provider_id, account);

CREATE UNIQUE INDEX circuits_provideraccount_provider_name ON circuits_provideraccount(provider_id, name) WHERE name <> '';

-- circuits.providernetwork
CREATE TABLE circuits_providernetwork (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  provider_id INTEGER NOT NULL REFERENCES circuits_provider(id) ON DELETE RESTRICT,
  name TEXT NOT NULL,
  service_id TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX circuits_providernetwork_provider_id ON circuits_providernetwork(provider_id);

CREATE UNIQUE INDEX circuits_providernetwork_provider_name ON circuits_providernetwork(provider_id, name);

-- circuits.circuittype
CREATE TABLE circuits_circuittype (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  color TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- circuits.circuit
CREATE TABLE circuits_circuit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  cid TEXT NOT NULL,
  provider_id INTEGER NOT NULL REFERENCES circuits_provider(id) ON DELETE RESTRICT,
  provider_account_id INTEGER REFERENCES circuits_provideraccount(id) ON DELETE RESTRICT,
  type_id INTEGER NOT NULL REFERENCES circuits_circuittype(id) ON DELETE RESTRICT,
  status TEXT NOT NULL DEFAULT 'active',
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  install_date TEXT,
  termination_date TEXT,
  commit_rate INTEGER,
  description TEXT NOT NULL DEFAULT '',
  distance REAL,
  distance_unit TEXT,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX circuits_circuit_provider_id ON circuits_circuit(provider_id);

CREATE INDEX circuits_circuit_provider_account_id ON circuits_circuit(provider_account_id);

CREATE INDEX circuits_circuit_type_id ON circuits_circuit(type_id);

CREATE INDEX circuits_circuit_tenant_id ON circuits_circuit(tenant_id);

CREATE UNIQUE INDEX circuits_circuit_provider_cid ON circuits_circuit(provider_id, cid);

CREATE UNIQUE INDEX circuits_circuit_provider_account_cid ON circuits_circuit(provider_account_id, cid);

-- circuits.circuittermination
CREATE TABLE circuits_circuittermination (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  circuit_id INTEGER NOT NULL REFERENCES circuits_circuit(id) ON DELETE CASCADE,
  term_side TEXT NOT NULL,
  termination_type TEXT,
  termination_id INTEGER,
  port_speed INTEGER,
  upstream_speed INTEGER,
  xconnect_id TEXT NOT NULL DEFAULT '',
  pp_info TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  mark_connected INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX circuits_circuittermination_circuit_id ON circuits_circuittermination(circuit_id);

CREATE INDEX circuits_circuittermination_termination ON circuits_circuittermination(termination_type, termination_id);

CREATE UNIQUE INDEX circuits_circuittermination_circuit_term_side ON circuits_circuittermination(circuit_id, term_side);

-- circuits.circuitgroup
CREATE TABLE circuits_circuitgroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX circuits_circuitgroup_tenant_id ON circuits_circuitgroup(tenant_id);

-- circuits.circuitgroupassignment
CREATE TABLE circuits_circuitgroupassignment (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  group_id INTEGER NOT NULL REFERENCES circuits_circuitgroup(id) ON DELETE CASCADE,
  member_type TEXT NOT NULL,
  member_id INTEGER NOT NULL,
  priority TEXT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX circuits_circuitgroupassignment_group_id ON circuits_circuitgroupassignment(group_id);

CREATE INDEX circuits_circuitgroupassignment_member ON circuits_circuitgroupassignment(member_type, member_id);

CREATE UNIQUE INDEX circuits_circuitgroupassignment_member_group ON circuits_circuitgroupassignment(member_type, member_id, group_id);

-- tenancy.contactgroup
CREATE TABLE tenancy_contactgroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  parent_id INTEGER REFERENCES tenancy_contactgroup(id) ON DELETE CASCADE,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  _depth INTEGER NOT NULL DEFAULT 0,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX tenancy_contactgroup_parent_id ON tenancy_contactgroup(parent_id);

CREATE UNIQUE INDEX tenancy_contactgroup_parent_name ON tenancy_contactgroup(coalesce(parent_id, 0), name);

CREATE UNIQUE INDEX tenancy_contactgroup_parent_slug ON tenancy_contactgroup(coalesce(parent_id, 0), slug);

-- tenancy.contactrole
CREATE TABLE tenancy_contactrole (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- tenancy.contact
CREATE TABLE tenancy_contact (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  group_id INTEGER REFERENCES tenancy_contactgroup(id) ON DELETE SET NULL,
  name TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  link TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX tenancy_contact_group_id ON tenancy_contact(group_id);

CREATE UNIQUE INDEX tenancy_contact_group_name ON tenancy_contact(group_id, name);

-- tenancy.contactassignment
CREATE TABLE tenancy_contactassignment (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  object_type TEXT NOT NULL,
  object_id INTEGER NOT NULL,
  contact_id INTEGER NOT NULL REFERENCES tenancy_contact(id) ON DELETE RESTRICT,
  role_id INTEGER REFERENCES tenancy_contactrole(id) ON DELETE RESTRICT,
  priority TEXT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX tenancy_contactassignment_object ON tenancy_contactassignment(object_type, object_id);

CREATE INDEX tenancy_contactassignment_contact_id ON tenancy_contactassignment(contact_id);

CREATE INDEX tenancy_contactassignment_role_id ON tenancy_contactassignment(role_id);

CREATE UNIQUE INDEX tenancy_contactassignment_object_contact_role ON tenancy_contactassignment(object_type, object_id, contact_id, coalesce(role_id, 0));

-- extras.journalentry
CREATE TABLE extras_journalentry (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  assigned_object_type TEXT NOT NULL,
  assigned_object_id INTEGER NOT NULL,
  created_by_id INTEGER REFERENCES users_user(id) ON DELETE SET NULL,
  kind TEXT NOT NULL DEFAULT 'info',
  comments TEXT NOT NULL,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX extras_journalentry_assigned_object ON extras_journalentry(assigned_object_type, assigned_object_id);

CREATE INDEX extras_journalentry_created_by_id ON extras_journalentry(created_by_id);

