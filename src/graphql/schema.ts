import type { Field, Model, Registry } from "../schema/shapes.ts";
import {
  GraphQLBoolean,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLID,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  valueFromASTUntyped,
} from "graphql";
import { sql, type RawBuilder } from "kysely";
import { KINDS } from "../schema/kinds/index.ts";
import { BUILTIN_FILTERS, filterParameters } from "../engine/filters.ts";
import { nameableModels, selectContext } from "../engine/select.ts";
import { filterName, queryNames, relatedName, typeName, unionName } from "./names.ts";
import { definedFor } from "../schema/custom-field-types.ts";

type Sql = RawBuilder<unknown>;

/*
 * NetBox's GraphQL schema, derived from the registry: every model a type (`SiteType`) with its
 * fields, its relations and the relations pointing at it, a filter input (`SiteFilter`) and two
 * query fields (`site(id:)`, `site_list(filters:)`). Beside each GraphQL field the schema keeps
 * how SQL reads it (`Reading`), so a query compiles into one statement (compile.ts).
 */

/** How the compiler reads one GraphQL field of a model's type, from the row under `outer`. */
export type Reading =
  /** A value, as SQL giving its JSON (a boolean as JSON true or false, an id as text). */
  | {
      readonly kind: "value";
      readonly sql: (outer: string, depth: number) => Sql;
      readonly finish?: (value: unknown) => unknown;
      /** SQL over the row's own columns, no subquery: a selection of such values is built where the row is read. */
      readonly plain?: boolean;
    }
  /**
   * One related row: the rows of `model` under `inner` that `where` relates to `outer` (the
   * first); or, with `id`, the row whose id is in the JSON object SQL gives for the row, at
   * `path` (a port's cable, nested by its field's SQL).
   */
  | {
      readonly kind: "object";
      readonly model: Model;
      readonly where: (inner: string, outer: string) => Sql;
      readonly id?: { readonly sql: (outer: string) => Sql; readonly path: string };
    }
  /** Related rows, in the model's order, filtered as asked. */
  | { readonly kind: "list"; readonly model: Model; readonly where: (inner: string, outer: string) => Sql }
  /** A generic relation: the object of the model `type` names, with id `id`. */
  | {
      readonly kind: "union";
      readonly members: readonly Model[];
      readonly type: (outer: string) => Sql;
      readonly id: (outer: string) => Sql;
    }
  /**
   * Objects of several models, as SQL giving a JSON array of nested objects carrying `__type` and
   * `id` (a port's link peers), or of `{object_type, object_id}` (a cable's ends).
   */
  | {
      readonly kind: "unionList";
      readonly members: readonly Model[];
      /** SQL giving JSON over the row, and the path of the array in it (a value several fields share). */
      readonly sql: (outer: string, depth: number) => Sql;
      readonly path: string;
    }
  /** An object of values of the row itself (an object type's `app_label` and `model`), null when `present` is not. */
  | {
      readonly kind: "embedded";
      readonly present: (outer: string) => Sql;
      readonly fields: ReadonlyMap<string, (outer: string) => Sql>;
    };

/** How one field of a filter input filters. */
export type FilterSpec =
  /** A lookup input (`{starts_with: "dc"}`) on the SQL of a value. */
  | { readonly kind: "lookup"; readonly column: (alias: string) => Sql; readonly type: LookupType }
  /** The REST filter of that name, given the value or values (`site: ["dc1"]`, `has_primary_ip: true`). */
  | { readonly kind: "param"; readonly name: string };

type LookupType = "ID" | "Str" | "Int" | "Float" | "Decimal" | "Date" | "Datetime";

/** The GraphQL schema with what the compiler needs of it. */
export interface GraphSchema {
  readonly schema: GraphQLSchema;
  readonly registry: Registry;
  /** The model of each object type. */
  readonly models: ReadonlyMap<string, Model>;
  /** How each field of each model's type reads, by type name then field name. */
  readonly readings: ReadonlyMap<string, ReadonlyMap<string, Reading>>;
  /** How each field of each filter input filters, by input name then field name. */
  readonly filters: ReadonlyMap<string, ReadonlyMap<string, FilterSpec>>;
  /** The root fields: the model each serves, and whether it lists. */
  readonly roots: ReadonlyMap<string, { readonly model: Model; readonly list: boolean }>;
}

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** A boolean stored as 0/1, as JSON true or false. */
export const jsonBoolean = (x: Sql): Sql => sql`CASE WHEN ${x} IS NULL THEN NULL WHEN ${x} THEN json('true') ELSE json('false') END`;

