import { registry } from "../../src/apps/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { KINDS } from "../../src/schema/kinds/index.ts";
import { createHarness, ORIGIN, type Cost, type Driver, type Harness } from "./harness.ts";

/** What one model's contract needs: valid objects to create, changes, an invalid object. */
export type ContractSpec = WritableContractSpec | ReadOnlyContractSpec;

/**
 * A model only the engine writes (change records, webhook deliveries): its fixtures make the
 * requests that produce at least two of its rows; the contract checks reads, refusals and costs.
 */
export interface ReadOnlyContractSpec {
  objectType: string;
  readOnly: true;
  fixtures: (api: Harness) => Promise<Record<string, number>>;
}

export interface WritableContractSpec {
  /** `app.model`, as registered. */
  objectType: string;
  /** Creates the objects the model's fields point to; returns their ids by name. */
  fixtures?: (api: Harness) => Promise<Record<string, number>>;
  /** At least four valid, distinct objects. */
  create: (fx: Record<string, number>) => Record<string, unknown>[];
  /** A partial change valid for any one object. */
  patch: Record<string, unknown>;
  /** A change valid for several objects at once. */
  bulkPatch: Record<string, unknown>;
  /** An object that fails validation, with the field its error names. */
  invalid: { body: Record<string, unknown>; field: string };
  /** Objects present before the contract creates any (the superuser, its token). */
  existing?: number;
  /** Input keys that are not echoed back as sent (secrets, references given by attributes). */
  notEchoed?: string[];
}

const BASELINE_FILE = fileURLToPath(new URL("../statement-baseline.json", import.meta.url));
const baseline: Record<string, Record<string, Partial<Cost>>> = existsSync(BASELINE_FILE)
  ? JSON.parse(readFileSync(BASELINE_FILE, "utf8"))
  : {};
const updating = process.env.UPDATE_BASELINE === "1";

