import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";

it("GET /api/", async () => {
  const res = await exports.default.fetch("http://inventory.test/api/");
  console.log(res.status, [...res.headers], await res.text());
  expect(res.status).toBe(200);
});
