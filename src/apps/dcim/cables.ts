import type { Choice, FieldOptions, SqlScope, FilterDeclaration, Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import * as v from "valibot";
import { isVirtualInterfaceType, isWirelessInterfaceType } from "./interface-kinds.ts";
import { sql, type RawBuilder } from "kysely";
import { idList, inJsonList, whether } from "../../schema/filter-sql.ts";
import type { Row, Statement } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import type { FieldErrors } from "../../schema/errors.ts";
import { guardStatement } from "../../engine/write-statements.ts";
import { scopeSql } from "../../engine/scope.ts";
import { f } from "../../schema/fields.ts";
import type { StatefulHooks, WriteItem, Probe } from "../../schema/hooks.ts";
import { KINDS } from "../../schema/kinds/index.ts";
import { pyType } from "../../schema/kinds/inputs.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import { optionalColor } from "./components.ts";
import { COMPATIBLE_ENDS, endpointModels, nestedEndpointSql, TERMINATIONS } from "./cabling.ts";

type Sql = RawBuilder<unknown>;

/** Cable types; a cable's `type` reads as the bare value (a plain choice field in NetBox). */
const CABLE_TYPES = [
  "cat3",
  "cat5",
  "cat5e",
  "cat6",
  "cat6a",
  "cat7",
  "cat7a",
  "cat8",
  "dac-active",
  "dac-passive",
  "mrj21-trunk",
  "coaxial",
  "mmf",
  "mmf-om1",
  "mmf-om2",
  "mmf-om3",
  "mmf-om4",
  "mmf-om5",
  "smf",
  "smf-os1",
  "smf-os2",
  "aoc",
  "usb",
  "power",
];

export const CABLE_STATUS: readonly Choice[] = [
  { value: "connected", label: "Connected" },
  { value: "planned", label: "Planned" },
  { value: "decommissioning", label: "Decommissioning" },
];

export const CABLE_LENGTH_UNIT: readonly Choice[] = [
  { value: "km", label: "Kilometers" },
  { value: "m", label: "Meters" },
  { value: "cm", label: "Centimeters" },
  { value: "mi", label: "Miles" },
  { value: "ft", label: "Feet" },
  { value: "in", label: "Inches" },
];

/** Interfaces no cable can reach: virtual ones and radios. */

/** One end termination as written: `{"object_type": "dcim.interface", "object_id": 4}`. */
interface EndRef {
  readonly type: string;
  readonly id: number;
}

type End = "A" | "B";
const ENDS: readonly End[] = ["A", "B"];
const FIELD_OF: Record<End, string> = { A: "a_terminations", B: "b_terminations" };
const key = (r: EndRef) => `${r.type}:${r.id}`;

/** A list of `{object_type, object_id}`, checked for shape here and for meaning by the hooks. */
const terminationsInput: v.GenericSchema = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const x = dataset.value;
    if (!Array.isArray(x)) {
      addIssue({ message: `Expected a list of items but got type "${pyType(x)}".` });
      return NEVER;
    }
    const out: EndRef[] = [];
    for (const item of x) {
      const o = item as Record<string, unknown> | null;
      if (typeof o !== "object" || o === null || Array.isArray(o)) {
        addIssue({ message: `Invalid data. Expected a dictionary, but got ${pyType(item)}.` });
        return NEVER;
      }
      const id = typeof o.object_id === "string" && /^\d{1,15}$/.test(o.object_id) ? Number(o.object_id) : o.object_id;
      if (typeof o.object_type !== "string" || !(o.object_type in COMPATIBLE_ENDS)) {
        addIssue({
          message: `object_type: ${o.object_type === undefined ? "This field is required." : `Invalid object type: ${String(o.object_type)}`}`,
        });
        return NEVER;
      }
      if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) {
        addIssue({ message: `object_id: ${o.object_id === undefined ? "This field is required." : "A valid integer is required."}` });
        return NEVER;
      }
      out.push({ type: o.object_type, id });
    }
    return out;
  }),
) as v.GenericSchema;

/** One end's terminations, each `{object_type, object_id, object}` with the object nested. */
function terminationsSql(table: string, { sc }: SqlScope, end: End): Sql {
  const object = nestedEndpointSql(sc, sql`ct.termination_type`, sql`ct.termination_id`, sc.depth + 1);
  return sql`json(coalesce((SELECT json_group_array(json_object('object_type', ct.termination_type, 'object_id', ct.termination_id, 'object', ${object}) ORDER BY ct.id)
    FROM ${sql.table(TERMINATIONS)} ct WHERE ct.cable_id = ${sql.ref(`${table}.id`)} AND ct.cable_end = ${end}), '[]'))`;
}

