import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createHarness, type Harness, ORIGIN } from "./support/harness.ts";
import { createGraphqlDataset, type DatasetIds } from "./support/graphql-dataset.ts";
import {
  describeDifference,
  filled,
  type GraphqlJudgement,
  graphqlRequest,
  judgeGraphql,
  loadRecordings,
  looseLocations,
  type Recording,
  recordedBody,
  replayState,
} from "./support/graphql-replay.ts";
import { GRAPHQL_DIFFERENCES, requestOf } from "./graphql-differences.ts";

// NetBox 4.2.9's answers to 47 GraphQL requests (issue 19), replayed against the real app on a
// real libSQL database (the harness; Node, no workerd): the recordings' dataset is created through
// our REST API (test/support/graphql-dataset.ts), each request is sent with its labels and
// placeholders filled (the "invalid token" one with a bad token, the GET one as a GET), and our
// answer, normalised as the recorder normalised NetBox's, is compared with NetBox's: status,
// `data` (deep-equal, key order ignored, list order kept), `errors` (message, path, locations) and
// the whole body. A request test/graphql-differences.ts names is compared with the answer it
// gives, or not at all. It prints the three shares, writes test-output/graphql-replay.json and
// fails if a share falls below its floor in test/graphql-replay-floor.json
// (UPDATE_GRAPHQL_FLOOR=1 rewrites it).

const ROOT = resolve(import.meta.dirname, "..");
const RECORDINGS = resolve(ROOT, "../shared/reference/netbox-4.2-graphql-recordings");
const FLOOR_FILE = join(import.meta.dirname, "graphql-replay-floor.json");
const REPORT_FILE = join(ROOT, "test-output", "graphql-replay.json");
const BAD_TOKEN = "0".repeat(40);

type Figures = { status: number; data: number; whole: number };
const deliberate = new Map(GRAPHQL_DIFFERENCES.flatMap((d) => (requestOf(d) === null ? [] : [[requestOf(d)!, d] as const])));

/** Who sends a request: the notes say it ("no token", "invalid token"); every other is the superuser's. */
const tokenOf = (rec: Recording): string | null | undefined =>
  /\bno token\b/.test(rec.note ?? "") ? null : /\binvalid token\b/.test(rec.note ?? "") ? BAD_TOKEN : undefined;

if (!existsSync(RECORDINGS))
  console.warn(`NetBox GraphQL replay skipped: ${RECORDINGS} is absent (the reference folder sits beside the project)`);

