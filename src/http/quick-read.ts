import type { Config } from "../config.ts";
import type { Secrets } from "../lib/secrets.ts";
import type { Actor, AuthCache } from "../schema/actor.ts";
import type { Registry } from "../schema/shapes.ts";
import type { Database } from "../db/database.ts";
import type { FileStore } from "../lib/file-store.ts";
import { listTexts, retrieveText } from "../engine/crud.ts";
import { actAs } from "../auth/authenticate.ts";
import { listQueryOf, selectionOf } from "./list-query.ts";
import { paginated, paginatedParts } from "../lib/pagination.ts";
import { jsonParts, type JsonPart } from "../lib/json-text.ts";
import { DETAIL_METHODS, jsonPayload, LIST_METHODS, READ_METHODS } from "../lib/responses.ts";
import type { PlainRequest, QuickAnswer } from "./quick-request.ts";

/** What a quick read is served with: the entry's database and hooks, as `App.fetch` is given them. */
export interface QuickEnvironment {
  readonly db: Database;
  readonly files?: FileStore;
  readonly waitUntil: (promise: Promise<unknown>) => void;
  readonly enqueue: (deliveryIds: readonly number[]) => Promise<void>;
}

/** Query parameters whose answer is not the list's or object's JSON (an export template's text, the browsable page). */
const NOT_PLAIN = ["format", "export"];

/**
 * A model's list or one object (`GET /api/<app>/<model>/[<id>/]`) for a token the cache accepts,
 * read by the engine as the pipeline reads it, without a web Request, a Response, a route or its
 * stages: at load those cost a site's detail more CPU than its read did (about 26 of 80 us on the
 * thread that answers, in process). The actor is what authentication makes of the cached token.
 * Anything the pipeline would answer otherwise (an error of any kind, a refusal, stale cached
 * data) returns null, and the pipeline serves the request from the start, so every answer but a
 * plain 200 stays its own; `test/quick-read.test.ts` holds the two to the same answers.
 */
export function quickRead(config: Config, secrets: Secrets, authCache: AuthCache, registry: Registry) {
  return async (plain: PlainRequest, env: QuickEnvironment): Promise<QuickAnswer | null> => {
    const entry = plain.token;
    if (entry === null) return null;
    const segments = plain.path.split("/");
    // "", "api", app, model, [id,] ""
    if (segments.length < 5 || segments.length > 6 || segments[1] !== "api" || segments[segments.length - 1] !== "") return null;
    const model = registry.byPath(segments[2], segments[3]);
    const id = segments.length === 6 ? segments[4] : null;
    if (!model || (id !== null && !/^\d{1,15}$/.test(id))) return null;
    const params = new URLSearchParams(plain.query);
    if (NOT_PLAIN.some((name) => params.has(name))) return null;
    const actor: Actor = {
      origin: plain.origin,
      requestId: crypto.randomUUID(),
      now: new Date(),
      config,
      db: env.db,
      ...(env.files ? { files: env.files } : {}),
      secrets,
      clientAddress: plain.clientAddress,
      waitUntil: env.waitUntil,
      enqueue: env.enqueue,
      user: null,
      token: null,
      auth: null,
      authCache,
      revealedKeys: new Map(),
    };
    actAs(actor, entry, true);
    let parts: readonly JsonPart[];
    try {
      if (id !== null) {
        const object = await retrieveText(actor, model, Number(id), selectionOf(params));
        parts = typeof object === "string" ? [object] : jsonParts(object);
      } else {
        const query = listQueryOf(config, params);
        const listed = await listTexts(actor, model, query);
        const url = new URL(`${plain.origin}${plain.path}${plain.query ? `?${plain.query}` : ""}`);
        parts =
          "texts" in listed
            ? paginatedParts(url, query.page, listed.count, listed.texts)
            : jsonParts(paginated(url, query.page, listed.count, listed.results));
      }
    } catch {
      return null;
    }
    const methods = model.readOnly ? READ_METHODS : id === null ? LIST_METHODS : DETAIL_METHODS;
    return {
      status: 200,
      headers: {
        allow: methods.join(", "),
        "api-version": config.API_VERSION,
        "content-type": "application/json",
        vary: "Accept",
        "x-request-id": actor.requestId,
      },
      body: jsonPayload(parts),
    };
  };
}
