import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startNodeService, type NodeService } from "../src/runtime/node-service.ts";
import { tempDirs } from "./support/processes.ts";
import {
  compareAnswers,
  expectedOf,
  folded,
  keyPaths,
  learnIds,
  loadRecordings,
  normaliseOurs,
  normaliseTheirs,
  type Recording,
  type ReplayState,
  requestOf,
  TOKEN_OF,
  type Difference,
} from "./support/netbox-replay.ts";
import { DELIBERATE, type DeliberateDifference, type Where } from "./netbox-differences.ts";

// NetBox 4.2.9's answers to a scenario of 560 requests, replayed in order against the service as
// `npm start` runs it (a real libSQL file, real HTTP): each answer is compared with NetBox's after
// the same normalisation and the table of deliberate differences (test/netbox-differences.ts).
// It prints three figures (status codes, key sets and whole answers matching), writes a report
// per request to test-output/netbox-replay.json and fails if a figure falls below its floor in
// test/netbox-replay-floor.json (UPDATE_REPLAY=1 rewrites the floor).

const ROOT = resolve(import.meta.dirname, "..");
const RECORDINGS = resolve(ROOT, "../shared/reference/netbox-4.2-recordings");
const FLOOR_FILE = join(import.meta.dirname, "netbox-replay-floor.json");
const REPORT_FILE = join(ROOT, "test-output", "netbox-replay.json");
const TOKEN = "5e".repeat(20);

/** The deliberate differences as the replay applies them, by request and by model. */
const statusOf = new Map<number, { status: number; why: DeliberateDifference }>();
const bodyNotCompared = new Map<number, DeliberateDifference>();
const alignAfter = new Map<number, { method: string; path: string }>();
const rewrites = new Map<string, DeliberateDifference[]>();
type Side = "ours" | "netbox";
const createAnswer = DELIBERATE.filter((d) => d.createAnswer).map((d) => d.createAnswer!);
for (const d of DELIBERATE) {
  for (const [n, status] of Object.entries(d.status ?? {})) statusOf.set(Number(n), { status, why: d });
  for (const n of d.body ?? []) bodyNotCompared.set(n, d);
  for (const [n, request] of Object.entries(d.align ?? {})) alignAfter.set(Number(n), request);
  if (d.model) rewrites.set(d.model, [...(rewrites.get(d.model) ?? []), d]);
}

/** Applies one side's model rewrites to every object of that side recognised by its `url`. */
function rewrite(side: Side, value: unknown, where: Omit<Where, "nested">, depth: number): void {
  if (Array.isArray(value)) {
    for (const v of value) rewrite(side, v, where, depth);
    return;
  }
  if (!value || typeof value !== "object") return;
  const object = value as Record<string, any>;
  for (const v of Object.values(object)) rewrite(side, v, where, depth + 1);
  const model = typeof object.url === "string" ? /^(\/api\/[^/]+\/[^/]+\/)\d+\/$/.exec(object.url)?.[1] : undefined;
  for (const d of (model && rewrites.get(model)) || []) d[side]?.(object, { ...where, nested: depth > 0 });
}

/** Rewrites an answer's objects: its own (the object, a list's `results`, a bulk answer's items) are not nested. */
function rewriteAnswer(side: Side, body: unknown, where: Omit<Where, "nested">) {
  const results = body && typeof body === "object" && !Array.isArray(body) ? (body as any).results : undefined;
  rewrite(side, Array.isArray(results) ? results : body, where, 0);
}

interface Row {
  n: number;
  /** As recorded, with NetBox's labels; `sent` is the path with our ids. */
  request: string;
  sent: string;
  note?: string;
  status: { netbox: number; ours: number };
  statusMatches: boolean;
  keysMatch: boolean;
  whole: boolean;
  deliberate?: string;
  /** Key paths only NetBox's answer has, and only ours (array positions folded). */
  missingKeys: string[];
  extraKeys: string[];
  differences: number;
  firstDifferences: Difference[];
}

const floors: { status: number; keys: number; whole: number } = existsSync(FLOOR_FILE)
  ? JSON.parse(readFileSync(FLOOR_FILE, "utf8"))
  : { status: 0, keys: 0, whole: 0 };