describe.skipIf(!existsSync(RECORDINGS))("NetBox 4.2.9's recorded GraphQL answers, replayed", () => {
  // As long as the recorded run's prefix (`ndb5c45`), so that error columns after `<RUN>` match.
  const run = `gq${randomBytes(3).toString("hex").slice(0, 5)}`;
  const net4 = `10.${100 + (randomBytes(1)[0] % 100)}.${randomBytes(1)[0]}`;
  // Four hex digits, the first not 0: answers write an address's groups without leading zeros,
  // so a group such as `00f1` would read back as `f1` and differ from the recorded `<NET6>` (one run in 16).
  const net6 = `2001:db8:${(0x1000 + (randomBytes(2).readUInt16BE(0) % 0xf000)).toString(16)}`;
  let api: Harness;
  let ids: DatasetIds;
  beforeAll(async () => {
    api = await createHarness();
    ids = await createGraphqlDataset(api, { run, net4, net6 });
  }, 60_000);
  afterAll(() => api?.close());

  it("creates every object of the recordings' dataset table", () => {
    const readme = readFileSync(join(RECORDINGS, "README.md"), "utf8");
    const labels = [...readme.matchAll(/^\| `(@\d+(?:\.\d+)?)` \|/gm)].map((m) => m[1]);
    expect(labels.length).toBe(66);
    expect(labels.filter((l) => !ids.has(l))).toEqual([]);
  });

  it("matches NetBox's answers at least as often as the pinned floors", async () => {
    const recordings = loadRecordings(RECORDINGS);
    expect(recordings.length).toBe(47);
    const state = replayState(run, net4, net6, ids);

    const judgements: GraphqlJudgement[] = [];
    const sent = new Map<number, unknown>();
    for (const rec of recordings) {
      const { method, path, body } = graphqlRequest(rec, state);
      sent.set(rec.n, method === "GET" ? path : body);
      const reply = await api.request(method, path, { body, token: tokenOf(rec), headers: { Accept: "application/json" } });
      const ours = { status: reply.status, body: recordedBody(reply.text) };
      const row = deliberate.get(rec.n);
      const expected = row?.answer ?? { status: rec.status, body: rec.answer };
      judgements.push(judgeGraphql(rec, expected, ours, state, ORIGIN, row && { why: row.why, compared: !!row.answer }));
    }

    const share = (pick: (j: GraphqlJudgement) => boolean) => Math.round((1000 * judgements.filter(pick).length) / judgements.length) / 10;
    const figures: Figures = { status: share((j) => j.statusMatches), data: share((j) => j.dataMatches), whole: share((j) => j.whole) };
    const requests = judgements.map(({ differences, ...j }) => ({
      ...j,
      sent: sent.get(j.n),
      differences: differences.length,
      firstDifferences: differences.slice(0, 10).map(describeDifference),
    }));
    mkdirSync(join(ROOT, "test-output"), { recursive: true });
    writeFileSync(REPORT_FILE, `${JSON.stringify({ figures, requests }, null, 1)}\n`);
    const line = (j: GraphqlJudgement) => {
      const verdict = j.whole ? "match   " : j.dataMatches ? "data ok " : "MISMATCH";
      const status = j.statusMatches ? "" : ` status NetBox ${j.status.netbox}, ours ${j.status.ours};`;
      const why = j.deliberate ? ` (deliberate: ${j.deliberate.slice(0, 60)})` : "";
      const quotes = j.quotesOnly ? " (message quotes only)" : "";
      const first = j.differences.length
        ? ` ${j.differences.length} differences: ${describeDifference(j.differences[0]).slice(0, 140)}`
        : "";
      return `  ${String(j.n).padStart(3, "0")} ${verdict} ${(j.note ?? "").slice(0, 40).padEnd(40)}${status}${first}${quotes}${why}`;
    };
    console.log(
      [
        `NetBox 4.2.9 GraphQL replay: ${judgements.length} requests (report: test-output/graphql-replay.json)`,
        `  status codes matching:  ${figures.status} %`,
        `  data matching:          ${figures.data} %`,
        `  whole answers matching: ${figures.whole} %`,
        `  (${judgements.filter((j) => j.deliberate).length} requests decided by test/graphql-differences.ts; by request:)`,
        ...judgements.map(line),
      ].join("\n"),
    );

    if (process.env.UPDATE_GRAPHQL_FLOOR === "1") {
      writeFileSync(FLOOR_FILE, `${JSON.stringify(figures, null, 2)}\n`);
      return;
    }
    const floors: Figures = existsSync(FLOOR_FILE) ? JSON.parse(readFileSync(FLOOR_FILE, "utf8")) : { status: 0, data: 0, whole: 0 };
    const below = "fell below the floor in test/graphql-replay-floor.json (UPDATE_GRAPHQL_FLOOR=1 pins a new one)";
    expect(figures.status, `status codes matching (%) ${below}`).toBeGreaterThanOrEqual(floors.status);
    expect(figures.data, `data matching (%) ${below}`).toBeGreaterThanOrEqual(floors.data);
    expect(figures.whole, `whole answers matching (%) ${below}`).toBeGreaterThanOrEqual(floors.whole);
  }, 60_000);
});

