// A local stand-in for `sqld`: serves a SQLite file over Hrana 2 (JSON over HTTP) so that
// `@libsql/client/web`, which only accepts http(s) URLs, works under `wrangler dev` and workerd tests.
//
//   node scripts/libsql-server.ts --path data/inventory.db --port 8080
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "libsql";

type Db = Database.Database;
type Value =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };
type Stmt = { sql?: string; sql_id?: number; args?: Value[]; named_args?: { name: string; value: Value }[]; want_rows?: boolean };
type Cond =
  | { type: "ok" | "error"; step: number }
  | { type: "not"; cond: Cond }
  | { type: "and" | "or"; conds: Cond[] }
  | { type: "is_autocommit" };
type Step = { condition?: Cond | null; stmt: Stmt };
type Request = { type: string; stmt?: Stmt; batch?: { steps: Step[] }; sql?: string; sql_id?: number };
type ProtoError = { message: string; code: string };
type Col = { name: string; decltype: string | null };
type StmtResult = { cols: Col[]; rows: Value[][]; affected_row_count: number; last_insert_rowid: string | null };
type Stream = { db: Db; counters: Database.Statement; sqls: Map<number, string>; closed: boolean; timer?: NodeJS.Timeout };

const BUSY_TIMEOUT_MS = 5_000;

const fail = (message: string, code: string): never => {
  throw Object.assign(new Error(message), { code });
};
const errorCode = (e: unknown) => (e as { code?: unknown } | null)?.code;
const toProtoError = (e: unknown): ProtoError => {
  const code = errorCode(e);
  return { message: e instanceof Error ? e.message : String(e), code: typeof code === "string" ? code : "UNKNOWN" };
};

function openStream(path: string): Stream {
  const db = new Database(path);
  db.defaultSafeIntegers(true); // integers come back as bigint, so 64-bit values survive intact
  // busy_timeout stays 0: SQLite's busy handler sleeps synchronously, which would freeze the event loop,
  // so the stream holding the lock could never commit. whileBusy() waits asynchronously instead.
  db.exec("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 0");
  const counters = db.prepare("SELECT changes(), last_insert_rowid(), total_changes()").raw(true);
  return { db, counters, sqls: new Map(), closed: false };
}

function closeStream(s: Stream): void {
  if (s.closed) return;
  s.closed = true;
  clearTimeout(s.timer);
  try {
    // Roll back explicitly: the native connection lives on until its statements are garbage collected,
    // and an open write transaction would keep the database locked until then.
    if (s.db.inTransaction) s.db.exec("ROLLBACK");
  } finally {
    s.db.close();
  }
}

