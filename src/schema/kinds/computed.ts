import type { JsonSchema, Field } from "../shapes.ts";
import * as v from "valibot";
import { sql } from "kysely";
import { described, orNull } from "../json-schema.ts";
import type { KindDescriptor, KindOf, Out, RenderContext, Sql } from "./descriptor.ts";
import { booleanFinal, info, none, parsed } from "./outputs.ts";
import { relationParams } from "./relations.ts";

/** The kinds read by SQL or through another field: computed and alias. */

/** What a computed value reads as, by its `returns`; a plain one is whatever SQLite gives. */
const COMPUTED_SCHEMAS: Record<NonNullable<Field["returns"]> | "scalar", JsonSchema> = {
  boolean: { type: "boolean" },
  integer: { type: "integer" },
  number: { type: "number" },
  string: { type: "string" },
  json: {},
  nested: {},
  scalar: { type: ["string", "number"] },
};

/** JSON whose objects carrying `__type` become that model's nested form, at any depth. */
function embeddedNested(raw: unknown, rc: RenderContext): unknown {
  if (Array.isArray(raw)) return raw.map((x) => embeddedNested(x, rc));
  if (!raw || typeof raw !== "object") return raw;
  const o = raw as Out;
  if (typeof o.__type === "string") return rc.nestedOf(o.__type, o);
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, embeddedNested(x, rc)]));
}

/**
 * Whether JavaScript makes a computed field's value from what its SQL gives (a value shared with
 * other fields, finished alone or over the page, or holding nested objects) rather than SQL writing
 * it final: final-json.ts leaves such a field a hole.
 */
export const madeInJavaScript = (field: Field): boolean =>
  !field.finalSql && Boolean(field.sharedAs || field.finish || field.finishPage || field.returns === "nested");

/** A value computed by the field's SQL, written only through a declared `input` schema. */
export const computedKind: KindDescriptor = {
  // Only a computed field declared with an `input` schema (and not read-only) is writable.
  input: { inputs: (field) => ({ [field.name]: field.input ?? v.never() }) },
  read: { select: (field, table, sc) => field.sql!(table, { ownerType: field.ownerType, sc }) },
  render: (field, row, out, rc) => {
    const raw = (field.sharedAs ? (parsed(row[field.sharedAs]) as Out | null)?.[field.name] : row[field.name]) ?? null;
    if (raw === null) out[field.name] = null;
    else if (field.returns === "boolean") out[field.name] = Boolean(raw);
    else if (field.returns === "json") out[field.name] = parsed(raw);
    else if (field.returns === "nested") out[field.name] = embeddedNested(parsed(raw), rc);
    else out[field.name] = raw;
    if (field.finish) out[field.name] = field.finish(out[field.name]);
  },
  // As `render` gives it, where that takes no JavaScript (`madeInJavaScript`), or as the field's own `finalSql` writes it.
  final: (field, table, fc) => {
    if (field.finalSql) {
      const written = field.finalSql(table, { ownerType: field.ownerType, fc });
      return written && [[field.name, written]];
    }
    if (madeInJavaScript(field)) return null;
    const raw = field.sql!(table, { ownerType: field.ownerType, sc: fc.select });
    if (field.returns === "boolean") return [[field.name, booleanFinal(raw)]];
    // jsonb(NULL) is NULL: the value is read once.
    if (field.returns === "json") return [[field.name, sql`jsonb(${raw})`]];
    return [[field.name, raw]];
  },
  options: (field) => ({ [field.name]: info(field, "field") }),
  openapi: {
    output: (field) => ({ [field.name]: described(field, orNull(COMPUTED_SCHEMAS[field.returns ?? "scalar"])) }),
    // What the declared `input` schema accepts is the model's to say; the document names the key.
    input: (field) => ({ [field.name]: described(field, {}) }),
  },
  snapshot: none,
};

/** Another name for a field of the model; `kindOf` gives the mirrored field's OpenAPI. */
export const aliasKind = (kindOf: KindOf): KindDescriptor => ({
  mirrors: (field) => field.aliasOf!,
  // Filtered like the relation it mirrors.
  // An alias of a relation filters as it does (`device_role_id`); an alias of a value only reads and writes.
  filter: {
    lookups: null,
    params: (field, model) => {
      const target = model.field[field.aliasOf!];
      return target.kind === "fk" ? relationParams(field.name, target, { tree: false }) : [];
    },
  },
  // Written like its target: `parseInput` moves an alias's value to the field it mirrors.
  render: (field, _row, out) => void (out[field.name] = out[field.aliasOf!]),
  final: (field, table, fc) => {
    const target = fc.select.byType(field.ownerType)?.field[field.aliasOf!];
    const written = target && kindOf(target.kind).final?.(target, table, fc);
    return written ? written.map(([key, value]) => [key === target.name ? field.name : key, value] as [string, Sql]) : null;
  },
  options: (field) => ({ [field.name]: info(field, "nested object") }),
  openapi: {
    output: (field, sc) => {
      const target = sc.sibling(field.aliasOf!);
      return {
        [field.name]: { ...kindOf(target.kind).openapi.output(target, sc)[target.name], description: `Another name for ${target.name}.` },
      };
    },
    // Written like the field it mirrors, when that one is not given.
    input: (field, sibling) => {
      const target = sibling(field.aliasOf!);
      const inputs = kindOf(target.kind).openapi.input?.(target, sibling) ?? {};
      return { [field.name]: { ...inputs[target.name], deprecated: true, description: `Another name for ${target.name}.` } };
    },
  },
  snapshot: none,
});