const terminationsField = (end: End): FieldOptions =>
  f.computed((t, s) => terminationsSql(t, s!, end), {
    returns: "nested",
    readOnly: false,
    input: terminationsInput,
    label: `${end} terminations`,
  });

// ---------------------------------------------------------------------------------------------
// Writes: validate both ends set-wise, then replace the written ends' rows in one statement each.

/** What a write's probes found: endpoints by `type:id`, and the cable ends they or the updated cables hold. */
interface Found {
  readonly endpoints: Map<string, Row>;
  readonly ends: Row[];
}

function writeProbes(ctx: Actor, items: readonly WriteItem[], found: Found): Probe[] {
  const byType = new Map<string, Set<number>>();
  for (const item of items) {
    for (const end of ENDS) {
      for (const r of (item.values[FIELD_OF[end]] as EndRef[] | undefined) ?? [])
        byType.set(r.type, (byType.get(r.type) ?? new Set()).add(r.id));
    }
  }
  const probes: Probe[] = [];
  for (const [type, ids] of byType) {
    const model = cable.registry.byObjectType(type);
    if (!model) continue;
    const kind = model.field.type?.column ? sql`, ${sql.ref(model.field.type.column)} AS __kind` : sql``;
    probes.push({
      // Only endpoints the writer may view: one outside their view is "not found", as a missing one.
      statement:
        sql`SELECT id, mark_connected${kind} FROM ${sql.table(model.table)} WHERE id IN (SELECT value FROM json_each(${JSON.stringify([...ids])}))
        AND ${scopeSql(ctx, model, "view")}`.compile(qb),
      settle: (r) => r.rows.forEach((row) => found.endpoints.set(`${type}:${row.id}`, row)),
    });
  }
  const pairs = [...byType].flatMap(([type, ids]) => [...ids].map((id) => [type, id]));
  const updating = items.map((i) => i.id).filter((id): id is number => id !== null);
  if (pairs.length || updating.length) {
    probes.push({
      statement: sql`SELECT cable_id, cable_end, termination_type, termination_id FROM ${sql.table(TERMINATIONS)}
        WHERE cable_id IN (SELECT value FROM json_each(${JSON.stringify(updating)}))
        OR (termination_type, termination_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(pairs)}))`.compile(qb),
      settle: (r) => void found.ends.push(...r.rows),
    });
  }
  return probes;
}

/** How NetBox names the kind of an interface type no cable may end at. */
const uncableableKind = (type: string) =>
  type === "lag" ? "Link Aggregation Group (LAG)" : isVirtualInterfaceType(type) ? "virtual" : "wireless";

/**
 * The first problem of one end's terminations, or undefined: a reference that names nothing is
 * the end's error; what the objects named cannot take is the whole cable's, as NetBox gives it.
 */
function endProblem(
  refs: readonly EndRef[],
  item: WriteItem,
  f: Found,
  claimed: Map<string, WriteItem>,
): { own?: boolean; message: string } | undefined {
  const cableId = item.id;
  const types = new Set(refs.map((r) => r.type));
  if (types.size > 1) return { message: "Cannot connect different termination types to the same end of a cable." };
  for (const r of refs) {
    if (!cable.registry.byObjectType(r.type)) return { own: true, message: `Invalid object type: ${r.type}` };
    const endpoint = f.endpoints.get(key(r));
    if (!endpoint) return { own: true, message: `Related object not found using the provided numeric ID: ${r.id} (${r.type})` };
    const held = f.ends.find((e) => e.termination_type === r.type && Number(e.termination_id) === r.id && Number(e.cable_id) !== cableId);
    if (held) return { message: `Duplicate termination found for ${r.type} ${r.id}: cable ${held.cable_id}` };
    if (endpoint.mark_connected) return { message: `${r.type} ${r.id} is marked as connected; it cannot take a cable.` };
    if (
      r.type === "dcim.interface" &&
      typeof endpoint.__kind === "string" &&
      (isVirtualInterfaceType(endpoint.__kind) || isWirelessInterfaceType(endpoint.__kind))
    ) {
      return { message: `Cables cannot be terminated to ${uncableableKind(endpoint.__kind)} interfaces` };
    }
    if (claimed.has(key(r)) && claimed.get(key(r)) !== item)
      return { message: `${r.type} ${r.id} is connected to another cable in this request.` };
  }
  return undefined;
}

