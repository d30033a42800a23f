import type { Model, Registry } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import type { Row } from "../db/database.ts";
import { qb } from "../db/query-builder.ts";
import { isPermitted } from "./permissions.ts";
import { pythonRepr } from "../schema/errors.ts";
import type { WriteItem, Probe } from "../schema/hooks.ts";
import { checkValue, definedFor, isEmptyValue, type CustomFieldDefinition, type CustomFieldType } from "../schema/custom-field-types.ts";
import { attributeCondition } from "./filters.ts";
import { scopeSql } from "./scope.ts";
import { nameableModels } from "./select.ts";

/**
 * Custom field values on writes of any model that carries them. The definitions for the model's
 * object type, the objects that object fields name and the values unique fields already hold
 * all come in the write's first round trip (one statement, plus one per object named by
 * attributes); then every item is checked as NetBox's `clean()` checks it, defaults fill a
 * create, and given data is merged over the stored data.
 */

type Out = Record<string, unknown>;
type Sql = RawBuilder<unknown>;

/** A definition with what the probe found for this request's items. */
interface Probed extends CustomFieldDefinition {
  /** Ids of the related objects that exist and the requester may view, among those the items name. */
  readonly found: ReadonlySet<number>;
  /** Indexes of items whose value another stored object already holds. */
  readonly conflicts: ReadonlySet<number>;
}

/** A related object as a value may name it: an id, a numeric string, `{"id": n}`, or attributes. */
type ObjectRef = { id: number } | { attrs: Out };

function objectRef(x: unknown): ObjectRef | null {
  if (typeof x === "number" && Number.isSafeInteger(x) && x >= 0) return { id: x };
  if (typeof x === "string" && /^\d{1,15}$/.test(x)) return { id: Number(x) };
  if (x && typeof x === "object" && !Array.isArray(x)) {
    const keys = Object.keys(x);
    const id = (x as Out).id;
    if (keys.length === 1 && keys[0] === "id" && /^\d{1,15}$/.test(String(id))) return { id: Number(id) };
    return keys.length ? { attrs: x as Out } : null;
  }
  return null;
}

const refsOf = (value: unknown): ObjectRef[] =>
  (Array.isArray(value) ? value : [value]).map(objectRef).filter((r): r is ObjectRef => r !== null);
const attrKey = (name: string, attrs: Out) => `${name}:${JSON.stringify(attrs)}`;
const parsed = (raw: unknown): unknown => (typeof raw === "string" ? JSON.parse(raw) : raw);

/** One CASE branch per registered model, choosing by the related object type of field `name`. */
function perModel(registry: Registry, type: Sql, branch: (m: Model) => Sql | null): Sql {
  const branches = nameableModels(registry).flatMap((m) => {
    const b = branch(m);
    return b ? [sql`WHEN ${sql.lit(m.objectType)} THEN ${b}`] : [];
  });
  return branches.length ? sql`CASE ${type} ${sql.join(branches, sql` `)} END` : sql`NULL`;
}

export interface CustomFieldWrite {
  readonly probes: Probe[];
  /** Checks, fills and merges the items' custom field data, once the probes have settled. */
  apply(items: readonly WriteItem[]): void;
}

