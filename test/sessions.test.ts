import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registry } from "../src/apps/index.ts";
import { createHarness, type Harness } from "./support/harness.ts";

let api: Harness;
let userId: number;
let secureSlugs = 0;

beforeAll(async () => {
  api = await createHarness({ LOGIN_FAILURE_LIMIT: "5" });
  userId = (await api.post("/api/users/users/", { username: "browser", password: "Browser-pass-1", is_superuser: true })).body.id;
});
afterAll(() => api.close());

/** Logs in with a form post, as the browser does; returns the two cookies. */
async function login(password = "Browser-pass-1") {
  const reply = await api.request("POST", "/login/", {
    token: null,
    body: `username=browser&password=${encodeURIComponent(password)}&next=/api/dcim/`,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  const set = reply.headers.getSetCookie();
  const value = (name: string) =>
    set
      .find((c) => c.startsWith(`${name}=`))
      ?.split(";")[0]
      .slice(name.length + 1) ?? "";
  return { reply, set, session: value("sessionid"), csrf: value("csrftoken") };
}

const withCookie = (session: string, csrf?: string, extra: Record<string, string> = {}) => ({
  token: null,
  headers: { Cookie: `sessionid=${session}; csrftoken=${csrf ?? ""}`, ...(csrf ? { "X-CSRFToken": csrf } : {}), ...extra },
});

describe("browser sessions", () => {
  it("log in with a signed, HttpOnly, SameSite=Lax cookie and a CSRF cookie, and go to next", async () => {
    const { reply, set, session, csrf } = await login();
    expect(reply.status).toBe(302);
    expect(reply.headers.get("Location")).toBe("/api/dcim/");
    const sessionCookie = set.find((c) => c.startsWith("sessionid="))!;
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/SameSite=Lax/);
    expect(sessionCookie).not.toMatch(/Secure/);
    expect(session).toMatch(/^[0-9a-f]{64}\.[0-9a-f]{64}$/);
    expect(csrf).toMatch(/^[0-9a-f]{64}$/);
    // The key itself is not stored.
    const [rows] = await api.db.batch([{ sql: "SELECT digest FROM users_session", parameters: [] }], "read");
    expect(rows.rows.some((r) => String(r.digest).includes(session.split(".")[0]))).toBe(false);
  });

  it("authenticate reads, and unsafe methods only with the CSRF token", async () => {
    const { session, csrf } = await login();
    expect((await api.get("/api/dcim/sites/", withCookie(session))).status).toBe(200);
    const missing = await api.post("/api/tenancy/tenants/", { name: "A", slug: "a" }, withCookie(session));
    expect(missing).toMatchObject({ status: 403, body: { detail: "CSRF Failed: CSRF token missing." } });
    const wrong = await api.post("/api/tenancy/tenants/", { name: "A", slug: "a" }, withCookie(session, "0".repeat(64)));
    expect(wrong).toMatchObject({ status: 403, body: { detail: "CSRF Failed: CSRF token incorrect." } });
    expect((await api.post("/api/tenancy/tenants/", { name: "A", slug: "a" }, withCookie(session, csrf))).status).toBe(201);
    // Token clients never need it.
    expect((await api.post("/api/tenancy/tenants/", { name: "B", slug: "b" })).status).toBe(201);
  });

  it("refuse cookie-authenticated writes from another origin, even with a valid CSRF token", async () => {
    const { session, csrf } = await login();
    const create = (slug: string, extra: Record<string, string>) =>
      api.post("/api/tenancy/tenants/", { name: slug, slug }, withCookie(session, csrf, extra));
    const foreign = await create("o1", { Origin: "https://evil.example" });
    expect(foreign).toMatchObject({
      status: 403,
      body: { detail: "CSRF Failed: Origin checking failed - https://evil.example does not match any trusted origins." },
    });
    // Same host, other scheme or port: another origin all the same.
    expect((await create("o2", { Origin: "https://inventory.test" })).status).toBe(403);
    expect((await create("o3", { Origin: "http://inventory.test:8080" })).status).toBe(403);
    expect((await create("o4", { Origin: "null" })).status).toBe(403);
    // Without Origin, the Referer speaks for the page.
    const referred = await create("o5", { Referer: "https://evil.example/page" });
    expect(referred).toMatchObject({
      status: 403,
      body: { detail: "CSRF Failed: Referer checking failed - https://evil.example/page does not match any trusted origins." },
    });
    expect((await create("o6", { Referer: "not a url" })).status).toBe(403);
    // Nor may another site end the session.
    expect((await api.request("POST", "/logout/", withCookie(session, csrf, { Origin: "https://evil.example" }))).status).toBe(403);
    expect((await api.get("/api/dcim/sites/", withCookie(session))).status).toBe(200);
    const refused = await api.get("/api/tenancy/tenants/?slug=o1&slug=o2&slug=o3&slug=o4&slug=o5&slug=o6");
    expect(refused.body.count).toBe(0);
    // This origin, by Origin or by Referer, or neither over http (browsers may send neither there).
    expect((await create("ok1", { Origin: "http://inventory.test" })).status).toBe(201);
    expect((await create("ok2", { Referer: "http://inventory.test/api/tenancy/tenants/" })).status).toBe(201);
    expect((await create("ok3", {})).status).toBe(201);
    // Reads are not checked, and token clients never are.
    expect((await api.get("/api/tenancy/tenants/", withCookie(session, undefined, { Origin: "https://evil.example" }))).status).toBe(200);
    expect(
      (await api.post("/api/tenancy/tenants/", { name: "tok", slug: "tok" }, { headers: { Origin: "https://evil.example" } })).status,
    ).toBe(201);
  });

  it("over https, require a same-origin Origin or a secure same-origin Referer", async () => {
    const { session, csrf } = await login();
    const post = async (headers: Record<string, string>) => {
      const response = await api.app.fetch(
        new Request("https://inventory.test/api/tenancy/tenants/", {
          method: "POST",
          body: JSON.stringify({ name: `s${++secureSlugs}`, slug: `s${secureSlugs}` }),
          headers: {
            "Content-Type": "application/json",
            Cookie: `sessionid=${session}; csrftoken=${csrf}`,
            "X-CSRFToken": csrf,
            ...headers,
          },
        }),
        { db: api.db, clientAddress: "127.0.0.1" },
      );
      return { status: response.status, body: await response.json() };
    };
    expect(await post({})).toMatchObject({ status: 403, body: { detail: "CSRF Failed: Referer checking failed - no Referer." } });
    expect(await post({ Referer: "http://inventory.test/api/" })).toMatchObject({
      status: 403,
      body: { detail: "CSRF Failed: Referer checking failed - Referer is insecure while host is secure." },
    });
    expect((await post({ Origin: "http://inventory.test" })).status).toBe(403);
    expect((await post({ Origin: "https://inventory.test" })).status).toBe(201);
    expect((await post({ Referer: "https://inventory.test/api/tenancy/tenants/" })).status).toBe(201);
  });

  it("read every model's list as a token reads it, the same objects in the same shape", async () => {
    // A site whose custom field names a site: its object is nested in the same statement.
    const site = (await api.post("/api/dcim/sites/", { name: "S1", slug: "s1" })).body;
    await api.post("/api/extras/custom-fields/", {
      name: "peer",
      type: "object",
      object_types: ["dcim.site"],
      related_object_type: "dcim.site",
    });
    await api.patch(`/api/dcim/sites/${site.id}/`, { custom_fields: { peer: site.id } });
    const { session } = await login();
    for (const model of registry.models) {
      const path = `/api/${model.app}/${model.path}/`;
      const browser = await api.get(path, withCookie(session));
      expect(browser.status, path).toBe(200);
      expect(browser.body, path).toEqual((await api.get(path)).body);
    }
    expect((await api.get(`/api/dcim/sites/${site.id}/`, withCookie(session))).body.custom_fields.peer).toMatchObject({
      id: site.id,
      name: "S1",
    });
  });

  it("refuse a forged or tampered cookie", async () => {
    const { session } = await login();
    const [key] = session.split(".");
    expect((await api.get("/api/dcim/sites/", withCookie(`${key}.${"0".repeat(64)}`))).status).toBe(403);
    expect((await api.get("/api/dcim/sites/", withCookie(`${"a".repeat(64)}.${session.split(".")[1]}`))).status).toBe(403);
  });

  it("end on logout, on a password change and on deactivation", async () => {
    const first = await login();
    const out = await api.request("POST", "/logout/", withCookie(first.session, first.csrf));
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().find((c) => c.startsWith("sessionid="))).toMatch(/Max-Age=0/);
    expect((await api.get("/api/dcim/sites/", withCookie(first.session))).status).toBe(403);

    const second = await login();
    await api.patch(`/api/users/users/${userId}/`, { password: "Browser-pass-2" });
    expect((await api.get("/api/dcim/sites/", withCookie(second.session))).status).toBe(403);

    const third = await login("Browser-pass-2");
    await api.patch(`/api/users/users/${userId}/`, { is_active: false });
    expect((await api.get("/api/dcim/sites/", withCookie(third.session))).status).toBe(403);
    await api.patch(`/api/users/users/${userId}/`, { is_active: true });
  });

  it("refuse bad credentials like provisioning does, and throttle guessing", async () => {
    const bad = await api.request("POST", "/login/", { token: null, body: { username: "browser", password: "nope" } });
    expect(bad).toMatchObject({ status: 403, body: { detail: "Invalid username/password" } });
    for (let i = 0; i < 5; i++) await api.request("POST", "/login/", { token: null, body: { username: "browser", password: `nope${i}` } });
    const locked = await api.request("POST", "/login/", { token: null, body: { username: "browser", password: "Browser-pass-2" } });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("Retry-After")).toBeTruthy();
  });

  it("never redirect after login to another origin", async () => {
    const other = await createHarness();
    await other.post("/api/users/users/", { username: "u", password: "U-password-123" });
    const reply = await other.request("POST", "/login/", {
      token: null,
      body: "username=u&password=U-password-123&next=//evil.example/",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(reply.headers.get("Location")).toBe("/api/");
    other.close();
  });
});
