import type { JsonSchema, Form, NestedShown, Field, Model } from "../schema/shapes.ts";
import { isWritable, KINDS, mirrorOf } from "../schema/kinds/index.ts";
import { MAX_NESTING } from "../schema/kinds/limits.ts";
import { ref, RELATED_REFERENCE, type SchemaContext } from "../schema/json-schema.ts";

/** What an object schema describes: which fields, in which form, at which nesting level, with `display_url` or not. */
interface ObjectShape {
  readonly fields: readonly Field[];
  readonly form: Form;
  readonly level: number;
  readonly page?: boolean;
}

/**
 * The component schemas of the OpenAPI document, from the registry and the field kinds' OpenAPI
 * facets, named as NetBox names them: `Site` (full), `BriefSite` (`?brief=1`), `PaginatedSiteList`,
 * `WritableSiteRequest`, `PatchedWritableSiteRequest`. A nested form (an object inside another) is
 * `BriefSite` where it reads the same, else `NestedSite`; where the nesting limit turns a deeper
 * relation into its id, the variant is named by its level (`NestedSiteLevel3`). Response objects
 * are closed (`additionalProperties: false`) and list every key as required: the output is exactly
 * what the declarations say, so any drift fails validation.
 */
export function componentSchemas(models: readonly Model[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { ...COMMON_SCHEMAS };
  /** A model's nested variants by content, so equal shapes share one name. */
  const byContent = new Map<string, string>();
  const nestedRefs = new Map<string, JsonSchema>();
  const building = new Set<string>();

  const add = (name: string, schema: JsonSchema) => {
    if (schemas[name]) throw new Error(`OpenAPI: two component schemas named ${name}`);
    schemas[name] = schema;
  };

  /** The object schema of `fields` of `model` in `form` at nesting `level` (with `display_url` when `page`: by default in the full form). */
  function objectSchema(model: Model, { fields, form, level, page = form === "full" }: ObjectShape): JsonSchema {
    const sc: SchemaContext = {
      form,
      // What an object nested with its page nests by a foreign key carries its page too (serialize.ts).
      related: (target, shown) =>
        level >= MAX_NESTING
          ? null
          : nested(target, level + 1, form === "nested" && page && shown?.page !== false ? { ...shown, page: true } : shown),
      member: (target, shown) => nested(target, level, { page: shown?.page }),
      sibling: (name) => model.field[name],
    };
    const { display, ...first } = BASE_PROPERTIES;
    const properties: Record<string, JsonSchema> = { ...first, ...(page && !model.pageless ? { display_url: DISPLAY_URL } : {}), display };
    for (const field of fields) Object.assign(properties, KINDS[field.kind].openapi.output(field, sc));
    const optional = new Set<string>();
    // A model's `represent` hook shapes top-level objects only, never nested ones.
    const shape = form === "nested" ? undefined : model.hooks?.representShape;
    for (const [key, like] of Object.entries(shape?.adds ?? {})) if (properties[like]) properties[key] = properties[like];
    for (const key of shape?.mayOmit ?? []) optional.add(key);
    return { type: "object", additionalProperties: false, required: Object.keys(properties).filter((k) => !optional.has(k)), properties };
  }

  function brief(model: Model): void {
    const name = `Brief${model.className}`;
    if (schemas[name] || building.has(name)) return;
    building.add(name);
    const schema = objectSchema(model, { fields: model.briefFields, form: "brief", level: 0 });
    add(name, schema);
    byContent.set(`${model.objectType} ${JSON.stringify(schema)}`, name);
  }

  /** The nested form of `model` at `level` (or the fields named, inline; with `display_url` when `page`), as a reference. */
  function nested(model: Model, level: number, { fields: only, page = false }: NestedShown = {}): JsonSchema {
    if (only) return objectSchema(model, { fields: only, form: "nested", level, page });
    const key = `${model.objectType}@${level}${page ? "+page" : ""}`;
    const known = nestedRefs.get(key);
    if (known) return known;
    if (building.has(key)) throw new Error(`OpenAPI: ${model.objectType} nests itself at one level`);
    building.add(key);
    const schema = objectSchema(model, { fields: page ? model.pageNestedFields : model.nestedFields, form: "nested", level, page });
    const text = `${model.objectType} ${JSON.stringify(schema)}`;
    let name = byContent.get(text);
    if (!name) {
      name = schemas[`Nested${model.className}`] ? `Nested${model.className}Level${level}` : `Nested${model.className}`;
      add(name, schema);
      byContent.set(text, name);
    }
    const out = ref(name);
    nestedRefs.set(key, out);
    return out;
  }

  for (const model of models) {
    const x = model.className;
    brief(model);
    add(x, objectSchema(model, { fields: model.readableFields, form: "full", level: 0 }));
    add(`Paginated${x}List`, paginated(x));
    add(`PaginatedBrief${x}List`, paginated(`Brief${x}`));
    if (model.readOnly) continue;
    add(`Writable${x}Request`, requestSchema(model, { patched: false }));
    add(`PatchedWritable${x}Request`, requestSchema(model, { patched: true }));
  }
  return mergeVariants(schemas, models);
}

/**
 * A nested variant that reads the same as the model's brief form (or as an earlier variant) is
 * that one: its references are renamed until no two variants of a model are equal, so `Site`
 * nests `BriefRegion` as NetBox's document does wherever the shapes agree.
 */
function mergeVariants(schemas: Record<string, JsonSchema>, models: readonly Model[]): Record<string, JsonSchema> {
  const renamed = new Map<string, string>();
  const resolve = (name: string): string => (renamed.has(name) ? resolve(renamed.get(name)!) : name);
  const rewrite = (key: string, value: unknown) =>
    key === "$ref" && typeof value === "string" && value.startsWith(PREFIX) ? PREFIX + resolve(value.slice(PREFIX.length)) : value;
  const variants = models.map((m) => {
    const x = m.className;
    return [`Brief${x}`, ...Object.keys(schemas).filter((n) => n === `Nested${x}` || n.startsWith(`Nested${x}Level`))];
  });
  for (let changed = true; changed; ) {
    changed = false;
    for (const names of variants) {
      const seen = new Map<string, string>();
      for (const name of names) {
        if (renamed.has(name)) continue;
        const content = JSON.stringify(schemas[name], rewrite);
        const same = seen.get(content);
        if (same) {
          renamed.set(name, same);
          changed = true;
        } else {
          seen.set(content, name);
        }
      }
    }
  }
  for (const name of renamed.keys()) delete schemas[name];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === "object") {
      const o = x as Record<string, unknown>;
      if (typeof o.$ref === "string") o.$ref = rewrite("$ref", o.$ref);
      else Object.values(o).forEach(walk);
    }
  };
  walk(schemas);
  return schemas;
}