describe("the GraphQL replay's comparison", () => {
  const state = replayState(
    "rpl",
    "10.9.8",
    "2001:db8:1",
    new Map([
      ["@11.2", 14],
      ["@5", 3],
    ]),
  );
  const recording = (answer: unknown, extra: Partial<Recording> = {}): Recording => ({
    n: 42,
    file: "042-post-graphql-device.json",
    method: "POST",
    path: "/graphql/",
    body: { query: '{ device(id: @11.2) { id name } x: device(id: "@11.2") { id } }', variables: { id: "@11.2", f: "<RUN>-a" } },
    status: 200,
    answer,
    ...extra,
  });

  it("fills labels in queries, variables (as strings) and answers (ids are strings), and placeholders in keys", () => {
    const rec = recording(null);
    expect(graphqlRequest(rec, state).body).toEqual({
      query: '{ device(id: 14) { id name } x: device(id: "14") { id } }',
      variables: { id: "14", f: "rpl-a" },
    });
    expect(filled({ id: "@11.2", cf: { "<RUN>_x": "@99" }, address: "<NET6>::1/64" }, state, false)).toEqual({
      id: "14",
      cf: { rpl_x: "@99" },
      address: "2001:db8:1::1/64",
    });
    const get = recording(null, { method: "GET", path: "/graphql/?query=%7B%20device(id%3A%20@11.2)%20%7D", body: null });
    expect(graphqlRequest(get, state)).toEqual({ method: "GET", path: "/graphql/?query=%7B%20device(id%3A%2014)%20%7D", body: undefined });
  });

  it("compares status, data (key order ignored, list order kept) and errors by message, path and locations", () => {
    const answer = { data: { device: { id: "@11.2", tags: [1, 2], name: "<RUN>-x" } } };
    const rec = recording(answer);
    const same = judgeGraphql(
      rec,
      { status: 200, body: answer },
      { status: 200, body: { data: { device: { name: "rpl-x", tags: [1, 2], id: "14" } } } },
      state,
      "",
    );
    expect(same).toMatchObject({ statusMatches: true, dataMatches: true, whole: true, differences: [] });
    const order = judgeGraphql(
      rec,
      { status: 200, body: answer },
      { status: 200, body: { data: { device: { id: "14", name: "rpl-x", tags: [2, 1] } } } },
      state,
      "",
    );
    expect(order).toMatchObject({ dataMatches: false, whole: false });

    const error = { data: null, errors: [{ message: "Cannot query field 'x' on type 'Query'.", locations: [{ column: 3, line: 1 }] }] };
    const ours = {
      data: null,
      errors: [{ message: 'Cannot query field "x" on type "Query".', locations: [{ line: 1, column: 3 }], extensions: {} }],
    };
    const quoted = judgeGraphql(recording(error), { status: 200, body: error }, { status: 200, body: ours }, state, "");
    expect(quoted).toMatchObject({ statusMatches: true, dataMatches: true, whole: false, quotesOnly: true });
    expect(quoted.differences.map(describeDifference)).toEqual([
      `errors[0].message: NetBox "Cannot query field 'x' on type 'Query'.", ours "Cannot query field \\"x\\" on type \\"Query\\"."`,
    ]);
  });

  it("compares an error's column after a label or a network as any number: NetBox's ids and networks had other lengths", () => {
    const error = (column: number | string) => ({
      data: null,
      errors: [
        {
          message: "x",
          locations: [
            { line: 1, column },
            { line: 1, column: 3 },
          ],
        },
      ],
    });
    expect(looseLocations(error(27), "{ device(id: @11.0) { name ")).toEqual(error("#27"));
    expect(looseLocations(error(27), "{ device(id: 5) { name ")).toEqual(error(27));
  });

  it("keeps a body that is not JSON as text, and counts a deliberate request without an answer as matching", () => {
    expect(recordedBody("Invalid   token\n")).toEqual({ _text: "Invalid token" });
    expect(recordedBody("")).toBeNull();
    const rec = recording({ _text: "Invalid token" }, { status: 403 });
    const text = judgeGraphql(rec, { status: 403, body: rec.answer }, { status: 403, body: { detail: "Invalid token" } }, state, "");
    expect(text).toMatchObject({ statusMatches: true, dataMatches: false, whole: false });
    const skipped = judgeGraphql(rec, { status: 403, body: rec.answer }, { status: 401, body: null }, state, "", {
      why: "x",
      compared: false,
    });
    expect(skipped).toMatchObject({ statusMatches: true, whole: true, deliberate: "x" });
  });
});
