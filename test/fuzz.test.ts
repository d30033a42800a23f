/**
 * Property-based fuzzing of every operation the served OpenAPI document describes, through the
 * real pipeline on a real libSQL database. For each operation fast-check sends hostile requests
 * (wrong types in every field of the request schema, malformed and deeply nested JSON, garbage
 * in every filter lookup, `ordering` and pagination, hostile path ids, every kind of
 * authentication) and checks what "nothing stalls, nothing answers 500" means:
 *
 * - no 5xx;
 * - every 4xx body in NetBox's shape: `{"detail": "..."}`, an object of field -> messages, or
 *   for a bulk write a list of such objects;
 * - no 4xx changed data: no change record carries its X-Request-ID.
 *
 * A failure shrinks to a minimal request. FUZZ_RUNS sets the runs per operation (default below,
 * sized for CI: under two minutes on two cores); FUZZ_SEED replays a run.
 */
import { registry } from "../src/apps/index.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { createHarness, ADMIN_TOKEN, type Driver, type Harness, type Reply } from "./support/harness.ts";
import { allSpecs } from "./support/specs.ts";
import { operationsOf, propertiesOf, type Operation, type Schema } from "./support/openapi-operations.ts";
import {
  HOSTILE_IDS,
  HOSTILE_QUERY_TEXTS,
  hostileObject,
  hostileQueryValue,
  hostileValue,
  malformedBody,
  PAGINATION_EXTREMES,
  rawQuerySuffix,
} from "./support/hostile-values.ts";

/** Runs per operation: 5 keeps the file under two minutes on two shared cores (about 4,200 fuzzed requests in all plus the sweeps). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 5);
/** A fixed seed by default, so CI is repeatable; FUZZ_SEED=random explores, and the seed used is printed. */
const SEED = process.env.FUZZ_SEED === "random" ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20261126);
/** The database driver: the embedded default (native), or FUZZ_DRIVER=client for @libsql/client (Turso, Workers, Deno). */
const DRIVER: Driver = process.env.FUZZ_DRIVER === "client" ? "client" : "native";

let api: Harness;
let document: Schema;
let operations: Operation[];
/** An id that exists, per list path (`/api/dcim/sites/`), from the contract fixtures. */
const seeded = new Map<string, number>();
/** Valid objects per list path (the contract's), which fuzzed bodies spoil a field or two of, to get past validation. */
const valid = new Map<string, Record<string, unknown>[]>();
/** The headers and token of each way a request may authenticate. */
const auth: Record<string, { token: string | null; headers: Record<string, string> }> = {};

const stats = { requests: 0, serverErrors: 0 };
/** Answers by status, to show the requests reached past the first refusal. */
const statuses = new Map<number, number>();
/** Server errors the pipeline logged, by request id (errorResponse logs `[<id>] METHOD path:` and the error). */
const logged = new Map<string, unknown>();
/** Distinct 5xx and shape failures, for the report: what was sent, what came back, the stack. */
const findings = new Map<string, string>();

/** One request as generated, before it is sent. */
interface FuzzRequest {
  auth: string;
  id: string;
  query: [string, string][];
  raw: string;
  body: string | undefined;
  contentType: string | undefined;
  browsable: boolean;
}

beforeAll(async () => {
  api = await createHarness({}, DRIVER);
  vi.spyOn(console, "error").mockImplementation((first: unknown, ...rest: unknown[]) => {
    const id = /^\[([0-9a-f-]{36})\]/.exec(String(first))?.[1];
    if (id) logged.set(id, rest[0]);
    else logged.set(`background-${logged.size}`, [first, ...rest]);
  });
  document = (await api.get("/api/schema/?format=json")).body;
  operations = operationsOf(document);
  await seed();
  auth.none = { token: null, headers: {} };
  auth.badToken = { token: "f".repeat(40), headers: {} };
  auth.malformedToken = { token: null, headers: { Authorization: "Token 0123 4567" } };
  auth.readOnly = { token: await api.token({ superuser: true, write_enabled: false }), headers: {} };
  auth.admin = { token: ADMIN_TOKEN, headers: {} };
  await identities();
}, 120_000);

