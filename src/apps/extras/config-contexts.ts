import type { FieldOptions } from "../../schema/shapes.ts";
import { parse as parseYaml } from "yaml";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";
import { withSyncedData } from "./data-sync.ts";
import { CONFIG_CONTEXT_TABLE, CONTEXT_DIMENSIONS, contextData, contextThrough, type ContextDimension } from "./config-context-field.ts";

/** The model each assignment dimension points to. */
const TARGETS: Record<ContextDimension, string> = {
  regions: "dcim.region",
  site_groups: "dcim.sitegroup",
  sites: "dcim.site",
  locations: "dcim.location",
  device_types: "dcim.devicetype",
  roles: "dcim.devicerole",
  platforms: "dcim.platform",
  cluster_types: "virtualization.clustertype",
  cluster_groups: "virtualization.clustergroup",
  clusters: "virtualization.cluster",
  tenant_groups: "tenancy.tenantgroup",
  tenants: "tenancy.tenant",
  tags: "extras.tag",
};

const assignment = (dimension: ContextDimension): FieldOptions =>
  // Tags are written and read as slugs on a config context (not as nested tags).
  f.m2m(TARGETS[dimension], contextThrough(dimension), {
    filterName: CONTEXT_DIMENSIONS[dimension].filter,
    ...(dimension === "tags" ? { listedBy: "slug" } : {}),
  });

/** NetBox's `extras.configcontext`: data applied to the devices and VMs its assignments match. */
/** A data file's text as a context's `data`: a JSON or YAML object, as NetBox reads either. */
function contextFromFile(text: string) {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    return `The data file is not valid JSON or YAML: ${(error as Error).message}`;
  }
  return contextData(data) ?? { data };
}

export const configContext = defineModel(
  withSyncedData(
    {
      app: "extras",
      name: "configcontext",
      verboseName: "config context",
      table: CONFIG_CONTEXT_TABLE,
      taggable: false,
      fields: {
        name: f.string({ maxLength: 100, unique: true }),
        weight: f.integer({ default: 1000, min: 0, max: 32767 }),
        description,
        is_active: f.boolean({ default: true }),
        ...(Object.fromEntries(Object.keys(CONTEXT_DIMENSIONS).map((d) => [d, assignment(d as ContextDimension)])) as Record<
          ContextDimension,
          FieldOptions
        >),
        // Where NetBox shows them; `withSyncedData` declares them (a data file's JSON or YAML becomes `data`).
        data_source: f.text(),
        data_path: f.text(),
        data_file: f.text(),
        data_synced: f.text(),
        data: f.json({ required: true, checkJson: contextData }),
      },
      brief: ["name", "description"],
      search: ["name", "description", "data"],
      ordering: ["weight", "name"],
    },
    contextFromFile,
  ),
);

export const configContextModels = [configContext];
