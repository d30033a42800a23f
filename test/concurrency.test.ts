import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Driver, type Harness } from "./support/harness.ts";

for (const driver of ["native", "client"] as Driver[]) {
  describe(`concurrent writers (${driver} driver)`, () => {
    let api: Harness;
    beforeAll(async () => {
      api = await createHarness({}, driver);
    });
    afterAll(() => api.close());

    it("let exactly one of many identical creates win; the others get a 400, never a 500", async () => {
      const replies = await Promise.all(Array.from({ length: 20 }, () => api.post("/api/extras/tags/", { name: "Race", slug: "race" })));
      expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of replies.filter((r) => r.status !== 201)) {
        expect(r.status, r.text).toBe(400);
        expect(Object.keys(r.body).every((k) => ["name", "slug"].includes(k))).toBe(true);
      }
      expect((await api.get("/api/extras/tags/?slug=race")).body.count).toBe(1);
    });

    it("keep every change and its record when many objects are written at once", async () => {
      const replies = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          api.post("/api/dcim/sites/", { name: `Par ${i}`, slug: `par-${i}`, tags: [{ slug: "race" }] }),
        ),
      );
      expect(replies.every((r) => r.status === 201)).toBe(true);
      const ids = replies.map((r) => r.body.id);
      expect(new Set(ids).size).toBe(25);
      const records = await api.db.kysely
        .selectFrom("core_objectchange")
        .select(["changed_object_id", "request_id"])
        .where("changed_object_type", "=", "dcim.site")
        .where("action", "=", "create")
        .execute();
      const byRequest = new Map(records.map((r) => [r.request_id, r.changed_object_id]));
      for (const r of replies) expect(byRequest.get(r.headers.get("X-Request-ID"))).toBe(r.body.id);
      expect((await api.get("/api/extras/tags/?slug=race")).body.results[0].tagged_items).toBe(25);
    });
  });
}
