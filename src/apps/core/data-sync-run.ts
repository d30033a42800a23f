import type { Model, RouteContext } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql } from "kysely";
import { qb } from "../../db/query-builder.ts";
import { ApiError } from "../../schema/errors.ts";
import { json } from "../../lib/responses.ts";
import { toHex } from "../../lib/crypto.ts";
import { boundedFetch, FetchRefused } from "../../lib/bounded-fetch.ts";
import { FULL, retrieveObject, writeObjects } from "../../engine/crud.ts";
import { readBatch, writeBatch } from "../../engine/unit-of-work.ts";

/** NetBox's name for a data source's sync job (`SyncDataSourceJob`). */
const JOB_NAME = "Synchronization";

/** Why a type is not synced here, by type: what would have to run that not every runtime can. */
const UNSYNCABLE: Record<string, string> = {
  local: "a local path is read from the server's file system, which Cloudflare Workers do not have",
  git: "a git clone needs a git client and a file system, which not every runtime this service runs on has",
  "amazon-s3": "syncing from Amazon S3 is not supported here; publish the file at an HTTP(S) URL instead",
};

/**
 * `POST /api/core/data-sources/<id>/sync/`. NetBox enqueues a job; here the sync runs while the
 * request waits (there is no job queue to hand it to on every runtime), within
 * DATA_SOURCE_TIMEOUT and DATA_SOURCE_MAX_SIZE: the source's URL (type `http`) is fetched and
 * stored as the source's one data file (its path is the URL's last segment), replacing the files
 * of its previous sync; the source's status and `last_synced` follow, and a job records the run
 * (completed, or errored with the reason). Objects synced from the source's files with
 * `auto_sync_enabled` take the new content. Answers the source, as NetBox does.
 */
export async function syncDataSource(ctx: RouteContext, model: Model, id: number): Promise<Response> {
  const source = await retrieveObject(ctx, model, id, FULL);
  const type = (source.type as { value: string }).value;
  if (type !== "http") {
    throw ApiError.detail(
      "invalid",
      `Data sources of type ${type} cannot be synced by this service: ${UNSYNCABLE[type] ?? "unknown type"}. Use type http (an HTTP(S) URL).`,
    );
  }
  if (!source.enabled) throw ApiError.detail("invalid", "The data source is disabled; enable it before syncing.");
  const jobId = crypto.randomUUID();
  const started = ctx.now.toISOString();
  await writeBatch(ctx, [
    sql`UPDATE core_datasource SET status = 'syncing' WHERE id = ${id}`.compile(qb),
    sql`INSERT INTO core_job (object_type, object_id, name, status, created, started, user_id, error, job_id)
      VALUES (${model.objectType}, ${id}, ${JOB_NAME}, 'running', ${started}, ${started}, ${ctx.user?.id ?? null}, '', ${jobId})`.compile(
      qb,
    ),
  ]);
  try {
    const { bytes, url } = await boundedFetch(String(source.source_url), {
      policy: {
        schemes: ["http", "https"],
        blocked: ctx.config.DATA_SOURCE_BLOCKED_NETWORKS,
        allowedHosts: ctx.config.DATA_SOURCE_ALLOWED_HOSTS,
        names: { schemes: "type http", blocked: "DATA_SOURCE_BLOCKED_NETWORKS", allowedHosts: "DATA_SOURCE_ALLOWED_HOSTS" },
      },
      timeoutMs: ctx.config.DATA_SOURCE_TIMEOUT * 1000,
      maxBytes: ctx.config.DATA_SOURCE_MAX_SIZE,
    });
    const text = utf8(bytes);
    const path = fileNameOf(url);
    const hash = toHex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
    const now = new Date().toISOString();
    const [file] = await writeBatch(ctx, [
      sql`INSERT INTO core_datafile (source_id, path, size, hash, data, created, last_updated)
        VALUES (${id}, ${path}, ${bytes.length}, ${hash}, ${text}, ${now}, ${now})
        ON CONFLICT (source_id, path) DO UPDATE SET size = excluded.size, hash = excluded.hash, data = excluded.data,
          last_updated = CASE WHEN core_datafile.hash = excluded.hash THEN core_datafile.last_updated ELSE excluded.last_updated END
        RETURNING id`.compile(qb),
      // A sync replaces the source's files: what the source no longer has goes (synced objects keep their content).
      sql`DELETE FROM core_datafile WHERE source_id = ${id} AND path <> ${path}`.compile(qb),
      sql`UPDATE core_datasource SET status = 'completed', last_synced = ${now} WHERE id = ${id}`.compile(qb),
    ]);
    const files = [{ id: Number(file.rows[0].id), path, size: bytes.length, hash }];
    // The file is stored either way; an object that refuses the new content (bad JSON) errors the job.
    try {
      await finishJob(ctx, jobId, "completed", { files, synced_objects: await autoSync(ctx, model, id) }, "");
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await finishJob(ctx, jobId, "errored", { files }, `Auto-sync failed: ${JSON.stringify(error.body)}`);
    }
  } catch (error) {
    if (!(error instanceof FetchRefused)) throw await failed(ctx, id, jobId, `Server error: ${(error as Error).message}`, error);
    await failed(ctx, id, jobId, error.message, null);
  }
  return json(await retrieveObject(ctx, model, id, FULL));
}

