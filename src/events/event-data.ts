import { registry } from "../apps/index.ts";
import type { DeliveryDependencies } from "./delivery-types.ts";
import type { Actor } from "../schema/actor.ts";
import type { Row } from "../db/database.ts";
import { objectUrl, represent } from "../engine/serialize.ts";

/**
 * An actor for rendering an object outside a request. Its URLs are relative (`/api/dcim/sites/7/`),
 * as NetBox's webhooks send them, rendered without a request: receivers join them to the base URL
 * they know the service by.
 */
function renderingContext(deps: DeliveryDependencies, requestId: string): Actor {
  return {
    origin: "",
    requestId,
    now: new Date(),
    // A token's key never leaves in a webhook, whatever ALLOW_TOKEN_RETRIEVAL says.
    config: { ...deps.config, ALLOW_TOKEN_RETRIEVAL: false },
    db: deps.db,
    secrets: deps.secrets,
    clientAddress: null,
    waitUntil: () => {},
    enqueue: async () => {},
    user: null,
    token: null,
    auth: null,
    revealedKeys: new Map(),
  };
}

/** An event's `data`: the object's REST representation as of the commit. */
export type Data = Record<string, unknown>;

/**
 * The `data` of claimed runs, as of their commit, never read again: an object's full
 * representation kept by the outbox (created or updated: as the transaction left it; deleted: as
 * it was just before, also when removed in cascade), shaped set-wise per model and origin;
 * otherwise (a row of a model the write did not read back, or data lost to a crash before it was kept) its
 * last snapshot with id, url and display.
 * An id whose data cannot be shaped maps to the error.
 */
export async function eventData(deps: DeliveryDependencies, runs: readonly Row[]): Promise<Map<number, Data | Error>> {
  const out = new Map<number, Data | Error>();
  const groups = new Map<string, Row[]>();
  for (const d of runs) {
    const model = registry.byObjectType(String(d.object_type));
    if (model && d.data != null) {
      const key = `${d.object_type} ${d.origin}`;
      const group = groups.get(key);
      if (group) group.push(d);
      else groups.set(key, [d]);
      continue;
    }
    const ctx = renderingContext(deps, String(d.request_id));
    const snapshot = JSON.parse(String(d.postchange_data ?? d.prechange_data ?? "{}"));
    out.set(Number(d.id), {
      id: d.object_id,
      ...(model ? { url: objectUrl(ctx, model, d.object_id) } : {}),
      display: d.object_repr,
      ...snapshot,
    });
  }
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const model = registry.byObjectType(String(group[0].object_type))!;
      try {
        const ctx = renderingContext(deps, String(group[0].request_id));
        const shaped = await represent(
          ctx,
          model,
          group.map((d) => JSON.parse(String(d.data)) as Row),
          { form: "full" },
        );
        group.forEach((d, i) => out.set(Number(d.id), shaped[i]));
      } catch (error) {
        group.forEach((d) => out.set(Number(d.id), error as Error));
      }
    }),
  );
  return out;
}
