import type { RawBuilder } from "kysely";
import { sql } from "kysely";
import type { Row } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import type { ModelHooks, WriteItem } from "../../schema/hooks.ts";

/** The object a termination item names (its generic relation `field`), as `app.model:id`; null when it names none. */
function objectKey({ values }: WriteItem, field: string): string | null {
  const given = values[field] as { type: string; id: number } | null | undefined;
  return given ? `${given.type}:${given.id}` : null;
}

/**
 * NetBox's clean() of a termination (tunnel or L2VPN): the object it attaches must not be held
 * by another termination already. One probe reads, for every object the write names, the
 * termination holding it and what the message names (`names`: SQL over the holding row `t`);
 * `refuse` writes the message into the item's errors. It is judged as the probe settles, after
 * the unique constraint's probes (whose message NetBox's full_clean() also gives), since a write
 * hands its items with errors to no later hook.
 */
export function alreadyAttached(o: {
  readonly table: string;
  readonly field: string;
  readonly names: (t: string) => RawBuilder<unknown>;
  readonly refuse: (item: WriteItem, holder: Row) => void;
}): ModelHooks {
  const type = sql.ref(`t.${o.field}_type`);
  const id = sql.ref(`t.${o.field}_id`);
  return {
    writeProbes: (_ctx, items) => {
      const keyed = items.map((item) => [item, objectKey(item, o.field)] as const).filter(([, key]) => key !== null);
      if (!keyed.length) return [];
      const keys = keyed.map(([, key]) => key);
      return [
        {
          statement: sql`SELECT t.id, ${type} || ':' || ${id} AS object, ${o.names("t")} AS label FROM ${sql.table(o.table)} t
            WHERE ${type} || ':' || ${id} IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`.compile(qb),
          settle: (r) => {
            const holders = new Map(r.rows.map((row) => [String(row.object), row]));
            for (const [item, key] of keyed) {
              const holder = holders.get(key!);
              if (holder && Number(holder.id) !== item.id) o.refuse(item, holder);
            }
          },
        },
      ];
    },
  };
}
