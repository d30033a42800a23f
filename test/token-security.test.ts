import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";

let api: Harness;
beforeAll(async () => {
  api = await createHarness({ TRUSTED_PROXIES: "10.0.0.0/8", LOGIN_FAILURE_LIMIT: "3" });
});
afterAll(() => api.close());

const provision = (username: string, password: string, clientAddress = "192.0.2.10") =>
  api.post("/api/users/tokens/provision/", { username, password }, { token: null, clientAddress });

describe("passwords set through the API", () => {
  it("follow NetBox 4.x's rules: 12 characters, upper, lower and a digit", async () => {
    const short = await api.post("/api/users/users/", { username: "weak", password: "Short1" });
    expect(short.status).toBe(400);
    expect(short.body.non_field_errors).toEqual(["This password is too short. It must contain at least 12 characters."]);
    // The first class missing, in NetBox's order: a numeral, then an upper-case letter.
    const classes = await api.post("/api/users/users/", { username: "weak", password: "alllowercaseletters" });
    expect(classes.body.non_field_errors).toEqual(["Password must have at least one numeral."]);
    expect((await api.post("/api/users/users/", { username: "strong", password: "Correct-horse-1" })).status).toBe(201);
    const id = (await api.get("/api/users/users/?username=strong")).body.results[0].id;
    expect((await api.patch(`/api/users/users/${id}/`, { password: "weak" })).status).toBe(400);
  });

  it("follow the operator's rules when changed", async () => {
    const lax = await createHarness({ PASSWORD_MIN_LENGTH: "4", PASSWORD_CHARACTER_CLASSES: "none" });
    expect((await lax.post("/api/users/users/", { username: "pin", password: "1234" })).status).toBe(201);
    lax.close();
  });
});

describe("provisioning", () => {
  it("gives a token for good credentials and the same 403 for bad ones", async () => {
    await api.post("/api/users/users/", { username: "eve", password: "Eve-password-1" });
    const ok = await provision("eve", "Eve-password-1");
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.key).toMatch(/^[0-9a-f]{40}$/);
    expect((await provision("eve", "wrong")).body).toEqual({ detail: "Invalid username/password" });
    expect((await provision("nobody", "wrong")).body).toEqual({ detail: "Invalid username/password" });
  });

  it("throttles guessing per username and address, and per address, with Retry-After, shared through the database", async () => {
    await api.post("/api/users/users/", { username: "mallory-target", password: "Target-password-1" });
    for (let i = 0; i < 3; i++) expect((await provision("mallory-target", `guess${i}`, "198.51.100.1")).status).toBe(403);
    // The guesser is locked out of that account, even with the right password...
    const locked = await provision("mallory-target", "Target-password-1", "198.51.100.1");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(locked.body.detail).toMatch(/Too many failed attempts/);
    // ...but not the owner, from another address.
    expect((await provision("mallory-target", "Target-password-1", "198.51.100.2")).status).toBe(201);
    // One address spraying guesses over many usernames is capped (5 x LOGIN_FAILURE_LIMIT), for every account.
    for (let i = 0; i < 15; i++) expect((await provision(`user${i % 5}`, `guess${i}`, "203.0.113.7")).status).toBe(403);
    expect((await provision("eve", "Eve-password-1", "203.0.113.7")).status).toBe(429);
    expect((await provision("eve", "Eve-password-1", "203.0.113.8")).status).toBe(201);
    // An IPv6 client counts by its /64: rotating addresses inside it does not reset the count.
    for (let i = 0; i < 3; i++) await provision("mallory-target", "guess", `2001:db8:1:2::${i + 1}`);
    expect((await provision("mallory-target", "Target-password-1", "2001:db8:1:2:ffff::9")).status).toBe(429);
    expect((await provision("mallory-target", "Target-password-1", "2001:db8:1:3::1")).status).toBe(201);
    // The state is in the database, where every isolate sees it.
    const [rows] = await api.db.batch([{ sql: "SELECT count(*) AS n FROM auth_throttle", parameters: [] }], "read");
    expect(Number(rows.rows[0].n)).toBeGreaterThan(0);
  });

  it("do not let failures from anywhere lock the administrator out everywhere (login and provisioning)", async () => {
    const admin = await createHarness();
    const login = (password: string, clientAddress: string) =>
      admin.request("POST", "/login/", { token: null, body: { username: "admin", password }, clientAddress });
    const provisionAdmin = (password: string, clientAddress: string) =>
      admin.post("/api/users/tokens/provision/", { username: "admin", password }, { token: null, clientAddress });
    for (let i = 0; i < 5; i++) {
      expect((await login(`wrong${i}`, "198.51.100.66")).status).toBe(403);
      expect((await provisionAdmin(`wrong${i}`, "198.51.100.66")).status).toBe(403);
    }
    // Ten failures (the default LOGIN_FAILURE_LIMIT): the attacker's address is refused...
    expect((await login("admin-password", "198.51.100.66")).status).toBe(429);
    expect((await provisionAdmin("admin-password", "198.51.100.66")).status).toBe(429);
    // ...and the administrator, elsewhere, is not.
    expect((await login("admin-password", "192.0.2.1")).status).toBe(200);
    expect((await provisionAdmin("admin-password", "192.0.2.1")).status).toBe(201);
    admin.close();
  });
});

describe("a token's owner", () => {
  it("cannot change its user, write ability or allowed addresses, but may change the rest", async () => {
    const key = await api.token({ superuser: false, username: "owner" });
    const mine = (await api.get("/api/users/tokens/", { token: key })).body.results[0];
    const other = (await api.post("/api/users/users/", { username: "someone", password: "Someone-pass-1" })).body.id;
    for (const change of [{ write_enabled: false }, { allowed_ips: ["10.0.0.0/8"] }, { user: other }]) {
      const reply = await api.patch(`/api/users/tokens/${mine.id}/`, change, { token: key });
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(Object.keys(reply.body)).toEqual(Object.keys(change));
    }
    const described = await api.patch(`/api/users/tokens/${mine.id}/`, { description: "laptop", write_enabled: true }, { token: key });
    expect(described.status, described.text).toBe(200);
    // A superuser (a permission beyond the default) may.
    expect((await api.patch(`/api/users/tokens/${mine.id}/`, { write_enabled: false })).status).toBe(200);
  });
});

describe("the client address", () => {
  it("is the socket peer, or X-Forwarded-For only behind a trusted proxy", async () => {
    const user = (await api.post("/api/users/users/", { username: "ipbound", password: "Ipbound-pass-1" })).body.id;
    const key = (await api.post("/api/users/tokens/", { user, allowed_ips: ["192.0.2.0/24"] })).body.key;
    const from = (clientAddress: string, forwarded?: string) =>
      api.get("/api/users/tokens/", { token: key, clientAddress, headers: forwarded ? { "X-Forwarded-For": forwarded } : {} });
    expect((await from("192.0.2.5")).status).toBe(200);
    // Spoofed header from an untrusted peer: ignored.
    expect((await from("198.51.100.1", "192.0.2.5")).status).toBe(403);
    // Through a trusted proxy (and a second one), the first untrusted hop is the client.
    expect((await from("10.1.1.1", "192.0.2.5")).status).toBe(200);
    expect((await from("10.1.1.1", "192.0.2.5, 10.2.2.2")).status).toBe(200);
    // A client cannot prepend an allowed address before its own.
    const spoof = await from("10.1.1.1", "192.0.2.5, 198.51.100.1");
    expect(spoof).toMatchObject({
      status: 403,
      body: { detail: "Source IP 198.51.100.1 is not permitted to authenticate using this token." },
    });
  });
});