const scalar = (name: string, description: string, parse: (v: unknown) => unknown = (v) => v) =>
  new GraphQLScalarType({
    name,
    description,
    serialize: (v) => v,
    parseValue: parse,
    parseLiteral: (node, variables) => parse(valueFromASTUntyped(node, variables)),
  });

const JSONScalar = scalar(
  "JSON",
  "The `JSON` scalar type represents JSON values as specified by [ECMA-404](https://ecma-international.org/wp-content/uploads/ECMA-404_2nd_edition_december_2017.pdf).",
);
const DateTimeScalar = scalar("DateTime", "Date with time (isoformat)", String);
const DateScalar = scalar("Date", "Date (isoformat)", String);
const DecimalScalar = scalar("Decimal", "Decimal (fixed-point)", String);

const LOOKUP_OPS = [
  "exact",
  "i_exact",
  "contains",
  "i_contains",
  "in_list",
  "gt",
  "gte",
  "lt",
  "lte",
  "starts_with",
  "i_starts_with",
  "ends_with",
  "i_ends_with",
  "range",
  "is_null",
  "regex",
  "i_regex",
] as const;

const lookupInput = (name: LookupType, of: GraphQLInputType) =>
  new GraphQLInputObjectType({
    name: `${name}FilterLookup`,
    fields: () =>
      Object.fromEntries(
        LOOKUP_OPS.map((op) => [
          op,
          {
            type:
              op === "in_list" || op === "range"
                ? new GraphQLList(new GraphQLNonNull(of))
                : op === "is_null"
                  ? GraphQLBoolean
                  : op === "regex" || op === "i_regex"
                    ? GraphQLString
                    : of,
          },
        ]),
      ),
  });

/** A model named by its `app.model` (NetBox's content types). */
const ContentTypeType = new GraphQLObjectType({
  name: "ContentTypeType",
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID) },
    app_label: { type: new GraphQLNonNull(GraphQLString) },
    model: { type: new GraphQLNonNull(GraphQLString) },
  },
});

/** The content type of the model `type` names, as SQL giving `app.model`. */
function contentTypeReading(type: (outer: string) => Sql): Reading {
  const dot = (o: string) => sql`instr(${type(o)}, '.')`;
  const app = (o: string) => sql`substr(${type(o)}, 1, ${dot(o)} - 1)`;
  const model = (o: string) => sql`substr(${type(o)}, ${dot(o)} + 1)`;
  return {
    kind: "embedded",
    present: type,
    fields: new Map([
      [
        "id",
        (o: string) => sql`(SELECT CAST(id AS TEXT) FROM extras_objecttype ot WHERE ot.app_label = ${app(o)} AND ot.model = ${model(o)})`,
      ],
      ["app_label", app],
      ["model", model],
    ]),
  };
}

/** An address family as NetBox's GraphQL gives it: `{value: 4, label: "IPv4"}`. */
const IPAddressFamilyType = new GraphQLObjectType({
  name: "IPAddressFamilyType",
  fields: { value: { type: new GraphQLNonNull(GraphQLInt) }, label: { type: new GraphQLNonNull(GraphQLString) } },
});

/** Paging of a list, NetBox 4.3's argument (4.2 has none). */
export const PaginationInput = new GraphQLInputObjectType({
  name: "OffsetPaginationInput",
  fields: { offset: { type: GraphQLInt, defaultValue: 0 }, limit: { type: GraphQLInt, defaultValue: -1 } },
});

