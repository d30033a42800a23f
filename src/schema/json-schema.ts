import type { Field, Form, JsonSchema, Model, NestedShown } from "./shapes.ts";

/** What a kind's OpenAPI facet may ask of the document builder while it describes an output. */
export interface SchemaContext {
  /** The representation being described: choices read as `{value, label}` only in the full form. */
  readonly form: Form;
  /**
   * The schema of a related object read one level deeper (its nested form, or the fields named),
   * or null past the nesting limit, where the kind gives the bare id or nothing; with `display_url` when `page`.
   */
  related(model: Model, shown?: NestedShown): JsonSchema | null;
  /** The schema of an object nested at this same level (the members of an m2m set), with `display_url` when `page`. */
  member(model: Model, shown?: { readonly page?: boolean }): JsonSchema;
  /** Another field of the model being described (the field an alias mirrors). */
  sibling(name: string): Field;
}

/**
 * A kind's OpenAPI description: its output keys in a given form and its input keys, each with a
 * schema, derived from the same field options its input schema and renderer read.
 */
export interface OpenApiFacet {
  output(field: Field, sc: SchemaContext): Record<string, JsonSchema>;
  /** Absent when clients cannot write the kind; `sibling` gives another field of the model. */
  input?(field: Field, sibling: (name: string) => Field): Record<string, JsonSchema>;
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The schema or null. */
export function orNull(s: JsonSchema): JsonSchema {
  if (Array.isArray(s.enum)) return s.enum.includes(null) ? s : { ...s, enum: [...s.enum, null] };
  if (s.type === "null") return s;
  if (typeof s.type === "string") return { ...s, type: [s.type, "null"] };
  if (Array.isArray(s.type)) return s.type.includes("null") ? s : { ...s, type: [...s.type, "null"] };
  if (Object.keys(s).length === 0) return s;
  return { anyOf: [s, { type: "null" }] };
}

/** The schema, or null too when the field is nullable. */
export const nullableFor = (field: Field, s: JsonSchema): JsonSchema => (field.nullable ? orNull(s) : s);

/** An input string: its length, pattern and whether it may be blank, as the input schema checks them. */
export function stringInput(field: Field, { blankable = Boolean(field.blank) } = {}): JsonSchema {
  return {
    type: "string",
    ...(blankable ? {} : { minLength: 1 }),
    ...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
    ...(field.pattern ? { pattern: patternOf(field.pattern.regex, { blank: Boolean(field.blank) }) } : {}),
    ...(field.writeOnly ? { writeOnly: true } : {}),
  };
}

/**
 * A field's pattern as JSON Schema writes it: no flags (a case-insensitive one spells out both
 * cases), and an empty string allowed where the field may be blank, as the input schema checks
 * only non-empty values against it.
 */
function patternOf(regex: RegExp, { blank }: { readonly blank: boolean }): string {
  const source = regex.flags.includes("i") ? caseless(regex.source) : regex.source;
  return blank ? `^$|(?:${source})` : source;
}

const letter = (c: string | undefined) => c !== undefined && /[a-z]/i.test(c);
const swap = (s: string) => s.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

/** The source of a case-insensitive regex as one matching both cases without the flag. */
function caseless(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      out += c + source[++i];
    } else if (inClass) {
      if (c === "]") inClass = false;
      if (letter(c) && source[i + 1] === "-" && letter(source[i + 2])) {
        const range = source.slice(i, i + 3);
        out += range + swap(range);
        i += 2;
      } else {
        out += letter(c) ? c + swap(c) : c;
      }
    } else if (c === "[") {
      inClass = true;
      out += c;
    } else {
      out += letter(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
    }
  }
  return out;
}

/** An input number within the field's bounds. */
export const numberInput = (field: Field, type: "integer" | "number"): JsonSchema => ({
  type,
  ...(field.min !== undefined ? { minimum: field.min } : {}),
  ...(field.max !== undefined ? { maximum: field.max } : {}),
});

/** What describes the field to readers: its label and help text. */
export const described = (field: Field, s: JsonSchema): JsonSchema => (field.helpText ? { ...s, description: field.helpText } : s);

/** A related object as written: its id, or attributes that match exactly one object. */
export const RELATED_REFERENCE = "RelatedObjectReference";
