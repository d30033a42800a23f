import { describe, expect, it } from "vitest";
import { costBook, LIGHT_BYTES, LIGHT_MS, readShape, RESAMPLE, SLOW_HERE_MS } from "../src/runtime/request-costs.ts";

describe("the shape of a read, for where the Node server serves it", () => {
  it("is one for reads that differ only in ids and filter values, another when the page's size differs", () => {
    expect(readShape("GET", "/api/dcim/sites/12/")).toBe(readShape("GET", "/api/dcim/sites/7/"));
    expect(readShape("GET", "/api/dcim/devices/?tenant=acme&limit=50&offset=100")).toBe(
      readShape("GET", "/api/dcim/devices/?offset=0&limit=50&tenant=other"),
    );
    expect(readShape("GET", "/api/dcim/sites/?limit=50")).not.toBe(readShape("GET", "/api/dcim/sites/?limit=1000"));
    expect(readShape("GET", "/api/dcim/sites/?brief=1")).not.toBe(readShape("GET", "/api/dcim/sites/"));
    expect(readShape("GET", "/api/dcim/sites/?exclude=config_context")).not.toBe(readShape("GET", "/api/dcim/sites/?exclude=tags"));
    expect(readShape("GET", "/api/dcim/sites/1/")).not.toBe(readShape("GET", "/api/dcim/sites/"));
    expect(readShape("GET", "/api/ipam/prefixes/4/available-ips/")).toBe(readShape("GET", "/api/ipam/prefixes/9/available-ips/"));
    expect(readShape("HEAD", "/api/dcim/sites/1/")).not.toBe(readShape("GET", "/api/dcim/sites/1/"));
  });

  it("is none for a write, which always goes to an app thread", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) expect(readShape(method, "/api/dcim/sites/1/")).toBeNull();
  });
});

/** How many app-thread measurements of `ms` it takes before shape "a" is served as light again. */
function measuredUntilLight(book: ReturnType<typeof costBook>, ms: number): number {
  let measured = 0;
  while (!book.light("a")) {
    book.record("a", ms);
    measured++;
  }
  return measured;
}

describe("the book of what reads cost", () => {
  it("sends a shape never measured to an app thread, and one measured light to the HTTP thread", () => {
    const book = costBook();
    expect(book.light("a")).toBe(false);
    book.record("a", LIGHT_MS / 4);
    expect(book.light("a")).toBe(true);
    book.record("b", LIGHT_MS * 30);
    expect(book.light("b")).toBe(false);
  });

  it("keeps a shape whose answers are long on app threads however quick, until its answers are short again", () => {
    const book = costBook();
    book.record("a", LIGHT_MS / 10, LIGHT_BYTES * 1.5);
    expect(book.light("a")).toBe(false);
    book.record("b", LIGHT_MS / 10, LIGHT_BYTES / 2);
    expect(book.light("b")).toBe(true);
    let measured = 0;
    while (!book.light("a")) {
      book.record("a", LIGHT_MS / 10, LIGHT_BYTES / 10);
      measured++;
    }
    expect(measured).toBeGreaterThan(1);
    expect(measured).toBeLessThan(10);
  });

  it("follows a shape's latest measurements: a cold first read is outgrown, a shape grown heavy leaves", () => {
    const book = costBook();
    book.record("a", 40 * LIGHT_MS);
    const measured = 1 + measuredUntilLight(book, LIGHT_MS / 10);
    expect(measured).toBeGreaterThan(2);
    expect(measured).toBeLessThan(20);
    book.record("a", 10 * LIGHT_MS);
    expect(book.light("a")).toBe(false);
  });

  it("measures a light shape again on an app thread once in RESAMPLE reads", () => {
    const book = costBook();
    book.record("a", LIGHT_MS / 2);
    const choices = Array.from({ length: 4 * RESAMPLE }, () => book.light("a"));
    expect(choices.filter((light) => !light)).toHaveLength(4);
  });

  it("sends a light shape back to app threads when a read of it ran long on the HTTP thread, until measured light again", () => {
    const book = costBook();
    book.record("a", LIGHT_MS / 4);
    book.servedHere("a", SLOW_HERE_MS / 2);
    expect(book.light("a")).toBe(true);
    book.servedHere("a", SLOW_HERE_MS * 2);
    expect(book.light("a")).toBe(false);
    const measured = measuredUntilLight(book, LIGHT_MS / 4);
    expect(measured).toBeGreaterThan(3);
    expect(measured).toBeLessThan(20);
  });
});
