-- Config templates, and the devices, virtual machines, roles and platforms that name one.

-- extras.configtemplate
CREATE TABLE extras_configtemplate (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  environment_params TEXT DEFAULT '{}',
  template_code TEXT NOT NULL DEFAULT '',
  custom_field_data TEXT NOT NULL DEFAULT '{}',
  created TEXT,
  last_updated TEXT
);

CREATE INDEX extras_configtemplate_ordering ON extras_configtemplate(name);

-- dcim.device.config_template
ALTER TABLE dcim_device ADD COLUMN config_template_id INTEGER REFERENCES extras_configtemplate(id) ON DELETE RESTRICT;

CREATE INDEX dcim_device_config_template_id ON dcim_device(config_template_id);

-- dcim.devicerole.config_template
ALTER TABLE dcim_devicerole ADD COLUMN config_template_id INTEGER REFERENCES extras_configtemplate(id) ON DELETE RESTRICT;

CREATE INDEX dcim_devicerole_config_template_id ON dcim_devicerole(config_template_id);

-- dcim.platform.config_template
ALTER TABLE dcim_platform ADD COLUMN config_template_id INTEGER REFERENCES extras_configtemplate(id) ON DELETE RESTRICT;

CREATE INDEX dcim_platform_config_template_id ON dcim_platform(config_template_id);

-- virtualization.virtualmachine.config_template
ALTER TABLE virtualization_virtualmachine ADD COLUMN config_template_id INTEGER REFERENCES extras_configtemplate(id) ON DELETE RESTRICT;

CREATE INDEX virtualization_virtualmachine_config_template_id ON virtualization_virtualmachine(config_template_id);