/** The value's SQL for a GraphQL scalar of a stored field, or null for a kind GraphQL does not show. */
function scalarOf(field: Field, registry: Registry): { type: GraphQLOutputType; reading: Reading } | null {
  const col = field.column;
  const nn = (t: GraphQLOutputType) => (field.nullable || field.kind === "datetime" ? t : new GraphQLNonNull(t));
  const value = (type: GraphQLOutputType, read: (outer: string) => Sql) => ({
    type,
    reading: { kind: "value", sql: (outer: string) => read(outer), plain: true } as Reading,
  });
  switch (field.kind) {
    case "string":
    case "text":
    case "slug":
      return col ? value(nn(GraphQLString), (o) => ref(o, col)) : null;
    case "network":
      return value(nn(GraphQLString), (o) => ref(o, field.name));
    case "choice": {
      if (!col) return null;
      const choices = field.choices ?? [];
      // Numbers older releases stored (a VLAN's status 1) read as NetBox's names for them ("active").
      const named =
        choices.length > 0 && choices.every((c) => typeof c.value === "number" && c.accepts?.some((a) => typeof a === "string"));
      if (named) {
        const names = sql.join(
          choices.map((c) => sql`WHEN ${c.value} THEN ${c.accepts!.find((a) => typeof a === "string")}`),
          sql` `,
        );
        return value(nn(GraphQLString), (o) => sql`CASE ${ref(o, col)} ${names} END`);
      }
      const numeric = choices.every((c) => typeof c.value === "number");
      return value(nn(numeric ? GraphQLInt : GraphQLString), (o) => sql`nullif(${ref(o, col)}, '')`);
    }
    case "integer":
    case "counter":
      return col ? value(nn(GraphQLInt), (o) => ref(o, col)) : null;
    case "float":
      if (!col) return null;
      // NetBox's decimals are strings with their places (`"2.00"`).
      return value(nn(DecimalScalar), (o) =>
        field.decimalPlaces !== undefined
          ? sql`CASE WHEN ${ref(o, col)} IS NOT NULL THEN printf(${`%.${field.decimalPlaces}f`}, ${ref(o, col)}) END`
          : sql`CAST(${ref(o, col)} AS TEXT)`,
      );
    case "boolean":
      return col ? value(nn(GraphQLBoolean), (o) => jsonBoolean(ref(o, col))) : null;
    case "date":
      return col ? value(nn(DateScalar), (o) => ref(o, col)) : null;
    case "datetime":
      return col ? value(DateTimeScalar, (o) => sql`replace(${ref(o, col)}, 'Z', '+00:00')`) : null;
    case "json":
      return col ? value(field.nullable ? JSONScalar : new GraphQLNonNull(JSONScalar), (o) => sql`json(${ref(o, col)})`) : null;
    case "stringList":
    case "ipList":
      return col ? value(new GraphQLList(new GraphQLNonNull(GraphQLString)), (o) => sql`json(${ref(o, col)})`) : null;
    case "integerList":
      return col ? value(new GraphQLList(new GraphQLNonNull(GraphQLInt)), (o) => sql`json(${ref(o, col)})`) : null;
    case "count":
      return {
        type: new GraphQLNonNull(GraphQLInt),
        reading: {
          kind: "value",
          sql: (o, depth) => KINDS.count.read!.select(field, o, selectContext(registry, depth))!,
        },
      };
    default:
      return null;
  }
}

