import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startNodeService, type NodeService } from "../src/runtime/node-service.ts";
import { tempDirs } from "./support/processes.ts";
import {
  compareAnswers,
  expectedOf,
  frequentDifferences,
  indexDeliberate,
  judge,
  type Judgement,
  learnIds,
  loadRecordings,
  normaliseOurs,
  type Recording,
  type ReplayState,
  requestOf,
  TOKEN_OF,
} from "./support/netbox-replay.ts";
import { DELIBERATE } from "./netbox-differences.ts";

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
const deliberate = indexDeliberate(DELIBERATE);

type Figures = { status: number; keys: number; whole: number };
const floors: Figures = existsSync(FLOOR_FILE) ? JSON.parse(readFileSync(FLOOR_FILE, "utf8")) : { status: 0, keys: 0, whole: 0 };

/** One request over HTTP; a body that is not JSON (NetBox's HTML 404) is kept as `{_text}`, as the recorder kept it. */
async function send(base: string, method: string, path: string, body: unknown, token: string | null) {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token !== null) headers.Authorization = `Token ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: "manual",
  });
  const text = await response.text();
  let parsed: any = null;
  try {
    if (text) parsed = JSON.parse(text);
  } catch {
    parsed = { _text: text.replace(/\s+/g, " ").slice(0, 200) };
  }
  return { status: response.status, body: parsed };
}

if (!existsSync(RECORDINGS)) console.warn(`NetBox replay skipped: ${RECORDINGS} is absent (the reference folder sits beside the project)`);

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
      // The scenario's webhooks name hooks.example.com: their deliveries are refused, never sent.
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
    const admin = await send(service.url, "GET", "/api/users/users/?username=admin", undefined, TOKEN);
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
      return who ? (state.keys.get(who) ?? "f".repeat(40)) : TOKEN;
    };

    const judgements: Judgement[] = [];
    for (const rec of recordings) {
      const { method, path, body } = requestOf(rec, state);
      const answer = await send(service.url, method, path, body, tokenFor(rec));
      learnIds(rec, answer.body, state);
      // What NetBox refused and we accept on purpose: its object is labelled, so the alignment can remove it.
      if (deliberate.status.has(rec.n) && typeof answer.body?.id === "number") state.ids.set(`@${rec.n}`, answer.body.id);
      const align = deliberate.align.get(rec.n);
      if (align) {
        const again = requestOf({ ...rec, method: align.method, path: align.path, body: null }, state);
        await send(service.url, again.method, again.path, undefined, TOKEN);
      }
      judgements.push(judge(rec, path, answer, state, service.url, deliberate));
    }

    const share = (pick: (j: Judgement) => boolean) => Math.round((1000 * judgements.filter(pick).length) / judgements.length) / 10;
    const figures: Figures = { status: share((j) => j.statusMatches), keys: share((j) => j.keysMatch), whole: share((j) => j.whole) };
    const frequent = frequentDifferences(judgements, 40);
    const requests = judgements.map(({ differences, ...j }) => ({
      ...j,
      differences: differences.length,
      firstDifferences: differences.slice(0, 10),
    }));
    mkdirSync(join(ROOT, "test-output"), { recursive: true });
    writeFileSync(REPORT_FILE, `${JSON.stringify({ figures, frequent, requests }, null, 1)}\n`);
    console.log(
      [
        `NetBox 4.2.9 replay: ${judgements.length} requests (report: test-output/netbox-replay.json)`,
        `  status codes matching:  ${figures.status} %`,
        `  key sets matching:      ${figures.keys} %`,
        `  whole answers matching: ${figures.whole} %`,
        "  most frequent differences (requests showing each):",
        ...frequent
          .slice(0, 10)
          .map((f) => `    ${String(f.requests).padStart(4)}  ${f.what}  (e.g. ${f.examples.slice(0, 4).join(", ")})`),
      ].join("\n"),
    );

    if (process.env.UPDATE_REPLAY === "1") {
      writeFileSync(FLOOR_FILE, `${JSON.stringify(figures, null, 2)}\n`);
      return;
    }
    const below = "fell below the floor in test/netbox-replay-floor.json (UPDATE_REPLAY=1 pins a new one)";
    expect(figures.status, `status codes matching (%) ${below}`).toBeGreaterThanOrEqual(floors.status);
    expect(figures.keys, `key sets matching (%) ${below}`).toBeGreaterThanOrEqual(floors.keys);
    expect(figures.whole, `whole answers matching (%) ${below}`).toBeGreaterThanOrEqual(floors.whole);
    // About 10 s alone; the whole suite shares two cores with it.
  }, 120_000);
});

describe("the replay's comparison", () => {
  const state = (): ReplayState => ({
    run: "rpl",
    net4: "10.9.8",
    net6: "2001:db8:1",
    admin: 7,
    ids: new Map([
      ["@4.0", 11],
      ["@71", 5],
    ]),
    keys: new Map(),
  });
  const recording = (answer: unknown, extra: Partial<Recording> = {}): Recording => ({
    n: 80,
    file: "080-get.json",
    method: "GET",
    path: "/api/dcim/sites/@71/",
    body: null,
    status: 200,
    answer,
    ...extra,
  });

  it("counts a key missing from ours and a key only ours has, and compares values", () => {
    const differences = compareAnswers({ a: 1, b: { c: "x" }, list: [1, 2] }, { a: 2, b: { c: "x", d: true }, list: [1] });
    expect(differences).toEqual([
      { path: "a", kind: "value", netbox: 1, ours: 2 },
      { path: "b.d", kind: "extra", ours: true },
      { path: "list", kind: "length", netbox: 2, ours: 1 },
    ]);
    expect(compareAnswers({ a: 1, gone: null }, { a: 1 })).toEqual([{ path: "gone", kind: "missing", netbox: null }]);
  });

  it("lets an unlabelled id (#N, ~model:N) match any integer, also inside a link, and nothing else", () => {
    expect(compareAnswers({ id: "#93", url: "/api/ipam/prefixes/~prefixes:2/" }, { id: 4, url: "/api/ipam/prefixes/12/" })).toEqual([]);
    expect(compareAnswers({ id: "#93" }, { id: "4" })).toHaveLength(1);
    expect(compareAnswers({ url: "/api/ipam/prefixes/#2/" }, { url: "/api/ipam/prefixes/x/" })).toHaveLength(1);
  });

  it("fills placeholders and labels (in keys, links and ids) and keeps `admin` as text outside id fields", () => {
    const expected = expectedOf(
      recording({
        id: "@71",
        url: "/api/dcim/sites/@71/",
        custom_fields: { "<RUN>_int": 1 },
        tags: [{ id: "@4.0", name: "<RUN>-gold" }],
        user: { id: "admin", display: "admin", url: "/api/users/users/admin/" },
        prefix: "<NET4>.0/24",
        unknown: "@999",
      }),
      state(),
    );
    expect(expected).toEqual({
      id: 5,
      url: "/api/dcim/sites/5/",
      custom_fields: { rpl_int: 1 },
      tags: [{ id: 11, name: "rpl-gold" }],
      user: { id: 7, display: "admin", url: "/api/users/users/7/" },
      prefix: "10.9.8.0/24",
      unknown: "@999",
    });
    const sent = requestOf(
      recording(null, { method: "POST", path: "/api/dcim/sites/@99/", body: { tags: ["@4.0"], tenant: "#999999999" } }),
      state(),
    );
    expect(sent).toEqual({ method: "POST", path: "/api/dcim/sites/999999999/", body: { tags: [11], tenant: 999999999 } });
  });

  it("normalises our answer as the recorder did: no host, timestamps, request ids, keys, decoded links", () => {
    const origin = "http://127.0.0.1:4000";
    expect(
      normaliseOurs(
        {
          url: `${origin}/api/dcim/sites/5/`,
          next: `${origin}/api/ipam/prefixes/?limit=2&parent=10.0.0.0%2F24`,
          created: "2026-11-27T02:00:00Z",
          request_id: "0b6ee5d4-7c1b-4ef0-9a3e-6a8f5b7e2c11",
          key: "ab".repeat(20),
          expires: "2099-01-01T00:00:00Z",
        },
        origin,
      ),
    ).toEqual({
      url: "/api/dcim/sites/5/",
      next: "/api/ipam/prefixes/?limit=2&parent=10.0.0.0/24",
      created: "<ts>",
      request_id: "<uuid>",
      key: "<key>",
      expires: "2099-01-01T00:00:00Z",
    });
  });

  it("applies a deliberate difference only to the model it names, and counts everything else", () => {
    const rec = recording({ id: "@71", url: "/api/dcim/sites/@71/", name: "x", status: { value: "active", label: "Active" } });
    const ours = {
      id: 5,
      url: "http://h/api/dcim/sites/5/",
      name: "x",
      status: { value: "active", label: "Active", id: 1 },
      display_name: "x",
    };
    const judgement = judge(rec, "/api/dcim/sites/5/", { status: 200, body: ours }, state(), "http://h", deliberate);
    // A site's status.id is deliberate (SPEC.md 2.3); display_name is deliberate on devices, not on sites.
    expect(judgement.differences).toEqual([{ path: "display_name", kind: "extra", ours: "x" }]);
    expect(judgement).toMatchObject({ statusMatches: true, keysMatch: false, whole: false, extraKeys: ["display_name"] });
  });
});
