-- NetBox's vpn app: tunnels and their groups and terminations, IKE and IPSec proposals, policies
-- and profiles, L2VPNs and their terminations (src/apps/vpn/).

-- vpn.tunnelgroup
CREATE TABLE vpn_tunnelgroup (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- vpn.ikeproposal
CREATE TABLE vpn_ikeproposal (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  authentication_method TEXT NOT NULL,
  encryption_algorithm TEXT NOT NULL,
  authentication_algorithm TEXT,
  dh_group INTEGER NOT NULL,
  sa_lifetime INTEGER,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- vpn.ikepolicy
CREATE TABLE vpn_ikepolicy (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  version INTEGER NOT NULL DEFAULT 2,
  mode TEXT,
  preshared_key TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE TABLE vpn_ikepolicy_proposals (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ikepolicy_id INTEGER NOT NULL REFERENCES vpn_ikepolicy(id) ON DELETE CASCADE,
  ikeproposal_id INTEGER NOT NULL REFERENCES vpn_ikeproposal(id) ON DELETE CASCADE,
  UNIQUE (ikepolicy_id, ikeproposal_id)
);

CREATE INDEX vpn_ikepolicy_proposals_ikeproposal_id ON vpn_ikepolicy_proposals(ikeproposal_id);

-- vpn.ipsecproposal
CREATE TABLE vpn_ipsecproposal (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  encryption_algorithm TEXT,
  authentication_algorithm TEXT,
  sa_lifetime_seconds INTEGER,
  sa_lifetime_data INTEGER,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- vpn.ipsecpolicy
CREATE TABLE vpn_ipsecpolicy (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  pfs_group INTEGER,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE TABLE vpn_ipsecpolicy_proposals (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ipsecpolicy_id INTEGER NOT NULL REFERENCES vpn_ipsecpolicy(id) ON DELETE CASCADE,
  ipsecproposal_id INTEGER NOT NULL REFERENCES vpn_ipsecproposal(id) ON DELETE CASCADE,
  UNIQUE (ipsecpolicy_id, ipsecproposal_id)
);

CREATE INDEX vpn_ipsecpolicy_proposals_ipsecproposal_id ON vpn_ipsecpolicy_proposals(ipsecproposal_id);

-- vpn.ipsecprofile
CREATE TABLE vpn_ipsecprofile (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  mode TEXT NOT NULL,
  ike_policy_id INTEGER NOT NULL REFERENCES vpn_ikepolicy(id) ON DELETE RESTRICT,
  ipsec_policy_id INTEGER NOT NULL REFERENCES vpn_ipsecpolicy(id) ON DELETE RESTRICT,
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX vpn_ipsecprofile_ike_policy_id ON vpn_ipsecprofile(ike_policy_id);

CREATE INDEX vpn_ipsecprofile_ipsec_policy_id ON vpn_ipsecprofile(ipsec_policy_id);

-- vpn.tunnel
CREATE TABLE vpn_tunnel (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'active',
  group_id INTEGER REFERENCES vpn_tunnelgroup(id) ON DELETE RESTRICT,
  encapsulation TEXT NOT NULL,
  ipsec_profile_id INTEGER REFERENCES vpn_ipsecprofile(id) ON DELETE RESTRICT,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  tunnel_id INTEGER,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX vpn_tunnel_group_id ON vpn_tunnel(group_id);

CREATE INDEX vpn_tunnel_ipsec_profile_id ON vpn_tunnel(ipsec_profile_id);

CREATE INDEX vpn_tunnel_tenant_id ON vpn_tunnel(tenant_id);

-- vpn.tunneltermination
CREATE TABLE vpn_tunneltermination (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tunnel_id INTEGER NOT NULL REFERENCES vpn_tunnel(id) ON DELETE CASCADE,
  role TEXT NOT NULL DEFAULT 'peer',
  termination_type TEXT NOT NULL,
  termination_id INTEGER NOT NULL,
  outside_ip_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE RESTRICT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX vpn_tunneltermination_tunnel_id ON vpn_tunneltermination(tunnel_id);

CREATE INDEX vpn_tunneltermination_outside_ip_id ON vpn_tunneltermination(outside_ip_id);

CREATE INDEX vpn_tunneltermination_ordering ON vpn_tunneltermination(tunnel_id, role);

CREATE UNIQUE INDEX vpn_tunneltermination_termination ON vpn_tunneltermination(termination_type, termination_id);

-- vpn.l2vpn
CREATE TABLE vpn_l2vpn (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  identifier INTEGER,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX vpn_l2vpn_tenant_id ON vpn_l2vpn(tenant_id);

CREATE INDEX vpn_l2vpn_ordering ON vpn_l2vpn(name, identifier);

CREATE TABLE vpn_l2vpn_import_targets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  l2vpn_id INTEGER NOT NULL REFERENCES vpn_l2vpn(id) ON DELETE CASCADE,
  routetarget_id INTEGER NOT NULL REFERENCES ipam_routetarget(id) ON DELETE CASCADE,
  UNIQUE (l2vpn_id, routetarget_id)
);

CREATE INDEX vpn_l2vpn_import_targets_routetarget_id ON vpn_l2vpn_import_targets(routetarget_id);

CREATE TABLE vpn_l2vpn_export_targets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  l2vpn_id INTEGER NOT NULL REFERENCES vpn_l2vpn(id) ON DELETE CASCADE,
  routetarget_id INTEGER NOT NULL REFERENCES ipam_routetarget(id) ON DELETE CASCADE,
  UNIQUE (l2vpn_id, routetarget_id)
);

CREATE INDEX vpn_l2vpn_export_targets_routetarget_id ON vpn_l2vpn_export_targets(routetarget_id);

-- vpn.l2vpntermination
CREATE TABLE vpn_l2vpntermination (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  l2vpn_id INTEGER NOT NULL REFERENCES vpn_l2vpn(id) ON DELETE CASCADE,
  assigned_object_type TEXT NOT NULL,
  assigned_object_id INTEGER NOT NULL,
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX vpn_l2vpntermination_l2vpn_id ON vpn_l2vpntermination(l2vpn_id);

CREATE UNIQUE INDEX vpn_l2vpntermination_assigned_object ON vpn_l2vpntermination(assigned_object_type, assigned_object_id);