export function customFieldWrite(ctx: Actor, model: Model, items: readonly WriteItem[]): CustomFieldWrite {
  const field = model.field.custom_fields;
  const touched = items.some((item) => item.id === null || item.values.custom_fields !== undefined);
  if (!field?.column || !touched) return { probes: [], apply: () => {} };
  const data = sql.ref(`x.${field.column}`);
  const given = (item: WriteItem) => (item.values.custom_fields ?? {}) as Out;

  const ids: Record<string, number[]> = {};
  const byAttrs = new Map<string, { name: string; attrs: Out }>();
  for (const item of items) {
    for (const [name, value] of Object.entries(given(item))) {
      for (const ref of refsOf(value)) {
        if ("id" in ref) (ids[name] ??= []).push(ref.id);
        else byAttrs.set(attrKey(name, ref.attrs), { name, attrs: ref.attrs });
      }
    }
  }

  let definitions: Probed[] = [];
  const attrHits = new Map<string, number[]>();
  const path = sql`('$."' || cf.name || '"')`;
  const found = Object.keys(ids).length
    ? perModel(
        model.registry,
        sql`cf.related_object_type`,
        (m) =>
          sql`(SELECT json_group_array(r.id) FROM ${sql.table(m.table)} r WHERE r.id IN (SELECT value FROM json_each((SELECT ids FROM input), ${path}))
          AND ${scopeSql(ctx, m, "view", "r")})`,
      )
    : sql`NULL`;
  // The value an item gives (or, creating, the default it will get), as canonical JSON text.
  const givenPath = sql`('$.data."' || cf.name || '"')`;
  const itemValue = sql`CASE WHEN json_type(i.value, ${givenPath}) IS NOT NULL THEN i.value -> ${givenPath}
    WHEN i.value ->> '$.id' IS NULL THEN json(cf."default") END`;
  const conflicts = sql`CASE WHEN cf."unique" THEN (SELECT json_group_array(i.key) FROM json_each((SELECT items FROM input)) i
    WHERE ${itemValue} NOT IN ('null', '""') AND EXISTS (SELECT 1 FROM ${sql.table(model.table)} x
      WHERE x.id IS NOT i.value ->> '$.id' AND ${data} -> ${path} = ${itemValue})) END`;
  const input = JSON.stringify(items.map((item) => ({ id: item.id, data: given(item) })));

  const probes: Probe[] = [
    {
      statement: sql`WITH input(ids, items) AS (SELECT ${JSON.stringify(ids)}, ${input})
      SELECT cf.name, cf.type, cf.related_object_type, cf.required, cf."unique", cf."default", cf.validation_minimum,
        cf.validation_maximum, cf.validation_regex, cs.name AS choice_set, cs.extra_choices, ${found} AS found, ${conflicts} AS conflicts
      FROM extras_customfield cf LEFT JOIN extras_customfieldchoiceset cs ON cs.id = cf.choice_set_id
      WHERE ${definedFor(model.objectType, "cf")}
      ORDER BY cf.group_name, cf.weight, cf.name`.compile(qb),
      settle: (r) => void (definitions = r.rows.map(definitionOf)),
    },
  ];
  // An object named by attributes: matched in the model the field names, among those the
  // requester may read, by attributes that model can be filtered on (as related objects are).
  for (const [key, { name, attrs }] of byAttrs) {
    const type = sql`(SELECT related_object_type FROM extras_customfield WHERE name = ${name})`;
    const hits = perModel(model.registry, type, (m) => {
      const cond = isPermitted(ctx, m, "view") ? attributeCondition(m, attrs) : null;
      return cond
        ? sql`(SELECT json_group_array(id) FROM (SELECT id FROM ${sql.table(m.table)} WHERE ${cond} AND ${scopeSql(ctx, m, "view")} LIMIT 2))`
        : null;
    });
    probes.push({
      statement: sql`SELECT ${hits} AS hits`.compile(qb),
      settle: (r) => void attrHits.set(key, (parsed(r.rows[0]?.hits) ?? []) as number[]),
    });
  }

  return {
    probes,
    apply(ready) {
      const check: ItemCheck = { column: field.column!, definitions, attrHits, seen: new Map() };
      ready.forEach((item, i) => {
        // An id not found is already an error of the item (writeObjects): nothing to check against.
        if (item.id !== null && item.current === null) return;
        if (item.id !== null && item.values.custom_fields === undefined) return;
        const result = checkItem(item, i, check);
        if ("errors" in result) Object.assign(item.errors, result.errors);
        else item.values.custom_fields = result.data;
      });
    },
  };
}

function definitionOf(row: Row): Probed {
  const choices = parsed(row.extra_choices) as [string, string][] | null;
  return {
    name: String(row.name),
    type: String(row.type) as CustomFieldType,
    relatedObjectType: (row.related_object_type as string | null) ?? null,
    required: Boolean(row.required),
    unique: Boolean(row.unique),
    default: parsed(row.default) ?? null,
    minimum: row.validation_minimum === null ? null : Number(row.validation_minimum),
    maximum: row.validation_maximum === null ? null : Number(row.validation_maximum),
    regex: String(row.validation_regex ?? ""),
    choiceSet: row.choice_set === null ? null : { name: String(row.choice_set), values: (choices ?? []).map((c) => c[0]) },
    found: new Set(((parsed(row.found) ?? []) as number[]).map(Number)),
    conflicts: new Set(((parsed(row.conflicts) ?? []) as number[]).map(Number)),
  };
}

