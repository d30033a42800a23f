import type { Action, Actor } from "./actor.ts";
import type { Model } from "./model.ts";
import type { JsonSchema } from "./json-schema.ts";

/**
 * What a declared route's handler is given: the requester as an actor, the request's method, its
 * URL (for the route's query parameters and page links) and its body read as JSON (415 for
 * another type, 400 for bad JSON, undefined when empty).
 */
export interface RouteContext extends Actor {
  readonly method: string;
  readonly url: URL;
  readonly json: () => Promise<unknown>;
}

/**
 * An endpoint a model declares beyond list and detail: below the list (`/api/users/tokens/provision/`)
 * or below one object (`/api/ipam/prefixes/<id>/available-ips/`). The pipeline serves it like any
 * other: request id, host check, authentication, the declared permission, errors, headers, OPTIONS.
 */
export interface RouteDeclaration {
  /** The URL segment: "provision", "available-ips", "trace". */
  readonly name: string;
  /** True below an object (`<id>/name/`), false below the list (`name/`). */
  readonly detail: boolean;
  readonly methods: readonly string[];
  /**
   * The model permission checked before the handler runs, per method; null lets anonymous
   * requests in (token provisioning checks credentials itself).
   */
  readonly permission: ((method: string) => Action) | null;
  /** What the route does, for the OpenAPI document. */
  readonly summary?: string;
  /** GET answers a list (`available-ips`), not one object (`trace`): the operation id ends in `_list`. */
  readonly lists?: boolean;
  /** POST creates objects and answers 201. */
  readonly creates?: boolean;
  /**
   * The route's bodies for the OpenAPI document, by method (`GET`, `POST`): what it takes and
   * what it answers on success, as JSON Schema (`ref("IPAddress")` names a component). A method
   * left out is documented as taking and giving any JSON.
   */
  readonly bodies?: Readonly<Record<string, RouteBodies>>;
  /** Answers the request; `id` is the object's id for detail routes. */
  handler(ctx: RouteContext, model: Model, id: number | null): Promise<Response>;
}

/** One method's bodies of a declared route. */
export interface RouteBodies {
  readonly request?: JsonSchema;
  readonly response?: JsonSchema;
}

/** A body that is one object or a list of them (allocation, bulk creation). */
export const oneOrMany = (item: JsonSchema): JsonSchema => ({ anyOf: [item, { type: "array", items: item }] });

/** A closed object schema: every property named is required and nothing else may appear. */
export const closedObject = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: "object",
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
