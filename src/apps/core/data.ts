import type { Choice, RouteDeclaration } from "../../schema/shapes.ts";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import { ref } from "../../schema/json-schema.ts";
import { objectTypeIdFilter, objectTypeIdFilters } from "../extras/object-types.ts";
import { syncDataSource } from "./data-sync-run.ts";
import { timeFilter } from "./core.ts";

/**
 * NetBox's data source types, and `http`: a file fetched from an HTTP(S) URL, the one kind this
 * service can sync on every runtime (Workers has no file system and no git). The others are
 * accepted and stored as NetBox has them, and their sync is refused with a reason.
 */
export const DATA_SOURCE_TYPES: readonly Choice[] = [
  { value: "local", label: "Local" },
  { value: "git", label: "Git" },
  { value: "amazon-s3", label: "Amazon S3" },
  { value: "http", label: "HTTP(S)" },
];

export const DATA_SOURCE_STATUS: readonly Choice[] = [
  { value: "new", label: "New" },
  { value: "queued", label: "Queued" },
  { value: "syncing", label: "Syncing" },
  { value: "completed", label: "Completed" },
  { value: "failed", label: "Failed" },
];

export const JOB_STATUS: readonly Choice[] = [
  { value: "pending", label: "Pending" },
  { value: "scheduled", label: "Scheduled" },
  { value: "running", label: "Running" },
  { value: "completed", label: "Completed" },
  { value: "errored", label: "Errored" },
  { value: "failed", label: "Failed" },
];

/** `POST /api/core/data-sources/<id>/sync/`: fetches the source's file now and answers the source. */
const syncRoute: RouteDeclaration = {
  name: "sync",
  detail: true,
  summary:
    "Synchronize the data source now: fetch its file (type http), store it as a data file, and record the run as a job. Other types are refused.",
  methods: ["POST"],
  // NetBox's `core.sync_datasource`; a read-only token is refused as for any write.
  permission: () => "sync",
  bodies: { POST: { response: ref("DataSource") } },
  handler: (ctx, model, id) => syncDataSource(ctx, model, id!),
};

/** Where data (config context data, config templates) is synced from: here, an HTTP(S) URL. */
export const dataSource = defineModel({
  app: "core",
  name: "datasource",
  verboseName: "data source",
  className: "DataSource",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    type: f.choice(DATA_SOURCE_TYPES),
    source_url: f.string({ maxLength: 200, label: "URL" }),
    enabled: f.boolean({ default: true }),
    status: f.choice(DATA_SOURCE_STATUS, { default: "new", readOnly: true }),
    description,
    parameters: f.json({ nullable: true }),
    ignore_rules: f.text({ helpText: "Patterns (one per line) matching files to ignore when syncing" }),
    comments,
    last_synced: f.datetime({ nullable: true, readOnly: true }),
    file_count: f.count("core.datafile", "source"),
  },
  brief: ["name", "description"],
  search: ["name", "source_url", "description", "comments"],
  ordering: ["name"],
  routes: [syncRoute],
});

/** A file a data source's sync stored: its path, size, SHA256 and content (not shown by the API, as in NetBox). */
export const dataFile = defineModel({
  app: "core",
  name: "datafile",
  verboseName: "data file",
  className: "DataFile",
  taggable: false,
  readOnly: true,
  fields: {
    source: f.fk("core.datasource", { onDelete: "cascade", readOnly: true }),
    path: f.string({ maxLength: 1000, readOnly: true, helpText: "File path relative to the data source's root" }),
    size: f.integer({ readOnly: true }),
    hash: f.string({ maxLength: 64, readOnly: true, helpText: "SHA256 hash of the file data" }),
  },
  storage: {
    // The file's content, as UTF-8 text; copied into the objects synced from it.
    data: "TEXT NOT NULL DEFAULT ''",
  },
  uniqueTogether: [{ fields: ["source", "path"], message: "Data file with this Source and Path already exists." }],
  brief: ["path"],
  display: "path",
  search: ["path"],
  ordering: ["source", "path"],
  naturalKey: "path",
});

/**
 * A background job's record (NetBox's `core.Job`). Here each data source sync writes one, so the
 * list shows what ran, when, by whom and how it ended; syncs run while their request waits, so a
 * job is `running` only for as long as that request.
 */
export const job = defineModel({
  app: "core",
  name: "job",
  className: "Job",
  taggable: false,
  timestamps: false,
  readOnly: true,
  fields: {
    object_type: f.string({ maxLength: 100, readOnly: true }),
    object_id: f.integer({ nullable: true, readOnly: true }),
    name: f.string({ maxLength: 200, readOnly: true }),
    status: f.choice(JOB_STATUS, { default: "pending", readOnly: true }),
    created: f.datetime({ readOnly: true }),
    scheduled: f.datetime({ nullable: true, readOnly: true }),
    interval: f.integer({ nullable: true, readOnly: true, min: 1, helpText: "Recurrence interval (in minutes)" }),
    started: f.datetime({ nullable: true, readOnly: true }),
    completed: f.datetime({ nullable: true, readOnly: true }),
    user: f.fk("users.user", { nullable: true, onDelete: "setNull", readOnly: true }),
    data: f.json({ nullable: true, readOnly: true }),
    error: f.text({ readOnly: true }),
    job_id: f.string({ maxLength: 36, readOnly: true }),
  },
  brief: ["status", "created", "completed", "user"],
  display: "job_id",
  search: ["name", "error"],
  ordering: ["-created", "-id"],
  naturalKey: "job_id",
  filters: {
    // NetBox filters jobs by the object type's id under `object_type`.
    ...objectTypeIdFilters("object_type", "object_type"),
    object_type_id: objectTypeIdFilter("object_type"),
    user: { path: "user__id" },
    created__after: timeFilter(">=", "created"),
    created__before: timeFilter("<=", "created"),
    scheduled__after: timeFilter(">=", "scheduled"),
    scheduled__before: timeFilter("<=", "scheduled"),
    started__after: timeFilter(">=", "started"),
    started__before: timeFilter("<=", "started"),
    completed__after: timeFilter(">=", "completed"),
    completed__before: timeFilter("<=", "completed"),
  },
});

export const dataModels = [dataSource, dataFile, job];
