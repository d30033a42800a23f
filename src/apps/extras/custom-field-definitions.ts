import type { Model, Registry, RouteDeclaration, RouteContext } from "../../schema/shapes.ts";
import { readBatch } from "../../engine/unit-of-work.ts";
import { sql, type RawBuilder } from "kysely";
import type { Statement } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { scopeSql } from "../../engine/scope.ts";
import { ApiError, pythonRepr } from "../../schema/errors.ts";
import { paginated, parsePage } from "../../lib/pagination.ts";
import { json } from "../../lib/responses.ts";
import { isRef } from "../../schema/kinds/descriptor.ts";
import { pyType } from "../../schema/kinds/inputs.ts";
import type { ModelHooks, StatefulHooks, WriteItem } from "../../schema/hooks.ts";
import {
  cfPath,
  checkValue,
  compileRegex,
  CUSTOM_FIELD_TYPES,
  type CustomFieldDefinition,
  type CustomFieldType,
} from "../../schema/custom-field-types.ts";
import { refSql } from "../../engine/references.ts";
import { nameableModels } from "../../engine/select.ts";
import { byCodeUnits } from "../../lib/code-order.ts";

/**
 * The rules of the two definition models, custom fields and their choice sets: what NetBox's
 * `clean()` refuses, and what a saved or deleted definition changes in the objects' data.
 */

type Out = Record<string, unknown>;
const parsed = (raw: unknown): unknown => (typeof raw === "string" ? JSON.parse(raw) : raw);
/** A field's value after the write: as given, else as stored. */
const merged = (item: WriteItem, name: string, column = name): unknown =>
  item.values[name] !== undefined ? item.values[name] : (item.current?.[column] ?? null);

/** The models whose objects carry custom fields, by object type. */
export function customFieldHosts(registry: Registry): Map<string, Model> {
  return new Map(registry.models.filter((m) => m.field.custom_fields?.column).map((m) => [m.objectType, m]));
}

const dataOf = (model: Model) => sql.ref(`${model.table}.${model.field.custom_fields.column}`);

/** The message NetBox's object-type field gives for a value it cannot use. */
function objectTypeProblem(value: unknown, allowed: ReadonlyMap<string, unknown>): string | undefined {
  if (typeof value !== "string" || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(value)) {
    return "Invalid value. Specify a content type as '<app_label>.<model_name>'.";
  }
  return allowed.has(value) ? undefined : `Invalid content type: ${value}`;
}

// ---------------------------------------------------------------------------------------------
// Choice sets.

/** A choice set's `[value, label]` pairs, or DRF's message per bad entry. */
function checkPairs(value: unknown): { pairs?: [string, string][]; errors?: unknown } {
  if (!Array.isArray(value)) return { errors: [`Expected a list of items but got type "${pyType(value)}".`] };
  const errors: Record<string, string[]> = {};
  value.forEach((pair, i) => {
    if (!Array.isArray(pair)) errors[i] = [`Expected a list of items but got type "${pyType(pair)}".`];
    else if (pair.length < 2) errors[i] = ["Ensure this field has at least 2 elements."];
    else if (pair.length > 2) errors[i] = ["Ensure this field has no more than 2 elements."];
    else if (!pair.every((x) => typeof x === "string" || typeof x === "number")) errors[i] = ["Not a valid string."];
    else if (pair.some((x) => String(x).length > 100)) errors[i] = ["Ensure this field has no more than 100 characters."];
  });
  if (Object.keys(errors).length) return { errors };
  return { pairs: value.map((pair: unknown[]) => [String(pair[0]), String(pair[1])]) };
}

