import type { RouteContext } from "../schema/shapes.ts";

/**
 * Everything a handler knows about the request it serves: the engine's actor, and the request
 * itself. One per request; never shared.
 */
export interface RequestContext extends RouteContext {
  /** The request, for its headers; its body is read through `body` only. */
  readonly request: Request;
  /**
   * The body as text, read from the stream by the pipeline on the first call (within
   * MAX_BODY_SIZE, else 413) and the same text on every later one, also when the request is served
   * again after its cached credentials went stale. Handlers never read the stream themselves.
   */
  readonly body: () => Promise<string>;
  /** The body's bytes, read once as `body` is (a multipart upload's files). */
  readonly bytes: () => Promise<Uint8Array>;
}