/**
 * The fuzzing superuser and its session: made after the fixtures, so their ids are not among the
 * small ones hostile values name (the first user and token, `admin`'s, may be deleted or changed
 * by a fuzzed request, as a real superuser may). Made again when a fuzzed request ends them.
 */
async function identities(): Promise<void> {
  const username = `fuzzer${Date.now()}`;
  auth.superuser = { token: await api.token({ superuser: true, username }), headers: {} };
  const login = await api.request("POST", "/login/", {
    token: null,
    body: { username, password: "A-password-123" },
    clientAddress: "192.0.2.1",
  });
  const session = login.headers
    .getSetCookie()
    .find((c) => c.startsWith("sessionid="))!
    .split(";")[0];
  // A session cookie without the CSRF token: reads work, unsafe methods must be refused.
  auth.sessionNoCsrf = { token: null, headers: { Cookie: session } };
  // The same session with its CSRF token: from this origin it writes, from another it is refused.
  const csrf = String(login.body.csrf_token);
  const csrfCookie = `${session}; csrftoken=${csrf}`;
  auth.session = { token: null, headers: { Cookie: csrfCookie, "X-CSRFToken": csrf, Origin: "http://inventory.test" } };
  auth.sessionForeignOrigin = { token: null, headers: { Cookie: csrfCookie, "X-CSRFToken": csrf, Origin: "https://evil.example" } };
  auth.garbageCookie = {
    token: null,
    headers: { Cookie: `sessionid=${"a".repeat(64)}.zz; sessionid=; =;;csrftoken`, "X-CSRFToken": "%00" },
  };
}

afterAll(() => {
  report("all");
  vi.restoreAllMocks();
  api.close();
});

/** One object of each model that the contract fixtures can build, so detail operations meet real rows. */
async function seed(): Promise<void> {
  for (const spec of allSpecs) {
    if ("readOnly" in spec) continue;
    const model = registry.byObjectType(spec.objectType);
    if (!model) continue;
    const path = `/api/${model.app}/${model.path}/`;
    try {
      const fx = (await spec.fixtures?.(api)) ?? {};
      valid.set(path, spec.create(fx));
      const reply = await api.post(path, spec.create(fx)[0]);
      if (reply.status === 201) seeded.set(path, reply.body.id);
    } catch {
      // Fixtures of different models may collide in one database (same names): that model is fuzzed on other ids.
    }
  }
}

const COMMON_QUERY = ["limit", "offset", "ordering", "brief", "fields", "omit", "exclude", "q", "format", "cf_x"];