/** The ends a write leaves a cable with (written ones, else the stored ones), checked together. */
function prepareWrite(items: readonly WriteItem[], f: Found): void {
  const claimed = new Map<string, WriteItem>();
  for (const item of items) {
    const ends = {} as Record<End, EndRef[]>;
    const errors: FieldErrors = {};
    for (const end of ENDS) {
      const given = item.values[FIELD_OF[end]] as EndRef[] | undefined;
      ends[end] =
        given ??
        f.ends
          .filter((e) => item.id !== null && Number(e.cable_id) === item.id && e.cable_end === end)
          .map((e) => ({ type: String(e.termination_type), id: Number(e.termination_id) }));
      if (given === undefined && item.id !== null) continue;
      if (ends[end].length === 0) {
        errors.__all__ = ["Must define A and B terminations when creating a new cable."];
        continue;
      }
      const problem = endProblem(ends[end], item, f, claimed);
      if (problem) errors[problem.own ? FIELD_OF[end] : "__all__"] = [problem.message];
    }
    const [a, b] = [ends.A[0]?.type, ends.B[0]?.type];
    if (!Object.keys(errors).length && a && b && !COMPATIBLE_ENDS[a]?.includes(b)) {
      errors.__all__ = [`Incompatible termination types: ${a} and ${b}`];
    }
    const aKeys = new Set(ends.A.map(key));
    if (!Object.keys(errors).length && ends.B.some((r) => aKeys.has(key(r)))) {
      errors.__all__ = ["A and B terminations cannot be the same object."];
    }
    const length = item.values.length !== undefined ? item.values.length : item.current?.length;
    const unit = item.values.length_unit !== undefined ? item.values.length_unit : item.current?.length_unit;
    if (length !== null && length !== undefined && (unit === null || unit === undefined)) {
      errors.length_unit = ["Must specify a unit when setting a cable length."];
    }
    for (const [k, message] of Object.entries(errors)) item.errors[k] ??= message;
    // Later items may not take what this one holds, whether or not it is valid.
    for (const end of ENDS) for (const r of ends[end]) if (!claimed.has(key(r))) claimed.set(key(r), item);
    // The same endpoint twice in one list counts once.
    for (const end of ENDS) if (item.values[FIELD_OF[end]]) item.values[FIELD_OF[end]] = dedupe(ends[end]);
  }
}

const dedupe = (refs: readonly EndRef[]) => [...new Map(refs.map((r) => [key(r), r])).values()];

/**
 * Replaces the written ends of every cable in three statements whatever the number of cables:
 * the old rows go, the new rows come (a created cable's id counted back from the newest, since
 * the objects' rows were inserted in input order just before), and a guard aborts the write if
 * an endpoint vanished since the probes read it. The unique index on the endpoint refuses a
 * cable end a concurrent writer took meanwhile.
 */
function writeStatements(items: readonly WriteItem[], now: string): Statement[] {
  const creates = items.filter((i) => i.id === null).length;
  let created = 0;
  const replaced: [number, End][] = [];
  const rows: [number | null, number, End, string, number][] = [];
  const wanted = new Map<string, Set<number>>();
  for (const item of items) {
    const back = item.id === null ? creates - 1 - created++ : 0;
    for (const end of ENDS) {
      const refs = item.values[FIELD_OF[end]] as EndRef[] | undefined;
      if (!refs) continue;
      if (item.id !== null) replaced.push([item.id, end]);
      for (const r of refs) {
        rows.push([item.id, back, end, r.type, r.id]);
        wanted.set(r.type, (wanted.get(r.type) ?? new Set()).add(r.id));
      }
    }
  }
  const out: Statement[] = [];
  if (replaced.length) {
    out.push(
      sql`DELETE FROM ${sql.table(TERMINATIONS)} WHERE (cable_id, cable_end) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(replaced)}))`.compile(
        qb,
      ),
    );
  }
  if (rows.length) {
    out.push(
      sql`INSERT INTO ${sql.table(TERMINATIONS)} (cable_id, cable_end, termination_type, termination_id, created, last_updated)
      SELECT coalesce(value ->> 0, (SELECT seq FROM sqlite_sequence WHERE name = 'dcim_cable') - (value ->> 1)), value ->> 2, value ->> 3, value ->> 4, ${now}, ${now}
      FROM json_each(${JSON.stringify(rows)}) ORDER BY key`.compile(qb),
    );
  }
  for (const [type, ids] of wanted) {
    const model = cable.registry.get(type);
    const list = JSON.stringify([...ids]);
    out.push(
      guardStatement(
        "gone",
        sql`(SELECT count(*) FROM ${sql.table(model.table)} WHERE id IN (SELECT value FROM json_each(${list}))) <> ${ids.size}`,
      ),
    );
  }
  return out;
}

