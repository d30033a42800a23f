import type { FieldOptions, ModelDeclaration, RouteDeclaration } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { combineHooks, type ModelHooks, type Values, type WriteItem } from "../../schema/hooks.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { classNameOf } from "../../schema/model.ts";
import { whether } from "../../schema/filter-sql.ts";
import { ApiError } from "../../schema/errors.ts";
import { qb } from "../../db/query-builder.ts";
import { json } from "../../lib/responses.ts";
import { ref } from "../../schema/json-schema.ts";
import { FULL, retrieveObject, writeObjects } from "../../engine/crud.ts";
import { idList } from "../../engine/select.ts";
import { readBatch } from "../../engine/unit-of-work.ts";

/**
 * Objects whose content comes from a data source's file (NetBox's `SyncedDataMixin`): config
 * contexts, config templates, export templates. `withSyncedData(declaration, copy)` gives a model
 * declaration the fields (`data_source`, `data_path`, `data_file`, `data_synced`, and
 * `auto_sync_enabled`, write-only as NetBox 4.2's API does not show it), their filters, the write
 * rule and the `sync/` route; `copy` turns the file's text into the values it replaces.
 *
 * Writing `data_file` (or `data_source` with a `data_path` naming one of its files) copies the
 * file's content into the object at once and sets `data_synced`; `POST .../<id>/sync/` copies it
 * again; a data source's sync does it for objects with `auto_sync_enabled`. NetBox 4.2's API
 * takes only `data_source`; `data_file` and `data_path` are also accepted here, so a client can
 * name the file.
 */

/** The file's text as the values it replaces in the object, or the reason it cannot be used. */
export type SyncedCopy = (text: string) => Values | string;

const FIELDS: Record<string, FieldOptions> = {
  data_source: f.fk("core.datasource", { nullable: true, onDelete: "protect" }),
  data_path: f.string({ maxLength: 1000, blank: true, helpText: "Path to remote file (relative to data source root)" }),
  data_file: f.fk("core.datafile", { nullable: true, onDelete: "setNull" }),
  data_synced: f.datetime({ nullable: true, readOnly: true, label: "Date synced" }),
  auto_sync_enabled: f.boolean({
    default: false,
    writeOnly: true,
    helpText: "Take the data file's new content whenever its data source syncs.",
  }),
};

const NEED_FILE = "Must specify a data file when designating a data source.";

/** The declaration with synced data: fields (replacing placeholders of the same names in place), filters, hooks and the `sync/` route. */
export function withSyncedData(d: ModelDeclaration, copy: SyncedCopy): ModelDeclaration {
  const hooks = syncedDataHooks(copy);
  return {
    ...d,
    fields: { ...d.fields, ...FIELDS },
    // `auto_sync_enabled` is write-only, so it gives no filter of its own.
    filters: { ...d.filters, auto_sync_enabled: whether((t) => sql`${sql.ref(`${t}.auto_sync_enabled`)} = 1`) },
    hooks: d.hooks ? combineHooks(d.hooks, hooks) : hooks,
    routes: [...(d.routes ?? []), syncRoute(d.className ?? classNameOf(d.verboseName ?? d.name))],
  };
}

/** A data file as a write reads it. */
interface FileRow {
  readonly id: number;
  readonly source: number;
  readonly path: string;
  readonly data: string;
}

/** Sets each item's source, path, synced time and content from the file it names (or clears them). */
function syncedDataHooks(copy: SyncedCopy): ModelHooks {
  return {
    async prepareWrite(ctx, items) {
      const touching = items.filter((i) => "data_file" in i.values || "data_source" in i.values || "data_path" in i.values);
      if (!touching.length) return;
      const files = await filesFor(ctx, touching);
      for (const item of touching) settle(ctx, item, files, copy);
    },
  };
}

/** The files the items name: by id, or by source and path (one round trip, only for writes that touch these fields). */
async function filesFor(ctx: Actor, items: readonly WriteItem[]): Promise<FileRow[]> {
  const ids = items.map((i) => i.values.data_file).filter((x): x is number => typeof x === "number");
  const sources = items
    .filter((i) => typeof i.values.data_file !== "number")
    .map((i) => ("data_source" in i.values ? i.values.data_source : i.current?.data_source_id))
    .filter((x) => typeof x === "number");
  // A write that names no file and no source (a PUT's defaults) reads nothing.
  if (!ids.length && !sources.length) return [];
  const [found] = await readBatch(ctx, [
    sql`SELECT id, source_id, path, data FROM core_datafile WHERE id IN ${idList(ids)} OR source_id IN ${idList(sources)}`.compile(qb),
  ]);
  return found.rows.map((r) => ({ id: Number(r.id), source: Number(r.source_id), path: String(r.path), data: String(r.data) }));
}

function settle(ctx: Actor, item: WriteItem, files: readonly FileRow[], copy: SyncedCopy): void {
  const named = namedFile(item, files);
  if (named === null) {
    clear(item);
    return;
  }
  if ("error" in named) {
    item.errors[named.error[0]] = [named.error[1]];
    return;
  }
  const values = copy(named.data);
  if (typeof values === "string") {
    item.errors.data_file = [values];
    return;
  }
  Object.assign(item.values, values, { data_source: named.source, data_path: named.path, data_file: named.id });
  item.columns.data_synced = ctx.now.toISOString();
}

/** The file an item names (by id, or by its source and path), null when it names none, or why it cannot. */
function namedFile(item: WriteItem, files: readonly FileRow[]): FileRow | null | { error: [string, string] } {
  const v = item.values;
  if (typeof v.data_file === "number") return files.find((x) => x.id === v.data_file) ?? { error: ["data_file", NEED_FILE] };
  // No file named (a create's default, or cleared): a source given with a path names one; else the link goes.
  const namesSource = "data_source" in v && v.data_source !== null;
  const source = "data_source" in v ? v.data_source : "data_file" in v ? null : (item.current?.data_source_id ?? null);
  if (source === null || source === undefined || ("data_file" in v && !namesSource)) return null;
  const path = String(("data_path" in v ? v.data_path : item.current?.data_path) ?? "");
  if (path === "") return { error: ["data_file", NEED_FILE] };
  return (
    files.find((x) => x.source === Number(source) && x.path === path) ?? {
      error: ["data_path", `The data source has no file ${path}; sync it first.`],
    }
  );
}

function clear(item: WriteItem): void {
  Object.assign(item.values, { data_source: null, data_path: "", data_file: null });
  item.columns.data_synced = null;
}

/** `POST .../<id>/sync/`: copies the object's data file's content into it again (`app.sync_<model>`, as NetBox). */
const syncRoute = (className: string): RouteDeclaration => ({
  name: "sync",
  detail: true,
  summary: "Synchronize the object's data from its data file.",
  methods: ["POST"],
  permission: () => "sync",
  bodies: { POST: { response: ref(className) } },
  handler: async (ctx, model, id) => {
    const object = await retrieveObject(ctx, model, id!, FULL);
    const file = object.data_file as { id: number } | null;
    if (!file) throw ApiError.detail("invalid", `This ${model.verboseName} has no data file to synchronize from.`);
    const [out] = await writeObjects(ctx, model, { inputs: [{ data_file: file.id }], mode: "patch", ids: [id!], bulk: false });
    return json(out);
  },
});
