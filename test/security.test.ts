import { registry } from "../src/apps/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WritableContractSpec } from "./support/contract.ts";
import { createHarness, type Harness } from "./support/harness.ts";
import { allSpecs } from "./support/specs.ts";

/**
 * The security suite: every registered model (from its contract row) and every extra route it
 * declares, against every way a request can be refused. Models DEFAULT_PERMISSIONS opens to every
 * user (tokens: their own) skip the checks that assume a user holds nothing.
 */
const NO_CREDENTIALS = { detail: "Authentication credentials were not provided." };
const FORBIDDEN = { detail: "You do not have permission to perform this action." };
const openByDefault = new Set(["users.token", "extras.bookmark", "extras.notification", "extras.subscription"]);

/** A scalar change from the spec's bulk patch, to leave a constraint with (null when it has none). */
function scalarChange(spec: WritableContractSpec): [string, string | number | boolean] | null {
  const model = registry.byObjectType(spec.objectType)!;
  for (const [key, value] of Object.entries(spec.bulkPatch)) {
    const field = model.field[key];
    if (
      field &&
      ["string", "text", "choice", "boolean", "integer", "float"].includes(field.kind) &&
      value !== null &&
      typeof value !== "object"
    ) {
      return [key, value as string | number | boolean];
    }
  }
  return null;
}

const writable = allSpecs.filter((s): s is WritableContractSpec => !("readOnly" in s));

for (const spec of allSpecs.filter((s) => "readOnly" in s)) {
  const model = registry.byObjectType(spec.objectType)!;
  const base = `/api/${model.app}/${model.path}/`;
  describe(`${spec.objectType} security (read-only model)`, () => {
    let api: Harness;
    beforeAll(async () => {
      api = await createHarness();
      await spec.fixtures?.(api);
    });
    afterAll(() => api.close());

    it("refuses reads without a token or without permission, and every write", async () => {
      expect((await api.get(base, { token: null })).body).toEqual(NO_CREDENTIALS);
      const plain = await api.token({ superuser: false });
      expect((await api.get(base, { token: plain })).body).toEqual(FORBIDDEN);
      expect((await api.post(base, {}, { token: plain })).status).toBe(405);
    });
  });
}

