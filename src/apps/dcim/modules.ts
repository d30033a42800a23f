import type { FilterDeclaration } from "../../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import { MODULE_AIRFLOW, MODULE_STATUS } from "./component-choices.ts";
import { WEIGHT_UNIT } from "./choices.ts";
import { moduleChecks } from "./component-checks.ts";
import { moduleInstallStatements } from "./instantiation.ts";

/** `?console_ports=true`: module types that have (or, false, lack) templates of the given tables. */
const hasTemplates = (...tables: string[]): FilterDeclaration => ({
  sql: (values, t) => {
    const any = sql.join(
      tables.map((table) => sql`EXISTS (SELECT 1 FROM ${sql.table(table)} x WHERE x.module_type_id = ${sql.ref(`${t}.id`)})`),
      sql` OR `,
    );
    const wanted: RawBuilder<unknown> = sql`(${any})`;
    return ["true", "True", "1"].includes(values[0]) ? wanted : sql`NOT ${wanted}`;
  },
});

export const moduleType = defineModel({
  app: "dcim",
  name: "moduletype",
  verboseName: "module type",
  fields: {
    manufacturer: f.fk("dcim.manufacturer", { onDelete: "protect" }),
    model: f.string({ maxLength: 100 }),
    part_number: f.string({ maxLength: 50, blank: true, helpText: "Discrete part number (optional)" }),
    airflow: f.choice(MODULE_AIRFLOW, { nullable: true }),
    weight: f.float({ nullable: true, min: 0, max: 1_000_000 }),
    weight_unit: f.choice(WEIGHT_UNIT, { nullable: true }),
    description,
    comments,
  },
  uniqueTogether: [{ fields: ["manufacturer", "model"], message: "Module type with this Manufacturer and Model already exists." }],
  brief: ["manufacturer", "model", "description"],
  display: "model",
  naturalKey: "model",
  search: ["model", "part_number", "description", "comments"],
  ordering: ["manufacturer", "model"],
  filters: {
    console_ports: hasTemplates("dcim_consoleporttemplate"),
    console_server_ports: hasTemplates("dcim_consoleserverporttemplate"),
    power_ports: hasTemplates("dcim_powerporttemplate"),
    power_outlets: hasTemplates("dcim_poweroutlettemplate"),
    interfaces: hasTemplates("dcim_interfacetemplate"),
    pass_through_ports: hasTemplates("dcim_frontporttemplate", "dcim_rearporttemplate"),
  },
});

/** A module's `str()` as NetBox gives it: its bay's name, its type's model and its id. */
const moduleDisplay = (t: string) => sql`(SELECT b.name FROM dcim_modulebay b WHERE b.id = ${sql.ref(`${t}.module_bay_id`)})
  || ': ' || (SELECT mt.model FROM dcim_moduletype mt WHERE mt.id = ${sql.ref(`${t}.module_type_id`)}) || ' (' || ${sql.ref(`${t}.id`)} || ')'`;

export const module = defineModel({
  app: "dcim",
  name: "module",
  fields: {
    device: f.fk("dcim.device", { onDelete: "cascade" }),
    module_bay: f.fk("dcim.modulebay", { unique: true, onDelete: "cascade", nestedDisplayUrl: true }),
    module_type: f.fk("dcim.moduletype", { onDelete: "protect" }),
    status: f.choice(MODULE_STATUS, { default: "active" }),
    serial: f.string({ maxLength: 50, blank: true, label: "Serial number" }),
    asset_tag: f.string({
      maxLength: 50,
      nullable: true,
      default: null,
      unique: true,
      helpText: "A unique tag used to identify this device",
    }),
    description,
    comments,
  },
  brief: ["device", "module_bay"],
  display: moduleDisplay,
  search: ["serial", "asset_tag", "description", "comments"],
  ordering: ["module_bay"],
  filters: {
    manufacturer: "module_type__manufacturer",
    manufacturer_id: "module_type__manufacturer__id",
  },
  hooks: { ...moduleChecks(() => module), writeStatements: (ctx, items) => moduleInstallStatements(module.registry, ctx, items) },
});

export const moduleModels = [moduleType, module];