/** Compares a measured cost with the pinned baseline (UPDATE_BASELINE=1 rewrites it). */
export function expectBaseline(key: string, endpoint: string, measured: Partial<Cost> & { statements: number; roundTrips: number }) {
  // Writes compile what their values need (each item's statements): their compilations are not a shape's.
  const cost =
    endpoint === "list" || endpoint === "list_brief" || endpoint === "detail" || key === "graphql"
      ? measured
      : { statements: measured.statements, roundTrips: measured.roundTrips };
  if (updating) {
    (baseline[key] ??= {})[endpoint] = cost;
    // Sorted by model, so rows added on different branches merge without conflict.
    const sorted = Object.fromEntries(Object.entries(baseline).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(BASELINE_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
    return;
  }
  expect(baseline[key]?.[endpoint], `no baseline for ${key} ${endpoint}: run UPDATE_BASELINE=1 npx vitest run`).toBeDefined();
  expect(cost).toEqual(baseline[key][endpoint]);
}

/** A value as the API echoes it: a choice as its value, a nested object as its id. */
function echoed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(echoed);
  if (value && typeof value === "object" && "value" in value && "label" in value) return (value as any).value;
  if (value && typeof value === "object" && "id" in value) return (value as any).id;
  return value;
}

function expectEcho(sent: Record<string, unknown>, got: Record<string, unknown>, skip: string[]) {
  for (const [key, value] of Object.entries(sent)) {
    if (skip.includes(key)) continue;
    expect(echoed(got[key]), `field ${key}`).toEqual(value);
  }
}

/**
 * The contract every registered model keeps, in the spirit of NetBox's APIViewTestCase: list,
 * brief, get, create, bulk create, PATCH, PUT, bulk update, delete, bulk delete, 403 without a
 * token, a read-only token refused on writes, OPTIONS choices, all-or-none bulk writes, a change
 * record per object, and a pinned statement count that does not grow with the page size.
 */
export function describeContract(spec: ContractSpec, driver: Driver = "native") {
  if ("readOnly" in spec) return describeReadOnlyContract(spec, driver);
  const model = registry.byObjectType(spec.objectType)!;
  const base = `/api/${model.app}/${model.path}/`;
  const existing = spec.existing ?? 0;
  const skip = spec.notEchoed ?? [];

  describe(`${spec.objectType} contract (${base}, ${driver} driver)`, () => {
    let api: Harness;
    let fx: Record<string, number>;
    let readOnly: string;
    const fresh = async (n = 1) => {
      const objects = spec.create(fx).slice(0, n);
      const reply = await api.post(base, objects);
      expect(reply.status, reply.text).toBe(201);
      return reply.body as Record<string, any>[];
    };
    const count = async () => (await api.get(base)).body.count as number;
    const changesOf = async (requestId: string) =>
      (await api.db.kysely
        .selectFrom("core_objectchange")
        .selectAll()
        .where("request_id", "=", requestId)
        .orderBy("id")
        .execute()) as any[];

    beforeAll(async () => {
      api = await createHarness({}, driver);
      fx = (await spec.fixtures?.(api)) ?? {};
      readOnly = await api.token({ write_enabled: false });
    });
    afterAll(() => api.close());

    it("is registered and its spec has enough distinct objects", () => {
      expect(model).toBeDefined();
      expect(spec.create(fx).length).toBeGreaterThanOrEqual(4);
    });

    it("creates one object: 201, the full representation, and a change record", async () => {
      const before = await count();
      const sent = spec.create(fx)[0];
      const reply = await api.post(base, sent);
      expect(reply.status, reply.text).toBe(201);
      expectEcho(sent, reply.body, skip);
      expect(reply.body.url).toBe(`${ORIGIN}${base}${reply.body.id}/`);
      expect(typeof reply.body.display).toBe("string");
      expect(await count()).toBe(before + 1);
      const changes = await changesOf(reply.headers.get("X-Request-ID")!);
      expect(changes.map((c) => [c.action, c.changed_object_type, c.changed_object_id])).toEqual([
        ["create", spec.objectType, reply.body.id],
      ]);
      await api.delete(`${base}${reply.body.id}/`);
    });

    it("creates a list of objects in the order given, one change record each", async () => {
      const sent = spec.create(fx).slice(0, 3);
      const reply = await api.post(base, sent);
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toHaveLength(3);
      sent.forEach((object, i) => expectEcho(object, reply.body[i], skip));
      expect((await changesOf(reply.headers.get("X-Request-ID")!)).length).toBe(3);
      await api.delete(
        base,
        reply.body.map((o: any) => ({ id: o.id })),
      );
    });

    it("lists objects with count, next, previous and an Allow header", async () => {
      const made = await fresh(3);
      const reply = await api.get(`${base}?limit=2`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get("Allow")).toContain("POST");
      expect(reply.body.count).toBe(existing + 3);
      expect(reply.body.results).toHaveLength(2);
      expect(reply.body.previous).toBeNull();
      expect(reply.body.next).toBe(`${ORIGIN}${base}?limit=2&offset=2`);
      const fields = model.fields.filter((f) => !f.writeOnly).map((f) => f.nestedAs ?? f.name);
      expect(Object.keys(reply.body.results[0])).toEqual(expect.arrayContaining(["id", "url", "display", ...fields]));
      await api.delete(
        base,
        made.map((o) => ({ id: o.id })),
      );
    });

    it("gives the brief form with ?brief=1, on lists and single objects", async () => {
      const [made] = await fresh();
      // A generic relation gives its type and id beside the object.
      const briefKeys = model.briefFields.flatMap((f) => (f.kind === "generic" ? [`${f.name}_type`, `${f.name}_id`, f.name] : [f.name]));
      const expected = ["id", "url", "display", ...briefKeys].sort();
      const list = await api.get(`${base}?brief=1`);
      for (const result of list.body.results) expect(Object.keys(result).sort()).toEqual(expected);
      const one = await api.get(`${base}${made.id}/?brief=true`);
      expect(Object.keys(one.body).sort()).toEqual(expected);
      await api.delete(`${base}${made.id}/`);
    });

    it("retrieves one object, and 404 for an unknown id", async () => {
      const [made] = await fresh();
      const reply = await api.get(`${base}${made.id}/`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(made);
      const missing = await api.get(`${base}999999/`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: `No ${model.className} matches the given query.` });
      await api.delete(`${base}${made.id}/`);
    });

    it("PATCH changes only the fields sent and records the change", async () => {
      const [made] = await fresh();
      const reply = await api.patch(`${base}${made.id}/`, spec.patch);
      expect(reply.status, reply.text).toBe(200);
      expectEcho(spec.patch, reply.body, skip);
      for (const key of Object.keys(made)) {
        if (!(key in spec.patch) && key !== "last_updated" && !skip.includes(key)) expect(reply.body[key], key).toEqual(made[key]);
      }
      expect((await api.get(`${base}${made.id}/`)).body).toEqual(reply.body);
      const [change] = await changesOf(reply.headers.get("X-Request-ID")!);
      expect(change.action).toBe("update");
      expect(JSON.parse(change.prechange_data)).not.toEqual(JSON.parse(change.postchange_data));
      await api.delete(`${base}${made.id}/`);
    });

    it("PUT requires the mandatory fields and replaces what it is given", async () => {
      const [made] = await fresh();
      const full = { ...spec.create(fx)[3], ...spec.patch };
      const reply = await api.put(`${base}${made.id}/`, full);
      expect(reply.status, reply.text).toBe(200);
      expectEcho(full, reply.body, skip);
      const required = model.fields.filter((f) => f.required && !f.readOnly);
      if (required.length) {
        const partial = await api.put(`${base}${made.id}/`, {});
        expect(partial.status).toBe(400);
        // A field is written under its input keys (a generic relation's `_type` and `_id`).
        for (const f of required) {
          for (const key of Object.keys(KINDS[f.kind].input!.inputs(f)))
            expect(partial.body[key], key).toEqual(["This field is required."]);
        }
      }
      await api.delete(`${base}${made.id}/`);
    });

    it("bulk PATCH updates every listed object", async () => {
      const made = await fresh(3);
      const reply = await api.patch(
        base,
        made.map((o) => ({ id: o.id, ...spec.bulkPatch })),
      );
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.map((o: any) => o.id)).toEqual(made.map((o) => o.id));
      for (const o of reply.body) expectEcho(spec.bulkPatch, o, skip);
      await api.delete(
        base,
        made.map((o) => ({ id: o.id })),
      );
    });

    it("bulk writes are all or none: one bad item fails the request and changes nothing", async () => {
      const before = await count();
      const created = await api.post(base, [spec.create(fx)[0], spec.invalid.body]);
      expect(created.status).toBe(400);
      expect(created.body[0]).toEqual({});
      expect(created.body[1][spec.invalid.field]).toBeDefined();
      expect(await count()).toBe(before);

      const made = await fresh(2);
      const patched = await api.patch(base, [
        { id: made[0].id, ...spec.bulkPatch },
        { id: made[1].id, ...spec.invalid.body },
      ]);
      expect(patched.status).toBe(400);
      expect(patched.body[0]).toEqual({});
      expect((await api.get(`${base}${made[0].id}/`)).body).toEqual(made[0]);

      const deleted = await api.delete(base, [{ id: made[0].id }, { name: "no id" }]);
      expect(deleted.status).toBe(400);
      expect(deleted.body).toEqual([{}, { id: ["This field is required."] }]);
      expect(await count()).toBe(before + 2);
      await api.delete(
        base,
        made.map((o) => ({ id: o.id })),
      );
    });

    it("DELETE of one object: 204 with an empty body, then 404", async () => {
      const [made] = await fresh();
      const reply = await api.delete(`${base}${made.id}/`);
      expect(reply.status).toBe(204);
      expect(reply.text).toBe("");
      expect((await api.get(`${base}${made.id}/`)).status).toBe(404);
      const [change] = await changesOf(reply.headers.get("X-Request-ID")!);
      expect([change.action, change.changed_object_id, change.postchange_data]).toEqual(["delete", made.id, null]);
    });

    it("bulk DELETE removes every listed object", async () => {
      const before = await count();
      const made = await fresh(3);
      const reply = await api.delete(
        base,
        made.map((o) => ({ id: o.id })),
      );
      expect(reply.status).toBe(204);
      expect(await count()).toBe(before);
    });

    it("refuses every request without a token with 403", async () => {
      const [made] = await fresh();
      const detail = { detail: "Authentication credentials were not provided." };
      for (const [method, path, body] of [
        ["GET", base],
        ["GET", `${base}${made.id}/`],
        ["POST", base, spec.create(fx)[1]],
        ["PATCH", `${base}${made.id}/`, spec.patch],
        ["DELETE", `${base}${made.id}/`],
      ] as const) {
        const reply = await api.request(method, path, { token: null, body });
        expect(reply.status, `${method} ${path}`).toBe(403);
        expect(reply.body).toEqual(detail);
      }
      expect((await api.get(`${base}${made.id}/`)).body).toEqual(made);
      await api.delete(`${base}${made.id}/`);
    });

    it("lets a read-only token read but refuses its writes", async () => {
      const [made] = await fresh();
      expect((await api.get(base, { token: readOnly })).status).toBe(200);
      const denied = { detail: "You do not have permission to perform this action." };
      for (const reply of [
        await api.post(base, spec.create(fx)[1], { token: readOnly }),
        await api.patch(`${base}${made.id}/`, spec.patch, { token: readOnly }),
        await api.delete(`${base}${made.id}/`, undefined, { token: readOnly }),
      ]) {
        expect(reply.status).toBe(403);
        expect(reply.body).toEqual(denied);
      }
      expect((await api.get(`${base}${made.id}/`)).body).toEqual(made);
      await api.delete(`${base}${made.id}/`);
    });

    it("describes itself on OPTIONS, with the choices of every choice field", async () => {
      const reply = await api.request("OPTIONS", base);
      expect(reply.status).toBe(200);
      const post = reply.body.actions.POST;
      for (const field of model.fields) {
        expect(post[field.nestedAs ?? field.name], field.name).toBeDefined();
        if (field.kind === "choice") {
          expect(post[field.name].choices).toEqual(field.choices!.map((c) => ({ value: c.value, display_name: c.label })));
        }
      }
      const readOnlyReply = await api.request("OPTIONS", base, { token: readOnly });
      expect(readOnlyReply.body.actions).toBeUndefined();
    });

    it("filters by every declared field: the value finds the object, __n excludes it", async () => {
      const [made] = await fresh();
      const ids = async (query: string) => {
        const reply = await api.get(`${base}?${query}&limit=0`);
        expect(reply.status, `${query}: ${reply.text}`).toBe(200);
        return reply.body.results.map((o: any) => o.id);
      };
      let checked = 0;
      for (const field of model.fields) {
        const value = made[field.name];
        let query: string | undefined;
        // A flat fk reads as the bare id (a saved filter's `user`).
        if (field.kind === "fk" && value) query = `${field.name}_id=${field.flat ? value : value.id}`;
        else if (field.kind === "choice" && value) query = `${field.name}=${encodeURIComponent(field.bare ? value : value.value)}`;
        else if (field.name === "tags" && value?.length)
          query = `tag=${value[0].slug ?? value[0]}`; // nested tags, or slugs (config contexts)
        else if (
          ["string", "slug", "text", "integer", "float", "boolean"].includes(field.kind) &&
          field.column &&
          value !== null &&
          value !== "" &&
          value !== undefined
        ) {
          query = `${field.name}=${encodeURIComponent(String(value))}`;
        }
        if (!query) continue;
        expect(await ids(query), query).toContain(made.id);
        if (field.kind !== "boolean") expect(await ids(query.replace("=", "__n=")), `${query} negated`).not.toContain(made.id);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
      await api.delete(`${base}${made.id}/`);
    });

    it("costs one round trip per read and two per write, whatever the size, with pinned statements", async () => {
      const key = driver === "native" ? spec.objectType : `${spec.objectType} (${driver})`;
      // Writes to users, groups and tokens move the auth version, so the request after one
      // authenticates afresh (one more round trip); each measure starts from a warm cache.
      const measure = async (fn: () => Promise<unknown>) => {
        await api.get(`${base}?limit=1`);
        return api.cost(fn);
      };
      const made = await fresh(4);
      // The first spec object carries every relation, so its page of one loads every related model.
      const one = await measure(() => api.get(`${base}?id=${made[0].id}`));
      // A read of a shape served before (other values for its id, page and filters) compiles no
      // SQL and sends only statement texts the database has prepared: the warm cost is pinned.
      const again = async (first: string, second: string) => {
        expect((await api.get(first)).status, first).toBe(200);
        return api.work(() => api.get(second));
      };
      const page = await again(`${base}?limit=1`, `${base}?limit=50&offset=0`);
      expect(page.roundTrips).toBe(1);
      expect({ statements: page.statements, roundTrips: page.roundTrips }).toEqual({
        statements: one.statements,
        roundTrips: one.roundTrips,
      });
      expectBaseline(key, "list", page);
      expectBaseline(key, "list_brief", await again(`${base}?brief=1&limit=2`, `${base}?brief=1&limit=3&offset=1`));
      const detail = await again(`${base}${made[1].id}/`, `${base}${made[0].id}/`);
      expect(detail.roundTrips).toBe(1);
      expectBaseline(key, "detail", detail);
      const filtered = await again(`${base}?id=${made[1].id}&limit=5`, `${base}?id=${made[1].id}&limit=5`);
      expect({ compilations: filtered.compilations, newTexts: filtered.newTexts }).toEqual({ compilations: 0, newTexts: 0 });

      let created: Record<string, any>[] = [];
      const single = await measure(async () => (created = [(await api.post(base, spec.create(fx)[4])).body]));
      const bulkUpdate = await measure(() =>
        api.patch(
          base,
          [...made, ...created].map((o) => ({ id: o.id, ...spec.bulkPatch })),
        ),
      );
      const update = await measure(() => api.patch(`${base}${made[0].id}/`, spec.patch));
      // A write with nothing to read first (no uniqueness, no references: an export template's create) takes one.
      for (const write of [single, bulkUpdate, update]) expect(write.roundTrips).toBeLessThanOrEqual(2);
      expectBaseline(key, "create", single);
      expectBaseline(key, "update", update);
      const bulkDelete = await measure(() =>
        api.delete(
          base,
          [...made, ...created].map((o) => ({ id: o.id })),
        ),
      );
      expect(bulkDelete.roundTrips).toBe(2);
      expectBaseline(key, "bulk_delete", bulkDelete);
    });
  });
}

/** The contract of a read-only model: list, brief, detail, 404, 405 on writes, 403 without a token, OPTIONS, pinned costs. */
function describeReadOnlyContract(spec: ReadOnlyContractSpec, driver: Driver) {
  const model = registry.byObjectType(spec.objectType)!;
  const base = `/api/${model.app}/${model.path}/`;
  describe(`${spec.objectType} read-only contract (${base}, ${driver} driver)`, () => {
    let api: Harness;
    beforeAll(async () => {
      api = await createHarness({}, driver);
      await spec.fixtures(api);
      await api.queue.drain();
    });
    afterAll(() => api.close());

    it("lists its rows with every field, the brief form, and one row by id", async () => {
      const list = await api.get(base);
      expect(list.status, list.text).toBe(200);
      expect(list.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
      expect(list.body.count).toBeGreaterThanOrEqual(2);
      const fields = model.fields.filter((f) => !f.writeOnly).map((f) => f.nestedAs ?? f.name);
      expect(Object.keys(list.body.results[0])).toEqual(expect.arrayContaining(["id", "url", "display", ...fields]));
      const brief = await api.get(`${base}?brief=1`);
      expect(Object.keys(brief.body.results[0]).sort()).toEqual(["id", "url", "display", ...model.brief].sort());
      const one = await api.get(`${base}${list.body.results[0].id}/`);
      expect(one.body).toEqual(list.body.results[0]);
      expect((await api.get(`${base}999999/`)).status).toBe(404);
    });

    it("refuses writes with 405, and anonymous reads with 403", async () => {
      const [row] = (await api.get(base)).body.results;
      for (const [method, path] of [
        ["POST", base],
        ["PUT", base],
        ["PATCH", `${base}${row.id}/`],
        ["DELETE", `${base}${row.id}/`],
      ] as const) {
        const reply = await api.request(method, path, { body: method === "DELETE" ? undefined : {} });
        expect(reply.status, `${method} ${path}`).toBe(405);
      }
      expect((await api.get(base, { token: null })).status).toBe(403);
      expect((await api.request("OPTIONS", base)).body.actions).toBeUndefined();
      expect((await api.get(`${base}${row.id}/`)).body).toEqual(row);
    });

    it("costs one round trip per read, whatever the size, with pinned statements", async () => {
      const key = driver === "native" ? spec.objectType : `${spec.objectType} (${driver})`;
      const measure = async (fn: () => Promise<unknown>) => {
        await api.get(`${base}?limit=1`);
        return api.cost(fn);
      };
      const [row] = (await api.get(base)).body.results;
      const one = await measure(() => api.get(`${base}?id=${row.id}`));
      const again = async (first: string, second: string) => {
        expect((await api.get(first)).status, first).toBe(200);
        return api.work(() => api.get(second));
      };
      const page = await again(`${base}?limit=1`, `${base}?limit=50`);
      expect({ statements: page.statements, roundTrips: page.roundTrips }).toEqual({
        statements: one.statements,
        roundTrips: one.roundTrips,
      });
      expect(page.roundTrips).toBe(1);
      expectBaseline(key, "list", page);
      const detail = await again(`${base}${row.id}/`, `${base}${row.id}/`);
      expect(detail.roundTrips).toBe(1);
      expectBaseline(key, "detail", detail);
    });
  });
}