async function whileBusy<T>(fn: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      return fn();
    } catch (e) {
      // A statement that hit SQLITE_BUSY has done nothing yet, so it is safe to run again.
      if (errorCode(e) !== "SQLITE_BUSY" || Date.now() + delay > deadline) throw e;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

function fromValue(v: Value): unknown {
  switch (v.type) {
    case "null":
      return null;
    case "integer":
      return BigInt(v.value);
    case "float":
    case "text":
      return v.value;
    case "blob":
      return Buffer.from(v.base64, "base64");
    default:
      return fail(`Unknown value type ${(v as { type: string }).type}`, "PROTOCOL_ERROR");
  }
}

function toValue(v: unknown): Value {
  if (v === null || v === undefined) return { type: "null" };
  if (typeof v === "bigint") return { type: "integer", value: v.toString() };
  if (typeof v === "number") return { type: "float", value: v };
  if (typeof v === "string") return { type: "text", value: v };
  if (v instanceof Uint8Array) return { type: "blob", base64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") };
  return fail(`Unsupported column value ${typeof v}`, "INTERNAL_ERROR");
}

// Rows are [addr, opcode, p1, p2, p3, p4, p5, comment]. libsql exposes neither parameter names nor
// sqlite3_stmt_readonly(), but the bytecode has both.
function explain(db: Db, sql: string): unknown[][] {
  try {
    const stmt = db.prepare(`EXPLAIN ${sql}`).raw(true);
    const ops = stmt.all([]) as unknown[][];
    // An exhausted EXPLAIN still counts as running until reset, which libsql only does in get(); while it
    // "runs", SQLite defers the autocommit of writes on this connection and the database stays locked.
    stmt.get([]);
    return ops;
  } catch {
    return []; // not explainable (e.g. already an EXPLAIN)
  }
}

// libsql's object binding aborts the whole process (a Rust panic) if the SQL also has a bare `?`, so we
// always bind a positional array, resolving names through the `Variable` opcodes (p1 = index, p4 = name).
// Numbering is purely syntactic, so the map can be shared by all connections.
const paramCache = new Map<string, Map<string, number>>();
function bindArgs(db: Db, sql: string, stmt: Stmt): unknown[] {
  const values = (stmt.args ?? []).map(fromValue);
  if (stmt.named_args?.length) {
    let params = paramCache.get(sql);
    if (!params) {
      params = new Map();
      for (const [, op, p1, , , p4] of explain(db, sql)) {
        if (op === "Variable" && typeof p4 === "string") params.set(p4, Number(p1));
      }
      if (paramCache.size >= 1000) paramCache.clear();
      paramCache.set(sql, params);
    }
    for (const { name, value } of stmt.named_args) {
      // Like sqld, accept names with or without their `:`/`@`/`$` prefix; unknown names are ignored.
      const index = params.get(name) ?? params.get(`:${name}`) ?? params.get(`@${name}`) ?? params.get(`$${name}`);
      if (index !== undefined) values[index - 1] = fromValue(value);
    }
  }
  return Array.from(values, (v) => v ?? null);
}

const sqlOf = (s: Stream, sql?: string, sqlId?: number): string =>
  sql ?? (sqlId !== undefined ? s.sqls.get(sqlId) : undefined) ?? fail(`SQL text ${sqlId} not found`, "SQL_NOT_FOUND");
const columns = (stmt: Database.Statement): Col[] => (stmt.reader ? stmt.columns().map((c) => ({ name: c.name, decltype: c.type })) : []);

async function execute(s: Stream, stmt: Stmt): Promise<StmtResult> {
  const sql = sqlOf(s, stmt.sql, stmt.sql_id);
  const prepared = s.db.prepare(sql);
  const args = bindArgs(s.db, sql, stmt);
  const before = (s.counters.get([]) as bigint[])[2];
  const cols = columns(prepared);
  // Retry the same statement object: one that hit SQLITE_BUSY stays active until it is run again (libsql
  // has no reset()), and an active statement makes a later COMMIT fail with "statements in progress".
  const rows = await whileBusy(() => (prepared.reader ? prepared.raw(true).all(args) : (prepared.run(args), [])) as unknown[][]);
  // Counters come from SQLite rather than run(), because readers include `INSERT ... RETURNING`. changes()
  // still holds the last write's count after a SELECT, so it only counts if this statement wrote.
  const [changes, rowid, total] = s.counters.get([]) as bigint[];
  const wrote = total !== before;
  return {
    cols,
    rows: stmt.want_rows === false ? [] : rows.map((row) => row.map(toValue)),
    affected_row_count: wrote ? Number(changes) : 0,
    last_insert_rowid: wrote ? rowid.toString() : null,
  };
}

async function batch(s: Stream, steps: Step[]) {
  const results: (StmtResult | null)[] = [];
  const errors: (ProtoError | null)[] = [];
  const holds = (c: Cond): boolean => {
    switch (c.type) {
      case "ok":
        return results[c.step] != null;
      case "error":
        return errors[c.step] != null;
      case "not":
        return !holds(c.cond);
      case "and":
        return c.conds.every(holds);
      case "or":
        return c.conds.some(holds);
      case "is_autocommit":
        return !s.db.inTransaction;
      default:
        return fail(`Unknown batch condition ${(c as { type: string }).type}`, "PROTOCOL_ERROR");
    }
  };
  for (const step of steps) {
    let result: StmtResult | null = null;
    let error: ProtoError | null = null;
    if (!step.condition || holds(step.condition)) {
      try {
        result = await execute(s, step.stmt);
      } catch (e) {
        error = toProtoError(e);
      }
    }
    results.push(result);
    errors.push(error);
  }
  return { step_results: results, step_errors: errors };
}

function describe(s: Stream, sql: string) {
  const cols = columns(s.db.prepare(sql));
  const params: { name: string | null }[] = [];
  let readonly = true;
  for (const [, op, p1, p2, , p4] of explain(s.db, sql)) {
    if (op === "Variable") {
      while (params.length < Number(p1)) params.push({ name: null });
      params[Number(p1) - 1] = { name: typeof p4 === "string" ? p4 : null };
    }
    // Opening a write transaction is what makes sqlite3_stmt_readonly() false.
    if (op === "Transaction" && Number(p2) !== 0) readonly = false;
  }
  return { params, cols, is_explain: /^\s*EXPLAIN\b/i.test(sql), is_readonly: readonly };
}

async function handle(s: Stream, req: Request): Promise<object> {
  switch (req.type) {
    case "execute":
      return { type: "execute", result: await execute(s, req.stmt!) };
    case "batch":
      return { type: "batch", result: await batch(s, req.batch!.steps) };
    // No busy retry here: a multi-statement script may have partly run before hitting the lock.
    case "sequence":
      s.db.exec(sqlOf(s, req.sql, req.sql_id));
      return { type: "sequence" };
    case "describe":
      return { type: "describe", result: describe(s, sqlOf(s, req.sql, req.sql_id)) };
    case "store_sql":
      s.sqls.set(req.sql_id!, req.sql!);
      return { type: "store_sql" };
    case "close_sql":
      s.sqls.delete(req.sql_id!);
      return { type: "close_sql" };
    case "close":
      closeStream(s);
      return { type: "close" };
    case "get_autocommit":
      return { type: "get_autocommit", is_autocommit: !s.db.inTransaction };
    default:
      return fail(`Unknown request type ${req.type}`, "PROTOCOL_ERROR");
  }
}

/**
 * HTTP requests received since start, for tests and benchmarks that count round trips on the wire:
 * `pipeline` is every `POST /v2/pipeline`, `other` everything else (version probes such as
 * `GET /v3-protobuf`, `/health`, unknown paths).
 */
export interface RequestCounts {
  pipeline: number;
  other: number;
}

export async function startLibsqlServer({
  path,
  host = "127.0.0.1",
  port = 0,
  idleTimeoutMs = 10_000,
}: {
  path: string;
  host?: string;
  port?: number;
  idleTimeoutMs?: number;
}): Promise<{ url: string; requests: RequestCounts; close(): Promise<void> }> {
  mkdirSync(dirname(resolve(path)), { recursive: true });
  closeStream(openStream(path)); // fail fast on a bad path, and switch the file to WAL up front
  const batons = new Map<string, Stream>();
  const open = new Set<Stream>();
  const requests: RequestCounts = { pipeline: 0, other: 0 };

  async function pipeline(body: { baton?: string | null; requests: Request[] }) {
    const s = body.baton == null ? openStream(path) : batons.get(body.baton);
    if (!s) return { status: 400, json: { message: "Stream expired or baton is invalid", code: "STREAM_EXPIRED" } };
    // Batons are single-use, so a replayed or concurrent request on the same stream is rejected.
    if (body.baton != null) batons.delete(body.baton);
    clearTimeout(s.timer);
    open.add(s);
    const results = [];
    for (const req of body.requests) {
      try {
        if (s.closed) fail("Stream is closed", "STREAM_CLOSED");
        results.push({ type: "ok", response: await handle(s, req) });
      } catch (e) {
        results.push({ type: "error", error: toProtoError(e) });
      }
    }
    if (s.closed) {
      open.delete(s);
      return { status: 200, json: { baton: null, base_url: null, results } };
    }
    const baton = randomBytes(24).toString("base64url");
    batons.set(baton, s);
    s.timer = setTimeout(() => {
      batons.delete(baton);
      open.delete(s);
      closeStream(s); // rolls back whatever transaction the client abandoned
    }, idleTimeoutMs).unref();
    return { status: 200, json: { baton, base_url: null, results } };
  }

  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) =>
      typeof body === "string"
        ? res.writeHead(status, { "content-type": "text/plain" }).end(body)
        : res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "POST" && req.url === "/v2/pipeline") requests.pipeline++;
    else requests.other++;
    try {
      if (req.method === "POST" && req.url === "/v2/pipeline") {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const { status, json } = await pipeline(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        send(status, json);
      } else if (req.method === "GET" && (req.url === "/v2" || req.url === "/health")) {
        send(200, "ok");
      } else {
        send(404, "Not found"); // including GET /v3-protobuf: the client then falls back to /v2/pipeline
      }
    } catch (e) {
      send(e instanceof SyntaxError ? 400 : 500, toProtoError(e));
    }
  });
  await new Promise<void>((ok, ko) => server.once("error", ko).listen(port, host, ok));
  const { port: actualPort } = server.address() as { port: number };
  return {
    url: `http://${host}:${actualPort}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
      for (const s of open) closeStream(s);
      open.clear();
      batons.clear();
    },
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { path: { type: "string", default: "data/inventory.db" }, port: { type: "string", default: "8080" } },
  });
  const server = await startLibsqlServer({ path: values.path, port: Number(values.port) });
  console.log(`libsql server listening on ${server.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void server.close().then(() => process.exit(0)));
  }
}
