import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ADMIN_TOKEN, type Harness } from "./support/harness.ts";

let api: Harness;
beforeAll(async () => {
  api = await createHarness();
});
afterAll(() => api.close());

const denied = (detail: string) => ({ status: 403, body: { detail } });

describe("token authentication", () => {
  it("accepts `Authorization: Token <key>` and ignores other schemes (anonymous)", async () => {
    expect((await api.get("/api/dcim/sites/")).status).toBe(200);
    const basic = await api.get("/api/dcim/sites/", { token: null, headers: { Authorization: "Basic YWRtaW46eA==" } });
    expect(basic).toMatchObject(denied("Authentication credentials were not provided."));
  });

  it("refuses malformed headers and unknown keys with a clear detail", async () => {
    const h = (value: string) => api.get("/api/dcim/sites/", { token: null, headers: { Authorization: value } });
    expect(await h("Token")).toMatchObject(denied("Invalid token header. No credentials provided."));
    expect(await h("Token a b")).toMatchObject(denied("Invalid token header. Token string should not contain spaces."));
    expect(await h("Token not-a-key")).toMatchObject(denied("Invalid token"));
    expect(await h(`Token ${"f".repeat(40)}`)).toMatchObject(denied("Invalid token"));
  });

  it("refuses an expired token", async () => {
    const key = await api.token();
    const [row] = await api.db.kysely.selectFrom("users_token").select("id").orderBy("id", "desc").limit(1).execute();
    await api.db.kysely.updateTable("users_token").set({ expires: "2020-01-01T00:00:00.000Z" }).where("id", "=", row.id).execute();
    expect(await api.get("/api/dcim/sites/", { token: key })).toMatchObject(denied("Token expired"));
  });

  it("refuses an inactive user's token", async () => {
    const key = await api.token({ username: "leaver" });
    const user = (await api.get("/api/users/users/?username=leaver")).body.results[0];
    await api.patch(`/api/users/users/${user.id}/`, { is_active: false });
    expect(await api.get("/api/dcim/sites/", { token: key })).toMatchObject(denied("User inactive"));
  });

  it("checks allowed_ips against the client address, IPv4 and IPv6", async () => {
    const user = await api.post("/api/users/users/", { username: "ops", password: "Ops-password-1", is_superuser: true });
    const token = await api.post("/api/users/tokens/", { user: user.body.id, allowed_ips: ["10.1.0.0/16", "2001:db8::/32", "192.0.2.7"] });
    expect(token.body.allowed_ips).toEqual(["10.1.0.0/16", "2001:db8::/32", "192.0.2.7/32"]);
    const key = token.body.key;
    for (const ok of ["10.1.2.3", "::ffff:10.1.9.9", "2001:db8::1", "192.0.2.7"]) {
      expect((await api.get("/api/dcim/sites/", { token: key, clientAddress: ok })).status, ok).toBe(200);
    }
    expect(await api.get("/api/dcim/sites/", { token: key, clientAddress: "10.2.0.1" })).toMatchObject(
      denied("Source IP 10.2.0.1 is not permitted to authenticate using this token."),
    );
    const bad = await api.post("/api/users/tokens/", { user: user.body.id, allowed_ips: ["10.0.0.0/33"] });
    expect(bad.status).toBe(400);
    expect(bad.body.allowed_ips[0]).toMatch(/valid IPv4 or IPv6/);
  });

  it("records last use at most once a minute", async () => {
    const key = await api.token();
    const lastUsed = async () =>
      (await api.db.kysely.selectFrom("users_token").select("last_used").orderBy("id", "desc").limit(1).execute())[0].last_used;
    expect(await lastUsed()).toBeNull();
    await api.get("/api/dcim/sites/", { token: key });
    await api.settle();
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await api.get("/api/dcim/sites/", { token: key });
    await api.settle();
    expect(await lastUsed()).toBe(first);
  });

  it("does not record last use in maintenance mode, and refuses writes there", async () => {
    const maint = await createHarness({ MAINTENANCE_MODE: "true" });
    expect((await maint.get("/api/dcim/sites/")).status).toBe(200);
    await maint.settle();
    const rows = await maint.db.kysely.selectFrom("users_token").select("last_used").execute();
    expect(rows.every((r) => r.last_used === null)).toBe(true);
    expect((await maint.post("/api/extras/tags/", { name: "x", slug: "x" })).status).toBe(503);
    maint.close();
  });
});

