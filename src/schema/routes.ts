import type { JsonSchema } from "./shapes.ts";

/** A body that is one object or a list of them (allocation, bulk creation). */
export const oneOrMany = (item: JsonSchema): JsonSchema => ({ anyOf: [item, { type: "array", items: item }] });

/** A closed object schema: every property named is required and nothing else may appear. */
export const closedObject = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: "object",
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