/** The content as UTF-8 text: data files feed JSON, YAML and templates; other bytes are refused. */
function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new FetchRefused("The file is not UTF-8 text; data files hold JSON, YAML or template text.");
  }
}

/** The data file's path: the URL's last path segment (`ntp.json`), or `index` for a URL ending in `/`. */
function fileNameOf(url: string): string {
  const last = new URL(url).pathname.split("/").pop() ?? "";
  return decodeURIComponent(last) || "index";
}

/** Marks the sync failed and its job errored with the reason; returns `error` to rethrow when given. */
async function failed(ctx: Actor, id: number, jobId: string, reason: string, error: unknown): Promise<unknown> {
  await writeBatch(ctx, [sql`UPDATE core_datasource SET status = 'failed' WHERE id = ${id}`.compile(qb)]);
  await finishJob(ctx, jobId, "errored", null, reason);
  return error;
}

async function finishJob(ctx: Actor, jobId: string, status: string, data: unknown, error: string): Promise<void> {
  await writeBatch(ctx, [
    sql`UPDATE core_job SET status = ${status}, completed = ${new Date().toISOString()}, data = ${data === null ? null : JSON.stringify(data)},
      error = ${error} WHERE job_id = ${jobId}`.compile(qb),
  ]);
}

/**
 * Objects synced from the source's files with `auto_sync_enabled` (config contexts, config
 * templates, and any model declaring `syncedDataFields`) take their file's new content, as NetBox's
 * auto-sync does after a sync: each through an ordinary write (change records, webhooks), as the
 * requester. Returns how many were synced, by object type.
 */
async function autoSync(ctx: Actor, source: Model, id: number): Promise<Record<string, number>> {
  const models = source.registry.models.filter(
    (m) => m.field.auto_sync_enabled && m.field.data_file?.target?.() === source.registry.get("core.datafile"),
  );
  if (!models.length) return {};
  const found = await readBatch(
    ctx,
    models.map((m) =>
      sql`SELECT id, data_file_id FROM ${sql.table(m.table)} WHERE auto_sync_enabled = 1
        AND data_file_id IN (SELECT id FROM core_datafile WHERE source_id = ${id}) ORDER BY id`.compile(qb),
    ),
  );
  const synced: Record<string, number> = {};
  for (const [i, m] of models.entries()) {
    const rows = found[i].rows;
    if (!rows.length) continue;
    await writeObjects(ctx, m, {
      inputs: rows.map((r) => ({ data_file: Number(r.data_file_id) })),
      mode: "patch",
      ids: rows.map((r) => Number(r.id)),
      bulk: true,
    });
    synced[m.objectType] = rows.length;
  }
  return synced;
}