for (const spec of writable) {
  const model = registry.byObjectType(spec.objectType)!;
  const base = `/api/${model.app}/${model.path}/`;

  describe(`${spec.objectType} security`, () => {
    let api: Harness;
    let ids: number[];
    let fx: Record<string, number>;
    let userId: number;
    let plain: string;
    let users = 0;
    /** A user of its own for a check, so the permissions of one check do not add up with another's. */
    const freshUser = async () => {
      plain = await api.token({ superuser: false, username: `plain${++users}` });
      userId = (await api.get(`/api/users/users/?username=plain${users}`)).body.results[0].id;
    };
    const as = (token: string | null, extra: Record<string, unknown> = {}) => ({ token, ...extra });
    const detail = (id: number) => `${base}${id}/`;
    const grant = (actions: string[], constraints: unknown) =>
      api.post("/api/users/permissions/", {
        name: `${actions.join("-")} ${Math.random()}`,
        object_types: [spec.objectType],
        actions,
        constraints,
        users: [userId],
      });

    beforeAll(async () => {
      api = await createHarness();
      fx = (await spec.fixtures?.(api)) ?? {};
      const created = await api.post(base, spec.create(fx).slice(0, 3));
      if (created.status !== 201) throw new Error(`${base}: ${created.text}`);
      ids = created.body.map((o: { id: number }) => o.id);
      await freshUser();
    });
    afterAll(() => api.close());

    it("refuses requests without a token, with an unknown or expired token, or from a refused address", async () => {
      for (const [method, path] of [
        ["GET", base],
        ["GET", detail(ids[0])],
        ["POST", base],
        ["PATCH", detail(ids[0])],
        ["DELETE", detail(ids[0])],
      ]) {
        const reply = await api.request(method, path, as(null, method === "POST" || method === "PATCH" ? { body: {} } : {}));
        expect(reply.status, `${method} ${path}`).toBe(403);
        expect(reply.body).toEqual(NO_CREDENTIALS);
      }
      expect((await api.get(base, as("f".repeat(40)))).body).toEqual({ detail: "Invalid token" });
      const expiring = await api.post("/api/users/tokens/", { description: "expiring" });
      await api.db.batch(
        [{ sql: "UPDATE users_token SET expires = '2001-01-01T00:00:00Z' WHERE id = ?", parameters: [expiring.body.id] }],
        "write",
      );
      expect((await api.get(base, as(expiring.body.key))).body).toEqual({ detail: "Token expired" });
      const bound = await api.post("/api/users/tokens/", { allowed_ips: ["192.0.2.0/24"] });
      const refused = await api.get(base, as(bound.body.key, { clientAddress: "198.51.100.7" }));
      expect(refused).toMatchObject({
        status: 403,
        body: { detail: "Source IP 198.51.100.7 is not permitted to authenticate using this token." },
      });
      expect((await api.get(base, as(bound.body.key, { clientAddress: "192.0.2.7" }))).status).toBe(200);
    });

    it("refuses every write method to a read-only token", async () => {
      const readOnly = await api.token({ write_enabled: false });
      const before = (await api.get(base)).body.count;
      for (const [method, path, body] of [
        ["POST", base, spec.create({})[0]],
        ["PUT", detail(ids[0]), {}],
        ["PATCH", detail(ids[0]), spec.patch],
        ["DELETE", detail(ids[0]), undefined],
        ["PATCH", base, [{ id: ids[0], ...spec.bulkPatch }]],
        ["DELETE", base, [{ id: ids[0] }]],
      ] as const) {
        const reply = await api.request(method, path, as(readOnly, { body }));
        expect(reply.status, `${method} ${path}`).toBe(403);
        expect(reply.body).toEqual(FORBIDDEN);
      }
      expect((await api.get(base)).body.count).toBe(before);
    });

    it.skipIf(openByDefault.has(spec.objectType))("refuses a user without permission with 403", async () => {
      for (const [method, path, body] of [
        ["GET", base, undefined],
        ["GET", detail(ids[0]), undefined],
        ["POST", base, spec.create({})[0]],
        ["PATCH", detail(ids[0]), spec.patch],
        ["DELETE", detail(ids[0]), undefined],
      ] as const) {
        const reply = await api.request(method, path, as(plain, { body }));
        expect(reply.status, `${method} ${path}`).toBe(403);
        expect(reply.body).toEqual(FORBIDDEN);
      }
    });

    it.skipIf(openByDefault.has(spec.objectType))(
      "limits a constrained user to the permitted objects, at no extra round trip",
      async () => {
        const [a, b, c] = ids;
        expect((await grant(["view", "change", "delete"], { id__in: [a, b] })).status).toBe(201);
        const list = await api.get(base, as(plain));
        expect(list.status, list.text).toBe(200);
        expect(list.body.count).toBe(2);
        expect(list.body.results.map((o: { id: number }) => o.id).sort()).toEqual([a, b].sort());
        expect((await api.get(detail(c), as(plain))).status).toBe(404);
        expect((await api.patch(detail(c), spec.patch, as(plain))).status).toBe(404);
        expect((await api.delete(detail(c), undefined, as(plain))).status).toBe(404);
        expect((await api.get(detail(c))).status).toBe(200);
        const patched = await api.patch(detail(a), spec.patch, as(plain));
        expect(patched.status, patched.text).toBe(200);
        // Extra routes below an object hide it the same way.
        for (const route of model.routes.filter((r) => r.detail && r.methods.includes("GET"))) {
          expect((await api.get(`${detail(c)}${route.name}/`, as(plain))).status, route.name).toBe(404);
          expect((await api.get(`${detail(a)}${route.name}/`, as(plain))).status, route.name).not.toBe(404);
        }

        await api.get(base);
        await api.get(base, as(plain));
        const superuser = await api.cost(() => api.get(base));
        const constrained = await api.cost(() => api.get(base, as(plain)));
        expect(constrained.roundTrips).toBe(1);
        expect(constrained).toEqual(superuser);
      },
    );

    it.skipIf(openByDefault.has(spec.objectType))("refuses a create outside the add constraint, all or none", async () => {
      await freshUser();
      expect((await grant(["add"], { id__in: [0] })).status).toBe(201);
      // The objects created name fixtures (a tree's, objects of its own model), which a writer
      // must be able to view to reference.
      const all = registry.models.map((m) => m.objectType);
      expect(
        (
          await api.post("/api/users/permissions/", {
            name: `view ${Math.random()}`,
            object_types: all,
            actions: ["view"],
            users: [userId],
          })
        ).status,
      ).toBe(201);
      const before = (await api.get(base)).body.count;
      const objects = spec.create(fx).slice(3, 5);
      expect((await api.post(base, objects[0], as(plain))).status).toBe(403);
      expect((await api.post(base, objects, as(plain))).status).toBe(403);
      expect((await api.get(base)).body.count).toBe(before);
    });

    const change = scalarChange(spec);
    it.skipIf(openByDefault.has(spec.objectType) || change === null)(
      "refuses a change that leaves the constraint, all or none",
      async () => {
        const [key, value] = change!;
        const [a, b] = ids;
        const current = (await api.get(detail(a))).body[key];
        if (current === value || (current && typeof current === "object" && current.value === value)) return;
        await freshUser();
        expect((await grant(["view", "change"], { id__in: [a, b], [`${key}__n`]: value })).status).toBe(201);
        expect((await api.patch(detail(a), { [key]: value }, as(plain))).status).toBe(403);
        expect(
          (
            await api.patch(
              base,
              [
                { id: b, description: undefined },
                { id: a, [key]: value },
              ],
              as(plain),
            )
          ).status,
        ).toBe(403);
        const after = (await api.get(detail(a))).body[key];
        expect(after).toEqual(current);
      },
    );

    for (const route of model.routes) {
      it(`refuses ${route.name}/ without credentials`, async () => {
        const below = route.detail ? `${detail(ids[0])}${route.name}/` : `${base}${route.name}/`;
        const path = route.atAppRoot ? `/api/${model.app}/${route.name}/` : below;
        for (const method of route.methods) {
          const reply = await api.request(method, path, as(null, method === "GET" || method === "HEAD" ? {} : { body: {} }));
          if (route.permission === null) expect(reply.status, `${method} ${path}`).not.toBe(200);
          else if (method === "HEAD") expect(reply.status, `${method} ${path}`).toBe(403);
          else expect(reply, `${method} ${path}`).toMatchObject({ status: 403, body: NO_CREDENTIALS });
        }
      });
    }
  });
}

