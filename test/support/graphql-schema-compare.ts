/**
 * NetBox 4.2's GraphQL schema against ours, by what introspection shows (issue 19): object types,
 * their fields (named type and list-ness; nullability apart) and arguments, input types (filters,
 * lookups) and their fields, unions and their members, scalars, enums, and the Query's fields and
 * arguments. Pure functions over two `GraphQLSchema`s; `test/graphql-schema.test.ts` prints and
 * pins the figures.
 */
import {
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";

/**
 * The categories, in the order the table prints them. Names are written `Type`, `Type.field`,
 * `Type.field(argument)`, `Input.field`, `Union|Member`, `Enum.VALUE`; the Query's as `Query.field`
 * and `Query.field(argument)`.
 */
export const CATEGORIES = [
  "object types",
  "object fields",
  "object field types",
  "object field arguments",
  "input types",
  "input fields",
  "input field types",
  "unions",
  "union members",
  "scalars",
  "enums",
  "enum values",
  "query fields",
  "query field types",
  "query arguments",
  "argument types",
  "nullability",
] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * One category's figure: how many of NetBox's we have (deliberate differences count as had), of all
 * NetBox's (the fields of a type we lack count in the total, but only the type is listed missing).
 * Type figures count what has NetBox's named type and list-ness (argument types: of object and
 * Query fields alike); nullability, of every field, argument and input field, what has its whole type.
 */
export interface CategoryFigure {
  category: Category;
  found: number;
  total: number;
  /** Counted as found because the table of deliberate differences names them. */
  deliberate: string[];
  /** NetBox's that we lack (what a missing type or field holds is not listed again). */
  missing: string[];
  /** For type figures: what differs, `DeviceType.site: NetBox [SiteType], ours SiteType`. */
  differing: string[];
}

/** What we have that NetBox's schema has not: not failures, listed (and matched with the table where it names them). */
export interface Additions {
  types: string[];
  fields: string[];
  arguments: string[];
  inputFields: string[];
  unionMembers: string[];
  enumValues: string[];
}

export interface SchemaComparison {
  figures: CategoryFigure[];
  additions: Additions;
  /** Additions the table of deliberate differences explains, with its reason. */
  explainedAdditions: { name: string; why: string }[];
}

/** A deliberate difference: a name or a pattern (`*` any run of characters), and why. */
export interface NamedDifference {
  what: string;
  why: string;
  /** Only in this category of the comparison (in every one when absent). */
  category?: Category;
  /**
   * Only where NetBox's and our types, as printed (`[SiteType!]!`), satisfy it: a difference of kind
   * rather than of name (relations nullable, counters `Int`). Applies to the type and nullability figures.
   */
  types?: (netbox: string, ours: string) => boolean;
}