const cableHooks: StatefulHooks<Found> = {
  initial: () => ({ endpoints: new Map(), ends: [] }),
  writeProbes,
  prepareWrite: (_ctx, items, found) => prepareWrite(items, found),
  writeStatements: (ctx, items) => writeStatements(items, ctx.now.toISOString()),
};

// ---------------------------------------------------------------------------------------------
// Filters: by what the cable's ends attach to.

/** Cables with an end termination matching `where` (over `ct`). */
const cablesWhere = (table: string, where: Sql) =>
  sql`${sql.ref(`${table}.id`)} IN (SELECT ct.cable_id FROM ${sql.table(TERMINATIONS)} ct WHERE ${where})`;

/**
 * Cables with an end on a device component whose device matches `devices` (SQL over `d`, a
 * device row), for every registered endpoint model that belongs to a device.
 */
function byDevice(table: string, devices: Sql): Sql {
  const device = cable.registry.get("dcim.device");
  const parts = endpointModels(cable.registry.byObjectType)
    .filter((m) => m.field.device && KINDS[m.field.device.kind].references?.singleTarget)
    .map(
      (m) => sql`(ct.termination_type = ${m.objectType} AND ct.termination_id IN (SELECT e.id FROM ${sql.table(m.table)} e
      JOIN ${sql.table(device.table)} d ON d.id = e.device_id WHERE ${devices}))`,
    );
  return parts.length ? cablesWhere(table, sql.join(parts, sql` OR `)) : sql`0`;
}

/** A filter on a device attribute, by id (`site_id`) or by natural key (`site`), when devices have it. */
function deviceRelation(field: string, { byId }: { readonly byId: boolean }): FilterDeclaration {
  return {
    sql: (values, table) => {
      const device = cable.registry.get("dcim.device");
      const relation = device.field[field];
      if (!relation || !KINDS[relation.kind].references?.singleTarget) return sql`0`;
      const column = sql.ref(`d.${relation.column}`);
      if (byId) return byDevice(table, inJsonList(column, idList(values)));
      const target = relation.target!();
      const keyColumn = sql.ref(target.field[target.naturalKey]?.column ?? "id");
      return byDevice(
        table,
        sql`${column} IN (SELECT id FROM ${sql.table(target.table)} WHERE ${keyColumn} IN (SELECT value FROM json_each(${JSON.stringify(values)})))`,
      );
    },
  };
}

const endFilter = (end: End, part: "type" | "id"): FilterDeclaration => ({
  // NetBox negates the type filters (`termination_a_type__n`), not the id ones.
  negatable: part === "type",
  sql: (values, table) =>
    cablesWhere(
      table,
      sql`ct.cable_end = ${end} AND ${part === "type" ? inJsonList(sql`ct.termination_type`, JSON.stringify(values)) : inJsonList(sql`ct.termination_id`, idList(values))}`,
    ),
});

/** `interface_id`, `frontport_id`, ...: cables with an end on one of those objects. */
const perTypeFilters = Object.fromEntries(
  Object.keys(COMPATIBLE_ENDS).map((type): [string, FilterDeclaration] => [
    `${type.split(".")[1]}_id`,
    {
      sql: (values, table) =>
        cablesWhere(table, sql`ct.termination_type = ${type} AND ${inJsonList(sql`ct.termination_id`, idList(values))}`),
    },
  ]),
);