/** The requests fast-check generates for one operation. */
function requestsFor(op: Operation): fc.Arbitrary<FuzzRequest> {
  const names = [...new Set([...op.query.map((p) => p.name), ...COMMON_QUERY])];
  const fields = op.body ? Object.keys(propertiesOf(document, op.body)) : [];
  const listPath = op.path.replace(/\{id\}\/.*$/, "");
  const json = (value: unknown) => JSON.stringify(value);
  const id = fc.oneof(
    { weight: 3, arbitrary: fc.constant(String(seeded.get(listPath) ?? 1)) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
  );
  // A valid object with a field or two spoiled, and an id for bulk updates: this gets past validation into the engine.
  const examples = valid.get(listPath) ?? [{}];
  const spoiled = fc
    .tuple(fc.constantFrom(...examples), hostileObject(fields, 2), fc.constantFrom(seeded.get(listPath) ?? 1, undefined))
    .map(([example, bad, objectId]) => ({ ...(objectId === undefined ? {} : { id: objectId }), ...example, ...bad }));
  const body: fc.Arbitrary<string | undefined> = op.body
    ? fc.oneof(
        { weight: 6, arbitrary: spoiled.map(json) },
        { weight: 2, arbitrary: fc.array(spoiled, { minLength: 1, maxLength: 3 }).map(json) },
        { weight: 2, arbitrary: hostileObject(fields).map(json) },
        { weight: 2, arbitrary: fc.array(hostileObject(fields), { maxLength: 3 }).map(json) },
        { weight: 1, arbitrary: fc.constant("[]") },
        { weight: 2, arbitrary: malformedBody },
        { weight: 1, arbitrary: hostileValue.map(json) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
    : op.method === "GET"
      ? fc.constant(undefined) // fetch's Request cannot carry a GET body, nor can any client that uses it.
      : fc.oneof(
          { weight: 6, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: hostileObject(["id", "name"]).map(json) },
          { weight: 1, arbitrary: malformedBody },
        );
  return fc.record({
    // Weighted to the superuser, whose requests get furthest into the code.
    auth: fc.oneof(
      { weight: 8, arbitrary: fc.constant("superuser") },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "readOnly",
          "none",
          "badToken",
          "malformedToken",
          "sessionNoCsrf",
          "admin",
          "session",
          "sessionForeignOrigin",
          "garbageCookie",
        ),
      },
    ),
    id,
    query: fc
      .tuple(fc.subarray(names, { maxLength: Math.min(12, names.length) }), fc.array(hostileQueryValue, { minLength: 12, maxLength: 12 }))
      .map(([chosen, values]) => chosen.map((name, i) => [name, values[i]] as [string, string])),
    raw: rawQuerySuffix,
    body,
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "text/plain",
          "application/json; charset=klingon",
          "application/json; charset=utf-16",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
        ),
      },
    ),
    browsable: fc.constantFrom(false, false, false, false, false, false, false, true),
  });
}

/** The URL path and query a generated request is sent to. */
function target(op: Operation, request: FuzzRequest): string {
  const params = new URLSearchParams(request.query);
  if (request.browsable) params.set("format", "api");
  const query = `${params}${request.raw}`.replace(/^&/, "");
  return `${op.path.replace("{id}", request.id)}${query ? `?${query}` : ""}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** A field's messages: a list of messages (or of nested errors), or a nested object's errors. */
const isMessages = (v: unknown): boolean => (Array.isArray(v) && v.every((m) => typeof m === "string" || isNested(m))) || isNested(v);
/**
 * Errors nested under a field, keyed by name; there DRF keeps a message raised in a dict as a
 * bare string, as NetBox's `{"custom_fields": {"x": "Custom field 'x' does not exist ..."}}`.
 */
const isNested = (v: unknown): boolean => isObject(v) && Object.values(v).every((m) => typeof m === "string" || isMessages(m));
/** Field -> messages, as a serializer answers: at the top, a field's messages are a list or nested errors. */
const isFieldErrors = (v: unknown): boolean => isObject(v) && Object.values(v).every(isMessages);

/** Whether a 4xx body has one of NetBox's error shapes: a detail, field errors, or a list of field errors for a bulk write. */
function isErrorBody(body: unknown): boolean {
  if (Array.isArray(body)) return body.every(isFieldErrors);
  if (!isObject(body)) return false;
  if ("detail" in body) return typeof body.detail === "string";
  return Object.keys(body).length > 0 && isFieldErrors(body);
}

/** Sends one generated request and returns what is wrong with the answer, or null. */
async function check(op: Operation, request: FuzzRequest): Promise<string | null> {
  const path = target(op, request);
  const headers = { ...auth[request.auth].headers, ...(request.contentType ? { "Content-Type": request.contentType } : {}) };
  let reply: Reply;
  try {
    reply = await api.request(op.method, path, { token: auth[request.auth].token, headers, body: request.body, enqueue: false });
    await api.settle();
  } catch (error) {
    return `threw ${(error as Error)?.stack ?? error}`;
  } finally {
    stats.requests++;
  }
  statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
  const requestId = reply.headers.get("X-Request-ID") ?? "";
  const describe = () =>
    `${op.method} ${path} [auth ${request.auth}${request.contentType ? `, Content-Type ${request.contentType}` : ""}] body ${JSON.stringify(request.body?.slice(0, 300))}`;
  if (reply.status >= 500) {
    const error = logged.get(requestId);
    stats.serverErrors++;
    const key = `${op.method} ${op.path} ${reply.status} ${String((error as Error)?.message ?? error).slice(0, 120)}`;
    if (!findings.has(key))
      findings.set(key, `${describe()}\n  -> ${reply.status} ${reply.text.slice(0, 300)}\n  ${(error as Error)?.stack ?? error}`);
    return `${reply.status}: ${describe()}: ${String((error as Error)?.message ?? error)}`;
  }
  if (reply.status >= 400 && reply.status < 500) {
    const html = (reply.headers.get("Content-Type") ?? "").startsWith("text/html");
    if (!html && (op.method as string) !== "HEAD" && !isErrorBody(reply.body)) {
      const key = `shape ${op.method} ${op.path} ${reply.status}`;
      if (!findings.has(key)) findings.set(key, `${describe()}\n  -> ${reply.status} ${reply.text.slice(0, 300)}`);
      return `${reply.status} body not in NetBox's error shape: ${reply.text.slice(0, 200)} for ${describe()}`;
    }
    const [changes] = await api.db.batch(
      [{ sql: "SELECT count(*) AS n FROM core_objectchange WHERE request_id = ?", parameters: [requestId] }],
      "read",
    );
    if (Number(changes.rows[0].n) > 0) return `${reply.status} but ${changes.rows[0].n} change records carry its request id: ${describe()}`;
  }
  return null;
}

