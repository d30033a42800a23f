import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";

let api: Harness;
let userId: number;

beforeAll(async () => {
  api = await createHarness({ LOGIN_FAILURE_LIMIT: "5" });
  userId = (await api.post("/api/users/users/", { username: "browser", password: "Browser-pass-1", is_superuser: true })).body.id;
});
afterAll(() => api.close());

/** Logs in with a form post, as the browser does; returns the two cookies. */
async function login(password = "Browser-pass-1") {
  const reply = await api.request("POST", "/login/", {
    token: null, body: `username=browser&password=${encodeURIComponent(password)}&next=/api/dcim/`,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  const set = reply.headers.getSetCookie();
  const value = (name: string) => set.find((c) => c.startsWith(`${name}=`))?.split(";")[0].slice(name.length + 1) ?? "";
  return { reply, set, session: value("sessionid"), csrf: value("csrftoken") };
}

const withCookie = (session: string, csrf?: string, extra: Record<string, string> = {}) => ({
  token: null, headers: { Cookie: `sessionid=${session}; csrftoken=${csrf ?? ""}`, ...(csrf ? { "X-CSRFToken": csrf } : {}), ...extra },
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
      token: null, body: "username=u&password=U-password-123&next=//evil.example/", headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(reply.headers.get("Location")).toBe("/api/");
    other.close();
  });
});