/** Object field values as ids; undefined when one names nothing (NetBox's "Unknown related object(s)"). */
function resolveObjects(def: Probed, value: unknown, attrHits: ReadonlyMap<string, number[]>): unknown {
  if (isEmptyValue(value) || (def.type !== "object" && def.type !== "multiobject")) return value;
  const one = (x: unknown): number | undefined => {
    const ref = objectRef(x);
    if (!ref) return undefined;
    if ("id" in ref) return def.found.has(ref.id) ? ref.id : undefined;
    const hits = attrHits.get(attrKey(def.name, ref.attrs)) ?? [];
    return hits.length === 1 ? hits[0] : undefined;
  };
  // A value of the wrong shape is left for the type's check to name.
  if (def.type === "object") return Array.isArray(value) ? value : one(value);
  if (!Array.isArray(value)) return value;
  const resolved = value.map(one);
  return resolved.includes(undefined) ? undefined : [...new Set(resolved)];
}

/** What checking each item of a write needs, made once for all of them. */
interface ItemCheck {
  /** The model's custom field data column. */
  readonly column: string;
  /** The definitions the probe read for the model. */
  readonly definitions: readonly Probed[];
  /** The objects values named by attributes matched, by `attrKey`. */
  readonly attrHits: ReadonlyMap<string, number[]>;
  /** The unique values items already took, by field, with the index of the item that took each. */
  readonly seen: Map<string, Map<string, number>>;
}

function checkItem(item: WriteItem, index: number, { column, definitions, attrHits, seen }: ItemCheck): { data: Out } | { errors: Out } {
  const given = (item.values.custom_fields ?? {}) as Out;
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const unknown = Object.keys(given).filter((name) => !byName.has(name));
  if (unknown.length) {
    return {
      // NetBox names an unknown custom field under `__all__`.
      errors: { __all__: unknown.map((name) => `Unknown field name '${name}' in custom field data.`) },
    };
  }
  const resolved: Out = {};
  for (const [name, value] of Object.entries(given)) {
    const ids = resolveObjects(byName.get(name)!, value, attrHits);
    if (ids === undefined)
      return { errors: { custom_fields: [`Unknown related object(s): ${typeof value === "string" ? value : pythonRepr(value)}`] } };
    resolved[name] = ids;
  }
  // Data kept from before: only fields still defined for the type.
  const base: Out = {};
  if (item.current) {
    const stored = (parsed(item.current[column]) ?? {}) as Out;
    for (const [name, value] of Object.entries(stored)) if (byName.has(name)) base[name] = value;
  } else {
    for (const def of definitions) if (def.default !== null) base[def.name] = def.default;
  }
  // Value rules are the model's clean(), which NetBox runs only once every field is valid.
  if (Object.keys(item.errors).length) return { data: { ...base, ...resolved } };
  const data: Out = { ...base, ...resolved };
  const problems: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    const def = byName.get(name)!;
    const checked = checkValue(def, value);
    if ("error" in checked) {
      problems.push(`Invalid value for custom field '${name}': ${checked.error}`);
      break;
    }
    data[name] = checked.value;
    // Unique values are checked where they change: given, or filled by a create's default.
    const fresh = name in resolved || !item.current;
    if (!def.unique || isEmptyValue(checked.value) || !fresh) continue;
    const text = JSON.stringify(checked.value);
    const taken = seen.get(name) ?? new Map<string, number>();
    seen.set(name, taken);
    if (def.conflicts.has(index) || (taken.has(text) && taken.get(text) !== index)) {
      problems.push(`Custom field '${name}' must have a unique value.`);
      break;
    }
    taken.set(text, index);
  }
  if (!problems.length) {
    const missing = definitions.find((def) => def.required && !(def.name in data));
    if (missing) problems.push(`Missing required custom field '${missing.name}'.`);
  }
  return problems.length ? { errors: { __all__: problems } } : { data };
}
