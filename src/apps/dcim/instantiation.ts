import type { Model, Registry } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import type { Statement } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { creationRecordsStatement } from "../../engine/changes/record.ts";
import type { WriteItem } from "../../schema/hooks.ts";

type Sql = RawBuilder<unknown>;

/**
 * COMPONENT INSTANTIATION. Creating a device creates one component per template of its device
 * type; installing a module creates one per template of its module type on the module's device,
 * with `{module}` in names, labels and positions replaced by the module bay's position, as NetBox
 * does. It runs set-wise inside the write's transaction: for all devices (or modules) the request
 * created, a fixed number of statements per template kind (INSERT ... SELECT joining the new
 * owners to their templates, the references between new components, and their change records),
 * whatever the number of devices.
 */

/** One kind of component and the template it is made from. */
interface Kind {
  readonly template: () => Model;
  readonly component: () => Model;
  /** Columns copied from the template as they are. */
  readonly copy: readonly string[];
  /** Columns copied with `{module}` replaced (name and label always). */
  readonly resolved?: readonly string[];
  /**
   * Columns naming another new component of the same owner: the one made from the template the
   * template's column points to (a front port's rear port), matched by name.
   */
  readonly refs?: Readonly<Record<string, () => Model>>;
  /** Module types carry this kind too (device bays and inventory items they cannot). */
  readonly modular: boolean;
}

/** In dependency order: rear ports before the front ports mapped to them, power ports before outlets. */
function kindsOf(registry: Registry): readonly Kind[] {
  const named = (objectType: string) => () => registry.get(objectType);
  return [
    { template: named("dcim.consoleporttemplate"), component: named("dcim.consoleport"), copy: ["type", "description"], modular: true },
    {
      template: named("dcim.consoleserverporttemplate"),
      component: named("dcim.consoleserverport"),
      copy: ["type", "description"],
      modular: true,
    },
    {
      template: named("dcim.powerporttemplate"),
      component: named("dcim.powerport"),
      copy: ["type", "maximum_draw", "allocated_draw", "description"],
      modular: true,
    },
    {
      template: named("dcim.poweroutlettemplate"),
      component: named("dcim.poweroutlet"),
      copy: ["type", "feed_leg", "description"],
      refs: { power_port_id: named("dcim.powerport") },
      modular: true,
    },
    {
      template: named("dcim.interfacetemplate"),
      component: named("dcim.interface"),
      copy: ["type", "enabled", "mgmt_only", "description", "poe_mode", "poe_type", "rf_role"],
      modular: true,
    },
    {
      template: named("dcim.rearporttemplate"),
      component: named("dcim.rearport"),
      copy: ["type", "color", "positions", "description"],
      modular: true,
    },
    {
      template: named("dcim.frontporttemplate"),
      component: named("dcim.frontport"),
      copy: ["type", "color", "rear_port_position", "description"],
      refs: { rear_port_id: named("dcim.rearport") },
      modular: true,
    },
    { template: named("dcim.devicebaytemplate"), component: named("dcim.devicebay"), copy: ["description"], modular: false },
    {
      template: named("dcim.modulebaytemplate"),
      component: named("dcim.modulebay"),
      copy: ["description"],
      resolved: ["position"],
      modular: true,
    },
  ];
}

/** What components are instantiated for: the new devices, or the new modules, of this request. */
interface Owners {
  /** Rows (device_id, module_id, type_id, position) of every new owner. */
  readonly rows: Sql;
  /** The template column naming the owner's type. */
  readonly typeColumn: "device_type_id" | "module_type_id";
  /** A template's text as the owner's component gets it. */
  resolve(text: Sql): Sql;
  /** The components (of a table under `alias`) made for the new owners. */
  made(alias: string): Sql;
}

/** Ids of the objects of `objectType` this request created (their change records are already written). */
const createdIds = (ctx: Actor, objectType: string): Sql =>
  sql`(SELECT changed_object_id FROM core_objectchange WHERE request_id = ${ctx.requestId} AND changed_object_type = ${objectType} AND action = 'create')`;