/** Runs the property over one operation; returns the shrunk failure, if any. */
async function fuzz(op: Operation, index: number, runs: number): Promise<string | null> {
  const details = await fc.check(
    fc.asyncProperty(requestsFor(op), async (request) => {
      const problem = await check(op, request);
      if (problem) throw new Error(problem);
    }),
    // Each operation its own seed: with one seed for all, every operation would get the same choices.
    { numRuns: runs, seed: (SEED + index * 7919) % 2 ** 31, endOnFailure: false, maxSkipsPerRun: 0 },
  );
  if (!details.failed) return null;
  return `${op.method} ${op.path} (seed ${details.seed}, path ${details.counterexamplePath}): ${String((details.errorInstance as Error)?.message ?? details.errorInstance)}`;
}

describe("fuzzing every operation of the OpenAPI document", () => {
  it("walks the document it serves, parameters and bodies resolved", () => {
    expect(operations.length).toBeGreaterThan(500);
    expect(operations.some((op) => op.method === "GET" && op.query.some((p) => p.name === "name__ic"))).toBe(true);
    expect(operations.filter((op) => op.body).length).toBeGreaterThan(300);
    expect(seeded.size).toBeGreaterThan(50);
    // Parameters written inline and as `$ref`s read the same (the document is moving to inline ones).
    const limit = { in: "query", name: "limit", schema: { type: "integer" } };
    const inline = operationsOf({ paths: { "/api/x/": { get: { parameters: [limit] } } } });
    const byRef = operationsOf({
      paths: { "/api/x/": { get: { parameters: [{ $ref: "#/components/parameters/limit" }] } } },
      components: { parameters: { limit } },
    });
    expect(byRef).toEqual(inline);
    expect(inline[0].query).toEqual([{ name: "limit", schema: { type: "integer" } }]);
  });

  it("answers hostile requests to every operation without a 5xx, in NetBox's error shapes, changing nothing on a 4xx", async () => {
    const failures: string[] = [];
    for (const [index, op] of operations.entries()) {
      const failure = await fuzz(op, index, RUNS);
      if (failure) failures.push(failure);
      // A fuzzed write may delete or demote the fuzzing user: the next operation gets a new one.
      if ((await api.get("/api/users/users/?limit=1", { token: auth.superuser.token })).status !== 200) await identities();
    }
    report("operations");
    expect(failures, [...findings.values()].join("\n\n")).toEqual([]);
    // Errors logged outside a response (work left running after it): none either.
    expect([...logged].filter(([key]) => key.startsWith("background")).map(([, error]) => String(error))).toEqual([]);
  }, 600_000);

  it("answers garbage in every filter lookup of every list, and extremes of limit, offset and ordering", async () => {
    const failures: string[] = [];
    const plain = (query: [string, string][]): FuzzRequest => ({
      auth: "superuser",
      id: "1",
      query,
      raw: "",
      body: undefined,
      contentType: undefined,
      browsable: false,
    });
    const lists = operations.filter((op) => op.method === "GET" && !op.path.includes("{id}") && op.query.length);
    for (const op of lists) {
      const names = op.query.map((p) => p.name);
      const queries: [string, string][][] = [...PAGINATION_EXTREMES];
      // Forty parameters a request, two rounds with different garbage for each.
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < names.length; i += 40) {
          queries.push(
            names.slice(i, i + 40).map((name, j) => [name, HOSTILE_QUERY_TEXTS[(i + j + round * 7) % HOSTILE_QUERY_TEXTS.length]]),
          );
        }
      }
      for (const query of queries) {
        if (!(await check(op, plain(query)))) continue;
        // Shrunk by hand to the parameters that fail alone (a sweep, not a property).
        for (const pair of query) {
          const problem = await check(op, plain([pair]));
          if (problem) failures.push(problem.slice(0, 500));
        }
      }
    }
    report("filters");
    expect(failures).toEqual([]);
  }, 300_000);

  it("answers OPTIONS and HEAD, which the document does not list, on every path", async () => {
    const failures: string[] = [];
    const paths = [...new Set(operations.map((op) => op.path))];
    for (const path of paths) {
      for (const method of ["OPTIONS", "HEAD"] as const) {
        for (const [id, query] of [
          ["1", [["brief", "1"]]],
          [
            "9223372036854775808",
            [
              ["fields", "__proto__"],
              ["limit", "-1"],
            ],
          ],
        ] as const) {
          for (const who of ["superuser", "none"]) {
            // HEAD is GET without the body: checked as a GET whose answer carries no JSON to inspect.
            const op = { method, path, query: [], body: null } as unknown as Operation;
            const problem = await check(op, {
              auth: who,
              id,
              query: query.map(([k, v]) => [k, v]),
              raw: "",
              body: undefined,
              contentType: undefined,
              browsable: false,
            });
            if (problem) failures.push(problem.slice(0, 500));
          }
        }
      }
    }
    report("options-head");
    expect(failures).toEqual([]);
  }, 120_000);

  it("takes bulk bodies of 0 and 20,000 items on list endpoints without a 5xx", async () => {
    const failures: string[] = [];
    const big = JSON.stringify(
      Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, name: `n${i}`, slug: `s${i}`, address: `10.${i >> 8}.${i & 255}.1/24` })),
    );
    // The big ones only on a few lists (over MAX_BULK_OBJECTS, as a script may send): each costs a second or so.
    const BIG = ["/api/dcim/sites/", "/api/ipam/ip-addresses/", "/api/tenancy/tenants/"];
    const bulk = operations.filter((op) => !op.path.includes("{id}") && op.body !== null);
    for (const op of bulk) {
      for (const body of ["[]", ...(BIG.includes(op.path) ? [big] : [])]) {
        const problem = await check(op, { auth: "superuser", id: "1", query: [], raw: "", body, contentType: undefined, browsable: false });
        if (problem) failures.push(problem.slice(0, 500));
      }
    }
    report("bulk");
    expect(failures).toEqual([]);
  }, 300_000);
});

/** What the run did, for the record: requests sent, 5xx seen, the seed to replay it. */
function report(stage: string) {
  console.log(
    `fuzz (${stage}): ${stats.requests} requests, ${stats.serverErrors} 5xx, FUZZ_RUNS=${RUNS}, FUZZ_SEED=${SEED}, FUZZ_DRIVER=${DRIVER}`,
  );
  console.log(
    `fuzz statuses: ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .join(", ")}`,
  );
  if (findings.size) console.log(`fuzz findings:\n${[...findings.values()].join("\n\n")}`);
}
