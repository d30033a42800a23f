-- Config contexts: data applied to devices (and virtual machines) by assignment, with one through table per dimension.
-- extras.configcontext
CREATE TABLE extras_configcontext (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  weight INTEGER NOT NULL DEFAULT 1000,
  description TEXT NOT NULL DEFAULT '',
  is_active INTEGER NOT NULL DEFAULT 1,
  data TEXT NOT NULL,
  created TEXT,
  last_updated TEXT
);

CREATE TABLE extras_configcontext_regions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  region_id INTEGER NOT NULL REFERENCES dcim_region(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, region_id)
);

CREATE INDEX extras_configcontext_regions_region_id ON extras_configcontext_regions(region_id);

CREATE TABLE extras_configcontext_site_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  sitegroup_id INTEGER NOT NULL REFERENCES dcim_sitegroup(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, sitegroup_id)
);

CREATE INDEX extras_configcontext_site_groups_sitegroup_id ON extras_configcontext_site_groups(sitegroup_id);

CREATE TABLE extras_configcontext_sites (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  site_id INTEGER NOT NULL REFERENCES dcim_site(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, site_id)
);

CREATE INDEX extras_configcontext_sites_site_id ON extras_configcontext_sites(site_id);

CREATE TABLE extras_configcontext_locations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  location_id INTEGER NOT NULL REFERENCES dcim_location(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, location_id)
);

CREATE INDEX extras_configcontext_locations_location_id ON extras_configcontext_locations(location_id);

CREATE TABLE extras_configcontext_device_types (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  devicetype_id INTEGER NOT NULL REFERENCES dcim_devicetype(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, devicetype_id)
);

CREATE INDEX extras_configcontext_device_types_devicetype_id ON extras_configcontext_device_types(devicetype_id);

CREATE TABLE extras_configcontext_roles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  devicerole_id INTEGER NOT NULL REFERENCES dcim_devicerole(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, devicerole_id)
);

CREATE INDEX extras_configcontext_roles_devicerole_id ON extras_configcontext_roles(devicerole_id);

CREATE TABLE extras_configcontext_platforms (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  platform_id INTEGER NOT NULL REFERENCES dcim_platform(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, platform_id)
);

CREATE INDEX extras_configcontext_platforms_platform_id ON extras_configcontext_platforms(platform_id);

CREATE TABLE extras_configcontext_cluster_types (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  clustertype_id INTEGER NOT NULL REFERENCES virtualization_clustertype(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, clustertype_id)
);

CREATE INDEX extras_configcontext_cluster_types_clustertype_id ON extras_configcontext_cluster_types(clustertype_id);

CREATE TABLE extras_configcontext_cluster_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  clustergroup_id INTEGER NOT NULL REFERENCES virtualization_clustergroup(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, clustergroup_id)
);

CREATE INDEX extras_configcontext_cluster_groups_clustergroup_id ON extras_configcontext_cluster_groups(clustergroup_id);

CREATE TABLE extras_configcontext_clusters (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  cluster_id INTEGER NOT NULL REFERENCES virtualization_cluster(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, cluster_id)
);

CREATE INDEX extras_configcontext_clusters_cluster_id ON extras_configcontext_clusters(cluster_id);

CREATE TABLE extras_configcontext_tenant_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  tenantgroup_id INTEGER NOT NULL REFERENCES tenancy_tenantgroup(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, tenantgroup_id)
);

CREATE INDEX extras_configcontext_tenant_groups_tenantgroup_id ON extras_configcontext_tenant_groups(tenantgroup_id);

CREATE TABLE extras_configcontext_tenants (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  tenant_id INTEGER NOT NULL REFERENCES tenancy_tenant(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, tenant_id)
);

CREATE INDEX extras_configcontext_tenants_tenant_id ON extras_configcontext_tenants(tenant_id);

CREATE TABLE extras_configcontext_tags (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  configcontext_id INTEGER NOT NULL REFERENCES extras_configcontext(id) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES extras_tag(id) ON DELETE CASCADE,
  UNIQUE (configcontext_id, tag_id)
);

CREATE INDEX extras_configcontext_tags_tag_id ON extras_configcontext_tags(tag_id);