export const cable = defineModel({
  app: "dcim",
  name: "cable",
  fields: {
    type: f.string({
      maxLength: 50,
      blank: true,
      nullable: true,
      default: null,
      check: (s) => (CABLE_TYPES.includes(s) ? undefined : `"${s}" is not a valid choice.`),
    }),
    a_terminations: terminationsField("A"),
    b_terminations: terminationsField("B"),
    status: f.choice(CABLE_STATUS, { default: "connected" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    label: f.string({ maxLength: 100, blank: true }),
    color: optionalColor(),
    length: f.float({ nullable: true, min: 0, max: 999_999.99 }),
    length_unit: f.choice(CABLE_LENGTH_UNIT, { nullable: true }),
    description,
    comments,
  },
  brief: ["label", "description"],
  // NetBox's str(cable): its label, else `#<id>`.
  display: (t) => sql`CASE WHEN ${sql.ref(`${t}.label`)} <> '' THEN ${sql.ref(`${t}.label`)} ELSE '#' || ${sql.ref(`${t}.id`)} END`,
  search: ["label", "description", "comments"],
  ordering: ["id"],
  hooks: cableHooks,
  filters: {
    device_id: { sql: (values, table) => byDevice(table, inJsonList(sql`d.id`, idList(values))) },
    device: { sql: (values, table) => byDevice(table, inJsonList(sql`d.name`, JSON.stringify(values))) },
    site_id: deviceRelation("site", { byId: true }),
    site: deviceRelation("site", { byId: false }),
    location_id: deviceRelation("location", { byId: true }),
    location: deviceRelation("location", { byId: false }),
    rack_id: deviceRelation("rack", { byId: true }),
    rack: deviceRelation("rack", { byId: false }),
    termination_a_type: endFilter("A", "type"),
    termination_a_id: endFilter("A", "id"),
    termination_b_type: endFilter("B", "type"),
    termination_b_id: endFilter("B", "id"),
    ...perTypeFilters,
    // A cable missing its A or its B end.
    unterminated: whether(
      (t) => sql`NOT (EXISTS (SELECT 1 FROM ${sql.table(TERMINATIONS)} e WHERE e.cable_id = ${sql.ref(`${t}.id`)} AND e.cable_end = 'A')
        AND EXISTS (SELECT 1 FROM ${sql.table(TERMINATIONS)} e WHERE e.cable_id = ${sql.ref(`${t}.id`)} AND e.cable_end = 'B'))`,
    ),
  },
});

/** The endpoint tables by type, for a termination's display: each endpoint's name (a circuit termination's side). */
const endpointName = (t: string) =>
  sql`CASE ${sql.ref(`${t}.termination_type`)} ${sql.join(
    Object.keys(COMPATIBLE_ENDS).map((type) => {
      const [app, model] = type.split(".");
      const name = type === "circuits.circuittermination" ? sql`'Termination ' || e.term_side` : sql`e.name`;
      return sql`WHEN ${type} THEN (SELECT ${name} FROM ${sql.table(`${app}_${model}`)} e WHERE e.id = ${sql.ref(`${t}.termination_id`)})`;
    }),
    sql` `,
  )} END`;

/**
 * The cable ends, as NetBox serves them at `/api/dcim/cable-terminations/`: read only here. A
 * cable's ends are written with the cable (`a_terminations`, `b_terminations` on
 * `/api/dcim/cables/`), which checks them as a whole (compatible types, one cable per endpoint,
 * both ends' rules); NetBox also takes writes of single ends, which could leave a cable in a
 * state its own endpoint checks refuse, so they are not offered.
 */
export const cableTermination = defineModel({
  app: "dcim",
  name: "cabletermination",
  verboseName: "cable termination",
  table: TERMINATIONS,
  readOnly: true,
  taggable: false,
  fields: {
    // The cable's id, as NetBox reads it; the row goes with its cable (the table's foreign key).
    cable: f.integer({ required: true, readOnly: true, column: "cable_id" }),
    cable_end: f.choice(
      [
        { value: "A", label: "A" },
        { value: "B", label: "B" },
      ],
      { bare: true, label: "End" },
    ),
    // Removed with its endpoint by the endpoint's own delete (cabling.ts), not by the engine. Not
    // in the brief and nested forms: an endpoint nests its device and cable, too deep for a
    // statement that nests any model (a custom field of object type).
    termination: f.generic(Object.keys(COMPATIBLE_ENDS), { onDelete: "keep" }),
  },
  brief: ["cable", "cable_end"],
  display: (t) => sql`'Cable ' || coalesce((SELECT CASE WHEN c.label <> '' THEN c.label ELSE '#' || c.id END FROM dcim_cable c
    WHERE c.id = ${sql.ref(`${t}.cable_id`)}), '') || ' to ' || coalesce(${endpointName(t)}, '')`,
  search: [],
  ordering: ["cable", "cable_end", "id"],
});

export const cableModels: readonly Model[] = [cable, cableTermination];