describe.skipIf(!existsSync(RECORDINGS))("NetBox 4.2.9's recorded scenario, replayed", () => {
  const dirs = tempDirs();
  let service: NodeService;
  beforeAll(async () => {
    service = await startNodeService({
      LIBSQL_URL: `file:${dirs.make()}/replay.db`,
      PORT: "0",
      WORKERS: "0",
      SUPERUSER_NAME: "admin",
      SUPERUSER_PASSWORD: "admin-password-1",
      SUPERUSER_API_TOKEN: TOKEN,
      SECRET_KEY: "replay-secret-key-0123456789abcdef0123456789",
      // The scenario's webhooks name hooks.example.com: deliveries are refused, never sent.
      WEBHOOK_ALLOWED_HOSTS: "replay.invalid",
    });
  });
  afterAll(async () => {
    await service?.close();
    dirs.cleanup();
  });

  it("matches NetBox's answers at least as often as the pinned floors", async () => {
    const recordings = loadRecordings(RECORDINGS);
    expect(recordings.length).toBe(560);
    const send = async (method: string, path: string, body: unknown, token: string | null) => {
      const headers: Record<string, string> = { Accept: "application/json" };
      if (token !== null) headers.Authorization = `Token ${token}`;
      if (body !== undefined) headers["Content-Type"] = "application/json";
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: "manual",
      });
      const text = await response.text();
      let parsed: unknown = null;
      if (text)
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = { _text: text.replace(/\s+/g, " ").slice(0, 200) };
        }
      return { status: response.status, body: parsed as any };
    };
    const admin = await send("GET", "/api/users/users/?username=admin", undefined, TOKEN);
    const state: ReplayState = {
      run: "rpl",
      net4: "10.213.7",
      net6: "2001:db8:d5",
      admin: admin.body.results[0].id,
      ids: new Map(),
      keys: new Map(),
    };
    const tokenFor = (rec: Recording): string | null => {
      const who = TOKEN_OF[rec.n];
      if (who === "none") return null;
      if (who === "invalid") return "0".repeat(40);
      if (who) return state.keys.get(who) ?? "f".repeat(40);
      return TOKEN;
    };

    const rows: Row[] = [];
    /** Each kind of difference (`missing display_url`) and the requests that show it. */
    const classes = new Map<string, number[]>();
    for (const rec of recordings) {
      const { method, path, body } = requestOf(rec, state);
      const answer = await send(method, path, body, tokenFor(rec));
      learnIds(rec, answer.body, state);
      // A request NetBox refused and we accept on purpose: its object is ours to clean up.
      if (statusOf.has(rec.n) && answer.body && typeof (answer.body as any).id === "number")
        state.ids.set(`@${rec.n}`, (answer.body as any).id);
      const align = alignAfter.get(rec.n);
      if (align) {
        const again = requestOf({ ...rec, method: align.method, path: align.path, body: null }, state);
        await send(again.method, again.path, undefined, TOKEN);
      }

      const ours = normaliseOurs(answer.body, service.url);
      const where = { n: rec.n, method, brief: /[?&]brief=(1|true)\b/.test(path) };
      rewriteAnswer("ours", ours, where);
      const netbox = normaliseTheirs(expectedOf(rec, state));
      rewriteAnswer("netbox", netbox, where);
      const decided = statusOf.get(rec.n);
      const expectedStatus = decided ? decided.status : rec.status;
      const statusMatches = answer.status === expectedStatus;
      const skipBody = !!decided || bodyNotCompared.has(rec.n);
      // A create's answer: what NetBox leaves out or gives stale there is not counted against ours.
      const created = rec.method === "POST" && rec.status === 201;
      const forgiven = (path: string, kind: Difference["kind"]) =>
        created && kind !== "missing" && kind !== "length" && path.split(/[.[\]]+/).some((k) => createAnswer.some((re) => re.test(k)));
      const differences = skipBody ? [] : compareAnswers(netbox, ours).filter((d) => !forgiven(d.path, d.kind));
      const theirKeys = keyPaths(netbox);
      const ourKeys = keyPaths(ours);
      const missingKeys = skipBody ? [] : [...theirKeys].filter((k) => !ourKeys.has(k));
      const extraKeys = skipBody ? [] : [...ourKeys].filter((k) => !theirKeys.has(k) && !forgiven(k, "extra"));
      for (const d of new Set(differences.map((d) => `${d.kind} ${folded(d.path).replace(/^(results)?\[\]\.?/, "")}`)))
        classes.set(d, [...(classes.get(d) ?? []), rec.n]);
      rows.push({
        n: rec.n,
        request: `${rec.method} ${rec.path}`,
        sent: path,
        note: rec.note,
        status: { netbox: rec.status, ours: answer.status },
        statusMatches,
        keysMatch: statusMatches && missingKeys.length === 0 && extraKeys.length === 0,
        whole: statusMatches && differences.length === 0,
        deliberate: (decided?.why ?? bodyNotCompared.get(rec.n))?.what,
        missingKeys,
        extraKeys,
        differences: differences.length,
        firstDifferences: differences.slice(0, 10),
      });
    }

    const share = (pick: (r: Row) => boolean) => Math.round((1000 * rows.filter(pick).length) / rows.length) / 10;
    const figures = { status: share((r) => r.statusMatches), keys: share((r) => r.keysMatch), whole: share((r) => r.whole) };
    // The differences that repeat most: the defects worth fixing first.
    const frequent = [...classes.entries()]
      .sort((a, b) => b[1].length - a[1].length)
      .slice(0, 40)
      .map(([what, ns]) => ({ what, requests: ns.length, examples: ns.slice(0, 8) }));
    mkdirSync(join(ROOT, "test-output"), { recursive: true });
    writeFileSync(REPORT_FILE, `${JSON.stringify({ figures, frequent, requests: rows }, null, 1)}\n`);
    console.log(
      [
        `NetBox 4.2.9 replay: ${rows.length} requests (report: test-output/netbox-replay.json)`,
        `  status codes matching: ${figures.status} %`,
        `  key sets matching:     ${figures.keys} %`,
        `  whole answers matching: ${figures.whole} %`,
      ].join("\n"),
    );

    if (process.env.UPDATE_REPLAY === "1") {
      writeFileSync(FLOOR_FILE, `${JSON.stringify(figures, null, 2)}\n`);
      return;
    }
    expect(figures.status, "status codes matching (%) fell below the floor").toBeGreaterThanOrEqual(floors.status);
    expect(figures.keys, "key sets matching (%) fell below the floor").toBeGreaterThanOrEqual(floors.keys);
    expect(figures.whole, "whole answers matching (%) fell below the floor").toBeGreaterThanOrEqual(floors.whole);
  }, 120_000);
});