const PREFIX = "#/components/schemas/";

/** The keys every representation starts with. */
const BASE_PROPERTIES: Record<string, JsonSchema> = {
  id: { type: "integer" },
  url: { type: "string", format: "uri" },
  display: { type: "string" },
};

/** NetBox's `display_url`: the object's page for people (absolute; relative in webhooks). */
const DISPLAY_URL: JsonSchema = { type: "string", format: "uri", readOnly: true };

/** The list envelope (SPEC.md 4.4). */
const paginated = (item: string): JsonSchema => ({
  type: "object",
  additionalProperties: false,
  required: ["count", "next", "previous", "results"],
  properties: {
    count: { type: "integer", minimum: 0 },
    next: { type: ["string", "null"], format: "uri" },
    previous: { type: ["string", "null"], format: "uri" },
    results: { type: "array", items: ref(item) },
  },
});

/**
 * What a create or PUT (or, `patched`, a PATCH) accepts: every writable field under its input
 * keys, required as the input schema requires them. Unknown keys are ignored by the API, so the
 * object stays open.
 */
function requestSchema(model: Model, { patched }: { readonly patched: boolean }): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const sibling = (name: string) => model.field[name];
  for (const field of model.fields) {
    const input = KINDS[field.kind].openapi.input;
    // An alias is written like the field it mirrors, and never required: that field is.
    const alias = mirrorOf(field) !== undefined;
    const writable = isWritable(field) || (alias && !field.readOnly);
    if (!input || !writable) continue;
    const inputs = input(field, sibling);
    Object.assign(properties, inputs);
    if (field.required && !patched && !alias) required.push(...Object.keys(inputs));
  }
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

/** Schemas every operation shares: references, bulk ids and NetBox's error bodies. */
const COMMON_SCHEMAS: Record<string, JsonSchema> = {
  [RELATED_REFERENCE]: {
    description: 'A related object: its numeric id, or attributes that match exactly one object (`{"slug": "dc1"}`).',
    anyOf: [
      { type: "integer", minimum: 0 },
      { type: "object", minProperties: 1 },
    ],
  },
  ObjectId: { type: "object", required: ["id"], properties: { id: { type: "integer", minimum: 0 } } },
  Error: {
    description: "An error about the request as a whole.",
    type: "object",
    additionalProperties: false,
    required: ["detail"],
    properties: { detail: { type: "string" } },
  },
  FieldErrors: {
    description: "Messages by field name (`non_field_errors` for the object as a whole); nested for nested data.",
    type: "object",
    additionalProperties: {
      anyOf: [{ type: "array", items: { anyOf: [{ type: "string" }, ref("FieldErrors")] } }, ref("FieldErrors")],
    },
  },
  ValidationError: {
    description: "Field errors, a list of them aligned with a bulk request's items, or an error about the request.",
    anyOf: [ref("Error"), ref("FieldErrors"), { type: "array", items: ref("FieldErrors") }],
  },
};