export const choiceSetHooks: ModelHooks = {
  prepareWrite(_ctx, items) {
    for (const item of items) {
      const given = item.values.extra_choices;
      let pairs = parsed(item.current?.extra_choices ?? null) as [string, string][] | null;
      if (given !== undefined) {
        const checked = checkPairs(given);
        if (checked.errors) {
          item.errors.extra_choices = checked.errors;
          continue;
        }
        pairs = checked.pairs!;
      }
      if (!merged(item, "base_choices") && !pairs?.length) {
        item.errors.__all__ = ["Must define base or extra choices."];
        continue;
      }
      // Ordered once, when saved, as NetBox does: by value, then label.
      if (pairs && merged(item, "order_alphabetically"))
        pairs = [...pairs].sort((a, b) => (a[0] === b[0] ? byCodeUnits(a[1], b[1]) : byCodeUnits(a[0], b[0])));
      if (pairs && (given !== undefined || item.values.order_alphabetically)) item.values.extra_choices = pairs;
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Custom fields.

/** The choice sets a write's definitions name (their values), by id, read in its first round trip. */
type ChoiceSets = Map<number, { name: string; values: string[] }>;

const NUMERIC: readonly string[] = ["integer", "decimal"];
const TEXTUAL: readonly string[] = ["text", "longtext", "url"];
const SELECTION: readonly string[] = ["select", "multiselect"];
const OBJECT: readonly string[] = ["object", "multiobject"];
const typeLabel = (type: string) => CUSTOM_FIELD_TYPES.find((c) => c.value === type)?.label ?? type;

/** One definition's problems, by field, as NetBox's `CustomField.clean()` reports them. */
function definitionErrors(registry: Registry, item: WriteItem, choiceSets: ChoiceSets): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => void (errors[field] ??= [message]);
  const type = merged(item, "type") as CustomFieldType;
  const name = String(merged(item, "name") ?? "");
  if (name.includes("__")) fail("name", "Double underscores are not permitted in custom field names.");

  const hosts = customFieldHosts(registry);
  for (const t of (item.values.object_types as unknown[] | undefined) ?? []) {
    const problem = objectTypeProblem(t, hosts);
    if (problem) fail("object_types", problem);
  }
  const related = merged(item, "related_object_type");
  if (OBJECT.includes(type)) {
    if (!related) fail("related_object_type", "Object fields must define an object type.");
    else if (item.values.related_object_type !== undefined) {
      const problem = objectTypeProblem(related, new Map(nameableModels(registry).map((m) => [m.objectType, m])));
      if (problem) fail("related_object_type", problem);
    }
  } else if (related) fail("type", `${typeLabel(type)} fields may not define an object type.`);

  const choiceSetId = merged(item, "choice_set", "choice_set_id") as number | null;
  if (SELECTION.includes(type) && !choiceSetId) fail("choice_set", "Selection fields must specify a set of choices.");
  else if (!SELECTION.includes(type) && choiceSetId) fail("choice_set", "Choices may be set only on selection fields.");

  if (merged(item, "unique") && type === "boolean") fail("unique", "Uniqueness cannot be enforced for boolean fields");
  if (merged(item, "validation_minimum") !== null && !NUMERIC.includes(type))
    fail("validation_minimum", "A minimum value may be set only for numeric fields");
  if (merged(item, "validation_maximum") !== null && !NUMERIC.includes(type))
    fail("validation_maximum", "A maximum value may be set only for numeric fields");
  const regex = String(merged(item, "validation_regex") ?? "");
  if (regex && !TEXTUAL.includes(type)) fail("validation_regex", "Regular expression validation is supported only for text and URL fields");
  else if (regex && !compileRegex(regex)) fail("validation_regex", `Invalid regular expression: ${regex}`);
  if (Object.keys(errors).length) return errors;

  const given = item.values.default;
  const value = given !== undefined ? given : parsed(item.current?.default ?? null);
  if (value !== null) {
    const def: CustomFieldDefinition = {
      name,
      type,
      relatedObjectType: related as string | null,
      required: false,
      unique: false,
      default: null,
      minimum: merged(item, "validation_minimum") as number | null,
      maximum: merged(item, "validation_maximum") as number | null,
      regex,
      choiceSet: choiceSetId ? (choiceSets.get(choiceSetId) ?? null) : null,
    };
    const checked = checkValue(def, value);
    if ("error" in checked)
      fail("default", `Invalid default value "${typeof value === "string" ? value : pythonRepr(value)}": ${checked.error}`);
    else if (given !== undefined) item.values.default = checked.value;
  }
  return errors;
}

/**
 * Statements keeping the objects' data in step with a saved definition, as NetBox does: a
 * renamed field moves its values, a field taken off an object type leaves its objects, and
 * objects that gain a field with a default receive it.
 */
function dataStatements(registry: Registry, item: WriteItem): Statement[] {
  const hosts = customFieldHosts(registry);
  const before = item.current ? { name: String(item.current.name), types: parsed(item.current.object_types) as string[] } : null;
  const name = String(merged(item, "name"));
  const types = (item.values.object_types as string[] | undefined) ?? before?.types ?? [];
  const fallback = item.values.default !== undefined ? item.values.default : parsed(item.current?.default ?? null);
  const out: Statement[] = [];
  for (const type of types) {
    const kept = before?.types.includes(type);
    if (kept && before!.name !== name) {
      const [from, to] = [cfPath(before!.name), cfPath(name)];
      out.push(
        ...dataUpdate(
          hosts,
          type,
          (d) => sql`json_remove(json_set(${d}, ${to}, ${d} -> ${from}), ${from})`,
          (d) => sql`json_type(${d}, ${from}) IS NOT NULL`,
        ),
      );
    } else if (!kept && fallback !== null) {
      const path = cfPath(name);
      out.push(
        ...dataUpdate(
          hosts,
          type,
          (d) => sql`json_set(${d}, ${path}, json(${JSON.stringify(fallback)}))`,
          (d) => sql`json_type(${d}, ${path}) IS NULL`,
        ),
      );
    }
  }
  for (const type of before?.types ?? []) {
    if (!types.includes(type)) out.push(...removalStatements(hosts, type, [before!.name]));
  }
  return out;
}

type DataSql = (data: RawBuilder<unknown>) => RawBuilder<unknown>;

/** Rewrites the custom field data of the objects of one type that match. */
function dataUpdate(hosts: Map<string, Model>, type: string, set: DataSql, where: DataSql): Statement[] {
  const model = hosts.get(type);
  if (!model) return [];
  const data = dataOf(model);
  return [
    sql`UPDATE ${sql.table(model.table)} SET ${sql.ref(model.field.custom_fields.column!)} = ${set(data)} WHERE ${where(data)}`.compile(qb),
  ];
}

/** Removes fields' values from every object of one type. */
function removalStatements(hosts: Map<string, Model>, type: string, names: readonly string[]): Statement[] {
  const paths = names.map(cfPath);
  return dataUpdate(
    hosts,
    type,
    (d) => sql`json_remove(${d}, ${sql.join(paths)})`,
    (d) =>
      sql`(${sql.join(
        paths.map((p) => sql`json_type(${d}, ${p}) IS NOT NULL`),
        sql` OR `,
      )})`,
  );
}

/** The rules of custom field definitions; `self` is the custom field model, whose registry holds the models they name. */
export const customFieldHooks = (self: () => Model): StatefulHooks<ChoiceSets> => ({
  initial: () => new Map(),
  // The choice sets named (by reference, or kept from the stored definition), to check defaults.
  writeProbes(ctx, items, choiceSets) {
    const wanted: RawBuilder<unknown>[] = [];
    for (const item of items) {
      const given = item.values.choice_set;
      if (isRef(given)) wanted.push(refSql(ctx, self().registry.get("extras.customfieldchoiceset"), given));
      else if (given === undefined && item.id !== null)
        wanted.push(sql`(SELECT choice_set_id FROM extras_customfield WHERE id = ${item.id})`);
    }
    if (!wanted.length) return [];
    return [
      {
        statement: sql`SELECT id, name, extra_choices FROM extras_customfieldchoiceset WHERE id IN (${sql.join(wanted)})`.compile(qb),
        settle: (r) => {
          for (const row of r.rows) {
            choiceSets.set(Number(row.id), {
              name: String(row.name),
              values: ((parsed(row.extra_choices) ?? []) as string[][]).map((pair) => pair[0]),
            });
          }
        },
      },
    ];
  },
  prepareWrite(_ctx, items, choiceSets) {
    for (const item of items) Object.assign(item.errors, definitionErrors(self().registry, item, choiceSets));
  },
  writeStatements: (_ctx, items) => items.flatMap((item) => dataStatements(self().registry, item)),
  // A deleted field's values leave every object, as NetBox removes stale data.
  deleteStatements(_ctx, rows) {
    const hosts = customFieldHosts(self().registry);
    const byType = new Map<string, string[]>();
    for (const row of rows) {
      const snapshot = parsed(row.__snapshot) as Out;
      for (const type of (snapshot.object_types ?? []) as string[]) byType.set(type, [...(byType.get(type) ?? []), String(snapshot.name)]);
    }
    return [...byType].flatMap(([type, names]) => removalStatements(hosts, type, names));
  },
});

/**
 * GET /api/extras/custom-field-choice-sets/<id>/choices/: the set's choices as `{id, display}`
 * (value and label), paginated, `q` matching either part (case-insensitive), as NetBox serves them to forms.
 */
async function listChoices(ctx: RouteContext, model: Model, id: number | null): Promise<Response> {
  const [result] = await readBatch(ctx, [
    sql`SELECT extra_choices FROM ${sql.table(model.table)} WHERE id = ${id} AND ${scopeSql(ctx, model, "view")}`.compile(qb),
  ]);
  if (!result.rows.length) throw ApiError.notFound(model.className);
  const q = (ctx.url.searchParams.get("q") ?? "").trim().toLowerCase();
  const pairs = ((parsed(result.rows[0].extra_choices) ?? []) as [string, string][]).filter(
    (pair) => !q || pair.some((part) => part.toLowerCase().includes(q)),
  );
  const page = parsePage(ctx.config, ctx.url.searchParams);
  const shown = pairs.slice(page.offset, page.limit === null ? undefined : page.offset + page.limit);
  return json(
    paginated(
      ctx.url,
      page,
      pairs.length,
      shown.map(([value, label]) => ({ id: value, display: label })),
    ),
  );
}

export const choicesRoute: RouteDeclaration = {
  name: "choices",
  detail: true,
  methods: ["GET"],
  summary: "The choice set's choices, as {id, display}: value and label.",
  permission: () => "view",
  handler: listChoices,
};
