-- NetBox 4.2's virtual device contexts, VLAN translation, Q-in-Q service VLANs on interfaces,
-- and timestamps on cable ends (served read-only at /api/dcim/cable-terminations/).

-- dcim.virtualdevicecontext
CREATE TABLE dcim_virtualdevicecontext (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  device_id INTEGER NOT NULL REFERENCES dcim_device(id) ON DELETE RESTRICT,
  identifier INTEGER,
  tenant_id INTEGER REFERENCES tenancy_tenant(id) ON DELETE RESTRICT,
  primary_ip4_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE SET NULL,
  primary_ip6_id INTEGER REFERENCES ipam_ipaddress(id) ON DELETE SET NULL,
  status TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  comments TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX dcim_virtualdevicecontext_device_id ON dcim_virtualdevicecontext(device_id);

CREATE INDEX dcim_virtualdevicecontext_tenant_id ON dcim_virtualdevicecontext(tenant_id);

CREATE INDEX dcim_virtualdevicecontext_primary_ip4_id ON dcim_virtualdevicecontext(primary_ip4_id);

CREATE INDEX dcim_virtualdevicecontext_primary_ip6_id ON dcim_virtualdevicecontext(primary_ip6_id);

CREATE INDEX dcim_virtualdevicecontext_ordering ON dcim_virtualdevicecontext(name);

-- An unset identifier never conflicts (NULLs are distinct in a unique index, as in PostgreSQL).
CREATE UNIQUE INDEX dcim_virtualdevicecontext_device_identifier ON dcim_virtualdevicecontext(device_id, identifier);

CREATE UNIQUE INDEX dcim_virtualdevicecontext_device_name ON dcim_virtualdevicecontext(device_id, name);

-- An interface's contexts.
CREATE TABLE dcim_interface_vdcs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  interface_id INTEGER NOT NULL REFERENCES dcim_interface(id) ON DELETE CASCADE,
  virtualdevicecontext_id INTEGER NOT NULL REFERENCES dcim_virtualdevicecontext(id) ON DELETE CASCADE,
  UNIQUE (interface_id, virtualdevicecontext_id)
);

CREATE INDEX dcim_interface_vdcs_virtualdevicecontext_id ON dcim_interface_vdcs(virtualdevicecontext_id);

-- ipam.vlantranslationpolicy
CREATE TABLE ipam_vlantranslationpolicy (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

-- ipam.vlantranslationrule
CREATE TABLE ipam_vlantranslationrule (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  policy_id INTEGER NOT NULL REFERENCES ipam_vlantranslationpolicy(id) ON DELETE CASCADE,
  local_vid INTEGER NOT NULL,
  remote_vid INTEGER NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX ipam_vlantranslationrule_policy_id ON ipam_vlantranslationrule(policy_id);

CREATE UNIQUE INDEX ipam_vlantranslationrule_policy_local_vid ON ipam_vlantranslationrule(policy_id, local_vid);

CREATE UNIQUE INDEX ipam_vlantranslationrule_policy_remote_vid ON ipam_vlantranslationrule(policy_id, remote_vid);

-- Interfaces' Q-in-Q service VLAN and VLAN translation policy.
ALTER TABLE dcim_interface ADD COLUMN qinq_svlan_id INTEGER REFERENCES ipam_vlan(id) ON DELETE SET NULL;

ALTER TABLE dcim_interface ADD COLUMN vlan_translation_policy_id INTEGER REFERENCES ipam_vlantranslationpolicy(id) ON DELETE RESTRICT;

CREATE INDEX dcim_interface_qinq_svlan_id ON dcim_interface(qinq_svlan_id);

CREATE INDEX dcim_interface_vlan_translation_policy_id ON dcim_interface(vlan_translation_policy_id);

ALTER TABLE virtualization_vminterface ADD COLUMN qinq_svlan_id INTEGER REFERENCES ipam_vlan(id) ON DELETE SET NULL;

ALTER TABLE virtualization_vminterface ADD COLUMN vlan_translation_policy_id INTEGER REFERENCES ipam_vlantranslationpolicy(id) ON DELETE RESTRICT;

CREATE INDEX virtualization_vminterface_qinq_svlan_id ON virtualization_vminterface(qinq_svlan_id);

CREATE INDEX virtualization_vminterface_vlan_translation_policy_id ON virtualization_vminterface(vlan_translation_policy_id);

-- Cable ends: when each was written (ends written before this migration have none).
ALTER TABLE dcim_cabletermination ADD COLUMN created TEXT;

ALTER TABLE dcim_cabletermination ADD COLUMN last_updated TEXT;