describe("settings that open or close the whole API", () => {
  let exempt: Harness;
  let maintenance: Harness;
  beforeAll(async () => {
    exempt = await createHarness({ EXEMPT_VIEW_PERMISSIONS: "*" });
    maintenance = await createHarness({ MAINTENANCE_MODE: "true" });
  });
  afterAll(() => {
    exempt.close();
    maintenance.close();
  });

  it("EXEMPT_VIEW_PERMISSIONS lets anyone read every model, and nobody write without a token", async () => {
    for (const model of registry.models) {
      const base = `/api/${model.app}/${model.path}/`;
      expect((await exempt.get(base, { token: null })).status, base).toBe(200);
      const write = await exempt.post(base, {}, { token: null });
      if (model.readOnly) expect(write.status, base).toBe(405);
      else expect(write.body, base).toEqual(NO_CREDENTIALS);
    }
  });

  it("MAINTENANCE_MODE refuses every write with 503 and keeps reads", async () => {
    for (const model of registry.models) {
      const base = `/api/${model.app}/${model.path}/`;
      expect((await maintenance.get(base)).status, base).toBe(200);
      const reply = await maintenance.post(base, {});
      if (model.readOnly) {
        expect(reply.status, base).toBe(405);
        continue;
      }
      expect(reply.status, base).toBe(503);
      expect(reply.body.detail).toMatch(/maintenance mode/);
    }
  });
});