describe("tokens at rest", () => {
  it("keeps only a keyed digest and an encrypted copy, never the key", async () => {
    const created = await api.post("/api/users/tokens/", { description: "mine" });
    expect(created.body.key).toMatch(/^[0-9a-f]{40}$/);
    expect(created.body.display).toBe(`${"*".repeat(34)}${created.body.key.slice(-6)}`);
    const dump = JSON.stringify(await api.db.kysely.selectFrom("users_token").selectAll().execute());
    expect(dump).not.toContain(created.body.key);
    expect(dump).not.toContain(ADMIN_TOKEN);
    expect((await api.get(`/api/users/tokens/${created.body.id}/`)).body.key).toBe(created.body.key);
  });

  it("defaults the owner to the requester and accepts a supplied key once", async () => {
    const key = "00112233445566778899aabbccddeeff00112233";
    const created = await api.post("/api/users/tokens/", { key, write_enabled: false });
    expect(created.body).toMatchObject({ key, write_enabled: false, user: { username: "admin" } });
    expect((await api.post("/api/users/tokens/", { key })).status).toBe(400);
    expect((await api.get("/api/dcim/sites/", { token: key })).status).toBe(200);
  });

  it("with ALLOW_TOKEN_RETRIEVAL=false shows the key only in the response that created it", async () => {
    const sealed = await createHarness({ ALLOW_TOKEN_RETRIEVAL: "false" });
    const created = await sealed.post("/api/users/tokens/", { description: "once" });
    expect(created.body.key).toMatch(/^[0-9a-f]{40}$/);
    const again = await sealed.get(`/api/users/tokens/${created.body.id}/`);
    expect(again.body).not.toHaveProperty("key");
    expect(again.body.display).toBe(`${"*".repeat(34)}${created.body.key.slice(-6)}`);
    const stored = await sealed.db.kysely.selectFrom("users_token").select("key_ciphertext").execute();
    expect(stored.every((r) => r.key_ciphertext === null)).toBe(true);
    expect((await sealed.get("/api/dcim/sites/", { token: created.body.key })).status).toBe(200);
    sealed.close();
  });

  it("lists a token whose key was sealed under another SECRET_KEY without its key, rather than failing", async () => {
    const created = await api.post("/api/users/tokens/", { description: "sealed elsewhere" });
    // What another SECRET_KEY sealed: AES-GCM's check fails under this one.
    const foreign = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(68))));
    await api.db.kysely.updateTable("users_token").set({ key_ciphertext: foreign }).where("id", "=", created.body.id).execute();
    const list = await api.get("/api/users/tokens/?limit=0");
    expect(list.status).toBe(200);
    const listed = list.body.results.find((t: { id: number }) => t.id === created.body.id);
    expect(listed).not.toHaveProperty("key");
    expect(listed.display).toBe(created.body.display);
    expect((await api.get(`/api/users/tokens/${created.body.id}/`)).body).not.toHaveProperty("key");
    expect((await api.get("/api/dcim/sites/", { token: created.body.key })).status).toBe(200);
  });

  it("rejects an expiry in the past", async () => {
    const reply = await api.post("/api/users/tokens/", { expires: "2001-01-01T00:00:00Z" });
    expect(reply.status).toBe(400);
    expect(reply.body.expires[0]).toMatch(/must be in the future/);
  });
});