function deviceOwners(ctx: Actor): Owners {
  const ids = createdIds(ctx, "dcim.device");
  return {
    rows: sql`(SELECT d.id AS device_id, NULL AS module_id, d.device_type_id AS type_id, NULL AS position FROM dcim_device d WHERE d.id IN ${ids})`,
    typeColumn: "device_type_id",
    resolve: (text) => text,
    made: (alias) => sql`${sql.ref(`${alias}.device_id`)} IN ${ids}`,
  };
}

function moduleOwners(ctx: Actor): Owners {
  const ids = createdIds(ctx, "dcim.module");
  return {
    rows: sql`(SELECT m.device_id, m.id AS module_id, m.module_type_id AS type_id, b.position
      FROM dcim_module m JOIN dcim_modulebay b ON b.id = m.module_bay_id WHERE m.id IN ${ids})`,
    typeColumn: "module_type_id",
    resolve: (text) => sql`replace(${text}, '{module}', coalesce(o.position, ''))`,
    made: (alias) => sql`${sql.ref(`${alias}.module_id`)} IN ${ids}`,
  };
}

const col = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** The new component of the owner `o` made from the template `templateId` of `template` (by resolved name). */
const sibling = (owners: Owners, template: Model, component: Model, templateId: Sql) =>
  sql`(SELECT c.id FROM ${sql.table(component.table)} c JOIN ${sql.table(template.table)} x ON x.id = ${templateId}
    WHERE c.device_id = o.device_id AND c.name = ${owners.resolve(sql`x.name`)})`;

/** The INSERT creating every component of one kind for every new owner. */
function insertStatement(ctx: Actor, owners: Owners, kind: Kind): Statement {
  const [template, component] = [kind.template(), kind.component()];
  const now = ctx.now.toISOString();
  const columns: [string, Sql][] = [
    ["device_id", sql`o.device_id`],
    ...(kind.modular ? [["module_id", sql`o.module_id`] as [string, Sql]] : []),
    ...["name", "label", ...(kind.resolved ?? [])].map((c): [string, Sql] => [c, owners.resolve(col("t", c))]),
    ...kind.copy.map((c): [string, Sql] => [c, col("t", c)]),
    ...Object.entries(kind.refs ?? {}).map(([c, target]): [string, Sql] => {
      const referenced = template.fields.find((x) => x.column === c)!.target!();
      return [c, sibling(owners, referenced, target(), col("t", c))];
    }),
    ["created", sql`${now}`],
    ["last_updated", sql`${now}`],
  ];
  return sql`INSERT INTO ${sql.table(component.table)} (${sql.join(columns.map(([c]) => sql.ref(c)))})
    SELECT ${sql.join(columns.map(([, x]) => x))} FROM ${owners.rows} o
    JOIN ${sql.table(template.table)} t ON ${col("t", owners.typeColumn)} = o.type_id
    ORDER BY o.device_id, o.module_id, t.id`.compile(qb);
}

/** New interfaces bridged as their templates are: to the interface made from the bridge's template. */
function bridgeStatement(owners: Owners): Statement {
  return sql`UPDATE dcim_interface SET bridge_id = (
      SELECT c.id FROM ${owners.rows} o
      JOIN dcim_interfacetemplate t ON ${col("t", owners.typeColumn)} = o.type_id AND ${owners.resolve(sql`t.name`)} = dcim_interface.name
      JOIN dcim_interfacetemplate bt ON bt.id = t.bridge_id
      JOIN dcim_interface c ON c.device_id = o.device_id AND c.name = ${owners.resolve(sql`bt.name`)}
      WHERE o.device_id = dcim_interface.device_id AND o.module_id IS dcim_interface.module_id)
    WHERE ${owners.made("dcim_interface")}`.compile(qb);
}

