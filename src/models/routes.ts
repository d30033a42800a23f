import type { Action } from "../auth/permissions.ts";
import type { RequestContext } from "../http/context.ts";
import type { Model } from "./model.ts";

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
  /** Answers the request; `id` is the object's id for detail routes. */
  handler(ctx: RequestContext, model: Model, id: number | null): Promise<Response>;
}