describe("token provisioning", () => {
  it("trades a username and password for a new write-enabled token (201, key included)", async () => {
    const reply = await api.post("/api/users/tokens/provision/", { username: "admin", password: "admin-password" }, { token: null });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ write_enabled: true, user: { username: "admin" } });
    expect(reply.body.key).toMatch(/^[0-9a-f]{40}$/);
    expect((await api.post("/api/extras/tags/", { name: "Prov", slug: "prov" }, { token: reply.body.key })).status).toBe(201);
  });

  it("refuses bad credentials with 403 and missing fields with 400", async () => {
    const wrong = await api.post("/api/users/tokens/provision/", { username: "admin", password: "nope" }, { token: null });
    expect(wrong).toMatchObject(denied("Invalid username/password"));
    const nobody = await api.post("/api/users/tokens/provision/", { username: "ghost", password: "nope" }, { token: null });
    expect(nobody).toMatchObject(denied("Invalid username/password"));
    const empty = await api.post("/api/users/tokens/provision/", {}, { token: null });
    expect(empty).toMatchObject({ status: 400, body: { username: ["This field is required."], password: ["This field is required."] } });
  });

  it("refuses users who may not create tokens (DEFAULT_PERMISSIONS without users.add_token)", async () => {
    const strict = await createHarness({ DEFAULT_PERMISSIONS: "{}" });
    await strict.post("/api/users/users/", { username: "plain", password: "Plain-password-1" });
    const reply = await strict.post("/api/users/tokens/provision/", { username: "plain", password: "Plain-password-1" }, { token: null });
    expect(reply.status).toBe(403);
    strict.close();
  });
});

describe("users who are not superusers", () => {
  it("see and manage only their own tokens, and cannot create tokens for others", async () => {
    const mine = await api.token({ superuser: false, username: "regular" });
    const list = await api.get("/api/users/tokens/", { token: mine });
    expect(list.status).toBe(200);
    expect(list.body.results.map((t: any) => t.user.username)).toEqual(["regular"]);
    const created = await api.post("/api/users/tokens/", { description: "second" }, { token: mine });
    expect(created.status).toBe(201);
    const admin = (await api.get("/api/users/users/?username=admin")).body.results[0];
    const forOther = await api.post("/api/users/tokens/", { user: admin.id }, { token: mine });
    expect(forOther).toMatchObject(denied("This user does not have permission to create tokens for other users."));
    const adminToken = (await api.get("/api/users/tokens/?ordering=id")).body.results[0];
    expect((await api.get(`/api/users/tokens/${adminToken.id}/`, { token: mine })).status).toBe(404);
    expect((await api.delete(`/api/users/tokens/${adminToken.id}/`, undefined, { token: mine })).status).toBe(404);
  });

  it("are refused other models (no object permissions yet)", async () => {
    const mine = await api.token({ superuser: false });
    expect(await api.get("/api/dcim/sites/", { token: mine })).toMatchObject(denied("You do not have permission to perform this action."));
  });

  it("may read models listed in EXEMPT_VIEW_PERMISSIONS, even anonymously, but not write them", async () => {
    const open = await createHarness({ EXEMPT_VIEW_PERMISSIONS: "dcim.site,tenancy.*" });
    expect((await open.get("/api/dcim/sites/", { token: null })).status).toBe(200);
    expect((await open.get("/api/tenancy/tenants/", { token: null })).status).toBe(200);
    expect((await open.get("/api/dcim/regions/", { token: null })).status).toBe(403);
    expect((await open.post("/api/dcim/sites/", { name: "x", slug: "x" }, { token: null })).status).toBe(403);
    open.close();
  });
});

describe("users", () => {
  it("stores passwords as PBKDF2 hashes and never returns them", async () => {
    const reply = await api.post("/api/users/users/", { username: "hashme", password: "Plain-text-secret-1" });
    expect(reply.status).toBe(201);
    expect(reply.body).not.toHaveProperty("password");
    const [row] = await api.db.kysely.selectFrom("users_user").select("password").where("username", "=", "hashme").execute();
    expect(row.password).toMatch(/^pbkdf2_sha256\$100000\$/);
    expect(row.password).not.toContain("plain-text-secret");
    const login = await api.post("/api/users/tokens/provision/", { username: "hashme", password: "Plain-text-secret-1" }, { token: null });
    expect(login.status).toBe(201);
  });
});