/** Builds the schema of a registry once; it depends on nothing else. */
export function buildGraphSchema(registry: Registry): GraphSchema {
  const models = nameableModels(registry).filter((m) => !m.objectType.startsWith("users.token"));
  const shown = new Set(models);
  const types = new Map<Model, GraphQLObjectType>();
  const filterInputs = new Map<Model, GraphQLInputObjectType>();
  const readings = new Map<string, Map<string, Reading>>();
  const filters = new Map<string, Map<string, FilterSpec>>();
  const unions = new Map<string, GraphQLUnionType>();
  const lookups = new Map<LookupType, GraphQLInputObjectType>();
  const lookupOf = (t: LookupType) => {
    let input = lookups.get(t);
    if (!input) {
      const of = {
        ID: GraphQLID,
        Str: GraphQLString,
        Int: GraphQLInt,
        Float: GraphQLFloat,
        Decimal: DecimalScalar,
        Date: DateScalar,
        Datetime: DateTimeScalar,
      }[t];
      lookups.set(t, (input = lookupInput(t, of)));
    }
    return input;
  };

  const unionOf = (name: string, members: readonly Model[]) => {
    let union = unions.get(name);
    if (!union) {
      union = new GraphQLUnionType({
        name,
        types: () => members.filter((m) => shown.has(m)).map((m) => types.get(m)!),
        resolveType: (value: { __typename?: string }) => value.__typename,
      });
      unions.set(name, union);
    }
    return union;
  };

  const listArgs = (target: Model) => ({ filters: { type: filterInputs.get(target)! }, pagination: { type: PaginationInput } });

  for (const model of models) {
    const reads = new Map<string, Reading>();
    readings.set(typeName(model), reads);
    types.set(
      model,
      new GraphQLObjectType({
        name: typeName(model),
        fields: () => {
          const out: GraphQLFieldConfigMap<unknown, unknown> = {};
          const add = (name: string, type: GraphQLOutputType, reading: Reading, args?: ReturnType<typeof listArgs>) => {
            if (out[name]) return;
            out[name] = args ? { type, args } : { type };
            reads.set(name, reading);
          };
          add("id", new GraphQLNonNull(GraphQLID), { kind: "value", sql: (o) => sql`CAST(${ref(o, "id")} AS TEXT)`, plain: true });
          add("display", new GraphQLNonNull(GraphQLString), { kind: "value", sql: (o) => model.displaySql(o) });
          add("class_type", new GraphQLNonNull(GraphQLString), { kind: "value", sql: () => sql.lit(model.className), plain: true });
          for (const field of model.readableFields) addField(model, field, add);
          for (const [name, relation] of reverseRelations(model)) {
            if (out[name] || !shown.has(relation.model)) continue;
            if (relation.reading.kind === "object") add(name, types.get(relation.model)!, relation.reading);
            else
              add(
                name,
                new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(types.get(relation.model)!))),
                relation.reading,
                listArgs(relation.model),
              );
          }
          return out;
        },
      }),
    );
  }

  /** Adds the GraphQL field(s) of one declared field. */
  function addField(
    model: Model,
    field: Field,
    add: (name: string, type: GraphQLOutputType, reading: Reading, args?: ReturnType<typeof listArgs>) => void,
  ): void {
    if (field.writeOnly || field.kind === "password" || field.kind === "alias") return;
    const target = field.target?.();
    if (field.kind === "fk" && target) {
      if (!shown.has(target)) return;
      const id = (o: string) => (field.sql ? field.sql(o) : ref(o, field.column!));
      add(field.name, types.get(target)!, { kind: "object", model: target, where: (i, o) => sql`${ref(i, "id")} = ${id(o)}` });
      return;
    }
    if (field.kind === "m2m" && target) {
      if (!shown.has(target)) return;
      const walk = KINDS.m2m.walk!;
      add(
        field.name,
        new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(types.get(target)!))),
        {
          kind: "list",
          model: target,
          where: (i, o) => sql`${ref(i, "id")} IN (${walk.targetIds(field, { owner: model, alias: "th", table: o, owners: null })})`,
        },
        listArgs(target),
      );
      return;
    }
    if (field.kind === "reverse" && target) {
      if (!shown.has(target)) return;
      const of = field.reverseOf!;
      add(field.name, types.get(target)!, {
        kind: "object",
        model: target,
        where: (i, o) =>
          sql.join(
            [
              sql`${ref(i, target.field[of.field].column!)} = ${ref(o, "id")}`,
              ...Object.entries(of.where).map(([column, value]) => sql`${ref(i, column)} = ${value}`),
            ],
            sql` AND `,
          ),
      });
      return;
    }
    if (field.kind === "generic") {
      const members = (field.targets?.() ?? []).filter((m) => shown.has(m));
      if (!members.length) return;
      const type = (o: string) => ref(o, `${field.name}_type`);
      add(field.name, unionOf(unionName(model, field), members), { kind: "union", members, type, id: (o) => ref(o, `${field.name}_id`) });
      add(`${field.name}_type`, ContentTypeType, contentTypeReading(type));
      add(`${field.name}_id`, GraphQLInt, { kind: "value", sql: (o) => ref(o, `${field.name}_id`), plain: true });
      return;
    }
    if (field.kind === "customFields") {
      // Every custom field of the model by name, null where the object has no value (NetBox's stored data).
      const data = (o: string) =>
        sql`json((SELECT json_group_object(cf.name, ${ref(o, field.column!)} -> ('$."' || cf.name || '"')) FROM extras_customfield cf
          WHERE ${definedFor(field.ownerType, "cf")}))`;
      add("custom_fields", new GraphQLNonNull(JSONScalar), { kind: "value", sql: data });
      add("custom_field_data", new GraphQLNonNull(JSONScalar), { kind: "value", sql: data });
      return;
    }
    if (field.kind === "computed") {
      // A value several fields share is one JSON object: each reads its member (at `path`).
      const scope = (depth: number) => ({ ownerType: field.ownerType, sc: selectContext(model.registry, depth) });
      const raw = (o: string, depth: number) => KINDS.computed.read!.select(field, o, selectContext(model.registry, depth))!;
      // Related objects are read again by id: what the field relates to is enough, where it says so.
      const refs = field.refs;
      const related = refs ? (o: string, depth: number) => refs(o, scope(depth)) : raw;
      const path = field.sharedAs && !refs ? `$.${field.name}` : "$";
      const select = (o: string, depth: number) => (field.sharedAs ? sql`json_extract(${raw(o, depth)}, ${path})` : raw(o, depth));
      if (field.returns === "nested" && target) {
        // One object of a known model, nested by the field's SQL: read again by its id.
        if (!shown.has(target)) return;
        add(field.name, types.get(target)!, {
          kind: "object",
          model: target,
          where: (i, o) => sql`${ref(i, "id")} = json_extract(${select(o, 1)}, '$.id')`,
          id: { sql: (o) => related(o, 1), path: `${path}.id` },
        });
        return;
      }
      if (field.returns === "nested") {
        const members = cabledModels(model.registry).filter((m) => shown.has(m));
        const union = unionOf(unionName(model, field), members);
        add(field.name, new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(union))), { kind: "unionList", members, sql: related, path });
        return;
      }
      const [type, read]: [GraphQLOutputType, (x: Sql) => Sql] =
        field.returns === "boolean"
          ? [GraphQLBoolean, jsonBoolean]
          : field.returns === "json"
            ? [JSONScalar, (x) => sql`json(${x})`]
            : field.returns === "integer"
              ? [GraphQLInt, (x) => x]
              : field.returns === "number"
                ? [GraphQLFloat, (x) => x]
                : [GraphQLString, (x) => x];
      add(field.name, type, { kind: "value", sql: (o, depth) => read(select(o, depth)), ...(field.finish && { finish: field.finish }) });
      return;
    }
    if (field.kind === "choice" && field.name === "family" && field.column) {
      const col = field.column;
      const labels = sql.join(
        field.choices!.map((c) => sql`WHEN ${c.value} THEN ${c.label}`),
        sql` `,
      );
      add("family", IPAddressFamilyType, {
        kind: "embedded",
        present: (o) => ref(o, col),
        fields: new Map([
          ["value", (o: string) => ref(o, col)],
          ["label", (o: string) => sql`CASE ${ref(o, col)} ${labels} END`],
        ]),
      });
      return;
    }
    if (field.name === "vid_ranges" && field.kind === "json" && field.column) {
      // Ranges as NetBox's PostgreSQL prints them: `[100, 200)` for 100-199.
      const col = field.column;
      add("vid_ranges", new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))), {
        kind: "value",
        sql: (o) =>
          sql`json((SELECT json_group_array('[' || (r.value ->> '$[0]') || ', ' || ((r.value ->> '$[1]') + 1) || ')') FROM json_each(${ref(o, col)}) r))`,
      });
      return;
    }
    const value = scalarOf(field, model.registry);
    if (value) add(field.name, value.type, value.reading);
  }

  /** The relations pointing at a model, by the name NetBox gives them on it. */
  function reverseRelations(model: Model): Map<string, { model: Model; reading: Reading }> {
    const out = new Map<string, { model: Model; reading: Reading }>();
    for (const { model: owner, field } of model.registry.referencesTo(model)) {
      if (!shown.has(owner) || field.writeOnly) continue;
      const name = relatedName(owner, field);
      if (out.has(name)) continue;
      if (field.kind === "fk" && field.column) {
        // A unique fk is one-to-one: its reverse is one object (a device's `parent_bay`, `vc_master_for`).
        const where = (i: string, o: string) => sql`${ref(i, field.column!)} = ${ref(o, "id")}`;
        out.set(name, { model: owner, reading: { kind: field.unique ? "object" : "list", model: owner, where } });
      } else if (field.kind === "generic") {
        out.set(name, {
          model: owner,
          reading: {
            kind: "list",
            model: owner,
            where: (i, o) => sql`${ref(i, `${field.name}_type`)} = ${model.objectType} AND ${ref(i, `${field.name}_id`)} = ${ref(o, "id")}`,
          },
        });
      }
    }
    // Sets of other models that hold this one (a config context's sites).
    for (const owner of models) {
      for (const field of owner.fields) {
        if (field.kind !== "m2m" || field.target?.() !== model || field.name === "tags") continue;
        const name = relatedName(owner, field);
        if (out.has(name)) continue;
        const where = (i: string, o: string) => KINDS.m2m.walk!.matchIds(field, i, sql`(${ref(o, "id")})`);
        out.set(name, { model: owner, reading: { kind: "list", model: owner, where } });
      }
    }
    return out;
  }

  for (const model of models) {
    const specs = new Map<string, FilterSpec>();
    filters.set(filterName(model), specs);
    filterInputs.set(
      model,
      new GraphQLInputObjectType({
        name: filterName(model),
        fields: (): GraphQLInputFieldConfigMap => {
          const out: GraphQLInputFieldConfigMap = {};
          for (const p of filterParameters(model)) {
            if (p.name !== p.filter || out[p.name]) continue;
            const spec = filterSpecOf(p);
            specs.set(p.name, spec.spec);
            out[p.name] = { type: spec.type };
          }
          // An address or prefix filters by the text of its value (`prefix: {starts_with: "10.1."}`), as NetBox's.
          for (const field of model.fields.filter((f) => f.kind === "network")) {
            specs.set(field.name, { kind: "lookup", column: (a) => ref(a, field.name), type: "Str" });
            out[field.name] = { type: lookupOf("Str") };
          }
          for (const name of BUILTIN_FILTERS) {
            out[name] = { type: GraphQLString };
            specs.set(name, { kind: "param", name });
          }
          for (const name of ["AND", "OR", "NOT"]) out[name] = { type: filterInputs.get(model)! };
          out.DISTINCT = { type: GraphQLBoolean };
          return out;
        },
      }),
    );
  }

  function filterSpecOf(p: ReturnType<typeof filterParameters>[number]): { spec: FilterSpec; type: GraphQLInputType } {
    const param = { spec: { kind: "param", name: p.name } as FilterSpec };
    const strings = new GraphQLList(new GraphQLNonNull(GraphQLString));
    const v = p.value;
    if ("sql" in v) return { ...param, type: v.boolean ? GraphQLBoolean : strings };
    if ("relation" in v) return { ...param, type: strings };
    if (v.field === "id") {
      if (v.family !== "number") return { ...param, type: strings };
      return { spec: { kind: "lookup", column: (a) => ref(a, "id"), type: "ID" }, type: lookupOf("ID") };
    }
    const field = v.field;
    if (v.family === "boolean") return { ...param, type: GraphQLBoolean };
    if (v.family === "choice")
      return { ...param, type: field.choices?.every((c) => typeof c.value === "number" && !c.accepts) ? GraphQLInt : GraphQLString };
    const column = field.kind === "network" ? field.name : field.column;
    const type: LookupType | null =
      field.kind === "integer"
        ? "Int"
        : field.kind === "float"
          ? "Decimal"
          : field.kind === "date"
            ? "Date"
            : field.kind === "datetime"
              ? "Datetime"
              : v.family === "text"
                ? "Str"
                : null;
    if (!column || !type) return { ...param, type: v.family === "number" ? GraphQLInt : strings };
    return { spec: { kind: "lookup", column: (a) => ref(a, column), type }, type: lookupOf(type) };
  }

  const names = queryNames(models);
  const roots = new Map<string, { model: Model; list: boolean }>();
  const query: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const model of models) {
    const name = names.get(model)!;
    query[name] = { type: new GraphQLNonNull(types.get(model)!), args: { id: { type: new GraphQLNonNull(GraphQLID) } } };
    query[`${name}_list`] = { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(types.get(model)!))), args: listArgs(model) };
    roots.set(name, { model, list: false });
    roots.set(`${name}_list`, { model, list: true });
  }
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: query }),
    types: [...types.values()],
  });
  // Resolve every thunk now, so the maps above are complete before the first query.
  schema.getTypeMap();
  for (const t of types.values()) t.getFields();
  for (const t of filterInputs.values()) t.getFields();
  const byName = new Map([...types].map(([m, t]) => [t.name, m]));
  return { schema, registry, models: byName, readings, filters, roots };
}

/** The models a cable can end at, or a path pass through: every model with a `cable` field, and what those link to. */
const cabledModels = (registry: Registry): Model[] =>
  registry.models.filter((m) => m.field.cable?.kind === "fk" || m.field.cable?.kind === "computed");
