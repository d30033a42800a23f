import { describe, expect, it } from "vitest";
import { jsonParts, utf8Bytes } from "../src/lib/json-text.ts";
import { bodyOf, json, jsonPayload, TEXT_CHARS, withLength } from "../src/lib/responses.ts";

const text = (value: unknown) => new TextDecoder().decode(utf8Bytes(jsonParts(value)));

/** A row as a page holds it: nested objects, nulls, text beyond ASCII. */
const row = (i: number) => ({
  id: i,
  url: `http://127.0.0.1/api/dcim/interfaces/${i}/`,
  device: { id: i % 7, name: `device-${i % 7}`, description: i % 3 ? "" : "côté «baie» 🚀" },
  type: { value: "1000base-t", label: "1000BASE-T (1GE)" },
  tags: i % 5 ? [] : [{ id: 1, name: "edge" }],
  mtu: null,
  enabled: i % 2 === 0,
  custom_fields: {},
  skipped: undefined,
  padding: "x".repeat(i % 400),
});

describe("JSON text in parts", () => {
  it("joins to JSON.stringify's text for pages, bulk answers, GraphQL answers and small objects", () => {
    const rows = Array.from({ length: 2500 }, (_, i) => row(i));
    const values: unknown[] = [
      { count: 2500, next: "http://127.0.0.1/api/dcim/interfaces/?limit=1000&offset=1000", previous: null, results: rows },
      rows,
      { data: { device_list: rows.slice(0, 300), other: { nested: rows.slice(0, 40) } } },
      row(3),
      { count: 0, next: null, previous: null, results: [] },
      [],
      "text",
      Array.from({ length: 40 }, (_, i) => (i % 2 ? undefined : () => i)),
      { a: undefined, b: () => 1, c: Array.from({ length: 33 }, () => new Date(0)) },
    ];
    for (const value of values) expect(text(value)).toBe(JSON.stringify(value));
  });

  it("splits a long page into many parts, none far beyond the size it aims at, and leaves a small answer whole", () => {
    const rows = Array.from({ length: 2500 }, (_, i) => row(i));
    const parts = jsonParts({ count: 2500, next: null, previous: null, results: rows });
    expect(parts.length).toBeGreaterThan(20);
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThan(128 * 1024);
    expect(jsonParts(row(1))).toHaveLength(1);
    expect(jsonParts({ count: 3, next: null, previous: null, results: rows.slice(0, 3) })).toHaveLength(1);
  });

  it("encodes text beyond ASCII in any part, growing its buffer as it needs", () => {
    const wide = Array.from({ length: 64 }, (_, i) => ({ i, s: "€".repeat(3000) + "𝄞".repeat(i) }));
    const ascii = Array.from({ length: 64 }, (_, i) => ({ i, s: "a".repeat(3000) }));
    for (const value of [wide, [...ascii, ...wide], [...wide, ...ascii]]) {
      const bytes = utf8Bytes(jsonParts(value));
      expect(bytes).toEqual(new TextEncoder().encode(JSON.stringify(value)));
    }
  });
});

describe("an answer from parts already in bytes (a page read as bytes)", () => {
  it("is the parts' text as bytes, short or long, and uses up the bytes it was given", () => {
    const encode = (t: string) => new TextEncoder().encode(t);
    for (const page of ['{"a":"côté"},{"b":2}', `{"long":"${"é".repeat(TEXT_CHARS)}"}`]) {
      const bytes = encode(page);
      const payload = jsonPayload(['{"results":[', bytes, "]}"]);
      expect(payload).toBeInstanceOf(Uint8Array);
      expect(JSON.parse(new TextDecoder().decode(payload as Uint8Array))).toEqual({ results: JSON.parse(`[${page}]`) });
      // Released once copied: its memory is not left for the collector.
      expect((bytes.buffer as ArrayBuffer & { detached: boolean }).detached).toBe(true);
    }
    // Bytes within a larger buffer are copied and left as they were.
    const shared = encode('xx{"c":3}xx');
    const view = shared.subarray(2, 9);
    expect(new TextDecoder().decode(jsonPayload(["[", view, "]"]) as Uint8Array)).toBe('[{"c":3}]');
    expect(shared.byteLength).toBe(11);
    // Text alone stays text while short.
    expect(jsonPayload(["[", "1", "]"])).toBe("[1]");
  });
});

describe("a JSON response of a long answer", () => {
  it("reads back as the answer through the web API and through its bytes, and as bytes again for Workers and Deno", async () => {
    const page = { count: 300, next: null, previous: null, results: Array.from({ length: 300 }, (_, i) => row(i)) };
    const expected = JSON.parse(JSON.stringify(page));
    const viaStream = json(page, 200, { Allow: "GET" });
    expect(viaStream.headers.get("content-type")).toBe("application/json");
    expect(await viaStream.json()).toEqual(expected);
    expect(bodyOf(viaStream)).toBeUndefined();

    const viaBytes = json(page);
    const bytes = bodyOf(viaBytes);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(JSON.parse(new TextDecoder().decode(bytes as Uint8Array))).toEqual(expected);

    const sent = withLength(json(page, 201));
    expect(sent.status).toBe(201);
    expect(await sent.json()).toEqual(expected);
    // A page under 16 K characters, though written in parts, is text, as is a short answer: they go out as they are.
    const mid = { count: 40, next: null, previous: null, results: Array.from({ length: 40 }, (_, i) => row(i)) };
    expect(jsonParts(mid).length).toBeGreaterThan(1);
    expect(JSON.stringify(mid).length).toBeLessThan(16 * 1024);
    expect(bodyOf(json(mid))).toBe(JSON.stringify(mid));
    // From 16 K characters on, an answer is bytes, whether in parts (a page of 50 sites) or one part (an object with a long text).
    const fifty = { count: 60, next: null, previous: null, results: Array.from({ length: 60 }, (_, i) => row(i)) };
    expect(JSON.stringify(fifty).length).toBeGreaterThanOrEqual(16 * 1024);
    const long = { id: 1, comments: "é".repeat(16 * 1024) };
    expect(jsonParts(long)).toHaveLength(1);
    for (const value of [fifty, long]) {
      const made = bodyOf(json(value));
      expect(made).toBeInstanceOf(Uint8Array);
      expect(new TextDecoder().decode(made as Uint8Array)).toBe(JSON.stringify(value));
    }
    const short = json({ detail: "Not found." }, 404);
    expect(bodyOf(short)).toBe('{"detail":"Not found."}');
    expect(withLength(short)).toBe(short);
  });
});