/** Whether a name is one a difference's `what` names (`*` stands for any characters). */
export function namedBy(what: string, name: string): boolean {
  if (!what.includes("*")) return what === name;
  const pattern = what
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}$`).test(name);
}

/** The type with non-null wrappers removed: `[SiteType]` for `[SiteType!]!` (named type and list-ness). */
export function shapeOf(type: GraphQLType): string {
  if (isNonNullType(type)) return shapeOf(type.ofType);
  if (isListType(type)) return `[${shapeOf(type.ofType)}]`;
  return type.name;
}

const userTypes = (schema: GraphQLSchema): GraphQLNamedType[] =>
  Object.values(schema.getTypeMap())
    .filter((t) => !t.name.startsWith("__"))
    .sort((a, b) => a.name.localeCompare(b.name));

const BUILT_IN_SCALARS = new Set(["String", "Int", "Float", "Boolean", "ID"]);

/** Compares NetBox's schema with ours; `deliberate` names what counts as found although it differs. */
export function compareSchemas(netbox: GraphQLSchema, ours: GraphQLSchema, deliberate: readonly NamedDifference[]): SchemaComparison {
  const figures = new Map<Category, CategoryFigure>(
    CATEGORIES.map((category) => [category, { category, found: 0, total: 0, deliberate: [], missing: [], differing: [] }]),
  );
  /** The row naming `name` in `category` (with `types`, the two types); `anyCategory`: what holds a name (a type the table names). */
  const reason = (name: string, category?: Category, types?: [string, string], anyCategory = false) =>
    deliberate.find(
      (d) =>
        namedBy(d.what, name) &&
        (anyCategory || !d.category || d.category === category) &&
        (!d.types || (types !== undefined && d.types(types[0], types[1]))),
    );
  /**
   * Counts one of NetBox's names: found, deliberate (the table names it or what holds it), listed as
   * missing or differing, or (`listed` false: what holds it is missing, and is listed) only counted.
   */
  const count = (
    category: Category,
    name: string,
    present: boolean,
    options: { difference?: string; holder?: string; listed?: boolean; types?: [string, string] } = {},
  ) => {
    const f = figures.get(category)!;
    f.total++;
    if (present) f.found++;
    else if (reason(name, category, options.types) || (options.holder && reason(options.holder, undefined, undefined, true)))
      f.found++, f.deliberate.push(name);
    else if (options.listed === false) return;
    else if (options.difference) f.differing.push(options.difference);
    else f.missing.push(name);
  };
  /** The type figures of one field, argument or input field; `mine` undefined: it is missing (and listed as such). */
  const typed = (kind: Category, name: string, theirs: GraphQLType, mine: GraphQLType | undefined, holder: string) => {
    const difference = mine && `${name}: NetBox ${String(theirs)}, ours ${String(mine)}`;
    const types: [string, string] | undefined = mine && [String(theirs), String(mine)];
    const same = !!mine && shapeOf(theirs) === shapeOf(mine);
    count(kind, name, same, { difference, holder, listed: !!mine, types });
    count("nullability", name, same && String(theirs) === String(mine), { difference, holder, listed: same, types });
  };
  const additions: Additions = { types: [], fields: [], arguments: [], inputFields: [], unionMembers: [], enumValues: [] };

  const fieldsOf = (
    owner: string,
    theirs: Record<string, GraphQLField<unknown, unknown>>,
    mine: Record<string, GraphQLField<unknown, unknown>> | undefined,
    query: boolean,
  ) => {
    const [fields, types, args] = query
      ? (["query fields", "query field types", "query arguments"] as const)
      : (["object fields", "object field types", "object field arguments"] as const);
    for (const field of Object.values(theirs)) {
      const name = `${owner}.${field.name}`;
      const ourField = mine?.[field.name];
      count(fields, name, !!ourField, { holder: owner, listed: !!mine });
      typed(types, name, field.type, ourField?.type, owner);
      const ourArgs = new Map((ourField?.args ?? []).map((a) => [a.name, a]));
      for (const arg of field.args) {
        const argName = `${name}(${arg.name})`;
        const ourArg = ourArgs.get(arg.name);
        count(args, argName, !!ourArg, { holder: name, listed: !!ourField });
        typed("argument types", argName, arg.type, ourArg?.type, name);
      }
      const known = new Set(field.args.map((a) => a.name));
      for (const arg of ourArgs.keys()) if (!known.has(arg)) additions.arguments.push(`${name}(${arg})`);
    }
    for (const field of Object.keys(mine ?? {})) if (!(field in theirs)) additions.fields.push(`${owner}.${field}`);
  };

  const query = netbox.getQueryType();
  const ourQuery = ours.getQueryType();
  if (query) fieldsOf("Query", query.getFields(), ourQuery?.getFields(), true);

  const ourTypes = new Map(userTypes(ours).map((t) => [t.name, t]));
  for (const type of userTypes(netbox)) {
    if (type === query || type === netbox.getMutationType() || type === netbox.getSubscriptionType()) continue;
    const mine = ourTypes.get(type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      const have = !!mine && (isObjectType(mine) || isInterfaceType(mine));
      count("object types", type.name, have);
      fieldsOf(type.name, type.getFields(), have ? mine.getFields() : undefined, false);
    } else if (isInputObjectType(type)) {
      const have = !!mine && isInputObjectType(mine);
      count("input types", type.name, have);
      const ourFields: Record<string, GraphQLInputField> | undefined = have ? mine.getFields() : undefined;
      for (const field of Object.values(type.getFields())) {
        const name = `${type.name}.${field.name}`;
        count("input fields", name, !!ourFields?.[field.name], { holder: type.name, listed: have });
        typed("input field types", name, field.type, ourFields?.[field.name]?.type, type.name);
      }
      for (const field of Object.keys(ourFields ?? {}))
        if (!(field in type.getFields())) additions.inputFields.push(`${type.name}.${field}`);
    } else if (isUnionType(type)) {
      const have = !!mine && isUnionType(mine);
      count("unions", type.name, have);
      const members = new Set(have ? mine.getTypes().map((t) => t.name) : []);
      for (const member of type.getTypes())
        count("union members", `${type.name}|${member.name}`, members.has(member.name), { holder: type.name, listed: have });
      const theirs = new Set(type.getTypes().map((t) => t.name));
      for (const member of members) if (!theirs.has(member)) additions.unionMembers.push(`${type.name}|${member}`);
    } else if (isEnumType(type)) {
      const have = !!mine && isEnumType(mine);
      count("enums", type.name, have);
      const values = new Set(have ? mine.getValues().map((v) => v.name) : []);
      for (const value of type.getValues())
        count("enum values", `${type.name}.${value.name}`, values.has(value.name), { holder: type.name, listed: have });
      const theirs = new Set(type.getValues().map((v) => v.name));
      for (const value of values) if (!theirs.has(value)) additions.enumValues.push(`${type.name}.${value}`);
    } else if (isScalarType(type) && !BUILT_IN_SCALARS.has(type.name)) {
      count("scalars", type.name, !!mine && isScalarType(mine));
    }
  }
  const theirNames = new Set(Object.keys(netbox.getTypeMap()));
  for (const type of ourTypes.values())
    if (!theirNames.has(type.name) && type !== ourQuery && !BUILT_IN_SCALARS.has(type.name)) additions.types.push(type.name);

  const explainedAdditions: { name: string; why: string }[] = [];
  for (const list of Object.values(additions) as string[][])
    for (const name of list) {
      const row = deliberate.find((d) => !d.types && namedBy(d.what, name));
      if (row) explainedAdditions.push({ name, why: row.why });
    }
  return { figures: [...figures.values()], additions, explainedAdditions };
}

const percent = (found: number, total: number) => (total ? `${((100 * found) / total).toFixed(1)} %` : "-");

/** The figures as a fixed-width text table, one line per category. */
export function schemaTable(figures: CategoryFigure[]): string {
  const head = `${"category".padEnd(24)}${"found".padStart(7)}${"NetBox".padStart(8)}${"%".padStart(9)}${"deliberate".padStart(12)}`;
  const line = (f: CategoryFigure) =>
    `${f.category.padEnd(24)}${String(f.found).padStart(7)}${String(f.total).padStart(8)}${percent(f.found, f.total).padStart(9)}${String(
      f.deliberate.length,
    ).padStart(12)}`;
  return [head, ...figures.map(line)].join("\n");
}

/** NetBox's types (object and input) whose absence or differences weigh most: how many of their names are missing or differ. */
export function biggestGaps(figures: CategoryFigure[], top: number): { type: string; gaps: number }[] {
  const perType = new Map<string, number>();
  for (const f of figures)
    for (const name of [...f.missing, ...f.differing.map((d) => d.split(":")[0])]) {
      const type = name.split(/[.|(]/)[0];
      perType.set(type, (perType.get(type) ?? 0) + 1);
    }
  return [...perType.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([type, gaps]) => ({ type, gaps }));
}