/** The components an inventory item template may stand for, with the components made from them. */
const standIns = (kinds: readonly Kind[]) =>
  kinds.filter((k) => k.modular && k.component().objectType !== "dcim.modulebay").map((k) => [k.template(), k.component()] as const);

/** Inventory items, a tree per device: inserted in template order, then linked to their parents. */
function inventoryStatements(ctx: Actor, owners: Owners, registry: Registry): Statement[] {
  const kinds = kindsOf(registry);
  const now = ctx.now.toISOString();
  const typeOf = sql.join(
    standIns(kinds).map(([t, c]) => sql`WHEN ${t.objectType} THEN ${c.objectType}`),
    sql` `,
  );
  const idOf = sql.join(
    standIns(kinds).map(([t, c]) => sql`WHEN ${t.objectType} THEN ${sibling(owners, t, c, sql`t.component_id`)}`),
    sql` `,
  );
  const insert = sql`INSERT INTO dcim_inventoryitem
      (device_id, name, label, role_id, manufacturer_id, part_id, description, _depth, component_type, component_id, created, last_updated)
    SELECT o.device_id, t.name, t.label, t.role_id, t.manufacturer_id, t.part_id, t.description, t._depth,
      CASE t.component_type ${typeOf} END, CASE t.component_type ${idOf} END, ${now}, ${now}
    FROM ${owners.rows} o JOIN dcim_inventoryitemtemplate t ON t.device_type_id = o.type_id
    ORDER BY o.device_id, t.id`.compile(qb);
  // The k-th item of a device (by id) was made from the k-th template of its type (by id): the
  // INSERT above ran in that order. Pairing them maps template parents to item parents.
  const link = sql`WITH pair AS (
      SELECT i.id AS item_id, t.id AS template_id, t.parent_id AS template_parent, i.device_id
      FROM (SELECT id, device_id, row_number() OVER (PARTITION BY device_id ORDER BY id) AS k FROM dcim_inventoryitem i WHERE ${owners.made("i")}) i
      JOIN (SELECT o.device_id, t.id, t.parent_id, row_number() OVER (PARTITION BY o.device_id ORDER BY t.id) AS k
        FROM ${owners.rows} o JOIN dcim_inventoryitemtemplate t ON t.device_type_id = o.type_id) t
      ON t.device_id = i.device_id AND t.k = i.k)
    UPDATE dcim_inventoryitem SET parent_id = (SELECT p.item_id FROM pair c JOIN pair p ON p.device_id = c.device_id AND p.template_id = c.template_parent
      WHERE c.item_id = dcim_inventoryitem.id)
    WHERE id IN (SELECT item_id FROM pair WHERE template_parent IS NOT NULL)`.compile(qb);
  return [insert, link, creationRecordsStatement(ctx, registry.get("dcim.inventoryitem"), owners.made)];
}

/** Every statement instantiating the templates of the new owners' types. */
function instantiationStatements(ctx: Actor, owners: Owners, kinds: readonly Kind[]): Statement[] {
  return kinds.flatMap((kind) => [
    insertStatement(ctx, owners, kind),
    ...(kind.component().objectType === "dcim.interface" ? [bridgeStatement(owners)] : []),
    creationRecordsStatement(ctx, kind.component(), owners.made),
  ]);
}

/** The device hook: components for the devices this write creates (none for updates). */
export function deviceComponentStatements(registry: Registry, ctx: Actor, items: readonly WriteItem[]): Statement[] {
  if (!items.some((item) => item.id === null)) return [];
  const owners = deviceOwners(ctx);
  return [...instantiationStatements(ctx, owners, kindsOf(registry)), ...inventoryStatements(ctx, owners, registry)];
}

/** The module hook: components on the device for the modules this write installs. */
export function moduleInstallStatements(registry: Registry, ctx: Actor, items: readonly WriteItem[]): Statement[] {
  if (!items.some((item) => item.id === null)) return [];
  return instantiationStatements(
    ctx,
    moduleOwners(ctx),
    kindsOf(registry).filter((k) => k.modular),
  );
}
