import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";
import { startReceiver } from "./support/receiver.ts";

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

let api: Harness;
let rx: Receiver;
const ids: Record<string, number> = {};
const SECRET = "signing-secret-never-shown";

/** Logs a user in with the login form, as a browser does; returns request options carrying the session cookie. */
async function session(username: string, password = "A-password-123") {
  const reply = await api.request("POST", "/login/", {
    token: null,
    body: `username=${username}&password=${password}`,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(reply.status, reply.text).toBe(302);
  const cookie = reply.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { token: null, headers: { Cookie: cookie, Accept: "text/html" } };
}

async function user(username: string, permissions: { actions: string[]; constraints?: unknown }[] = []): Promise<number> {
  const id = await make(api, "/api/users/users/", { username, password: "A-password-123" });
  for (const p of permissions) {
    await make(api, "/api/users/permissions/", {
      name: `${username}-${p.actions.join("-")}`,
      object_types: ["extras.webhookdelivery"],
      users: [id],
      ...p,
    });
  }
  return id;
}

/** The rows of the admin page's table, by run id. */
const runIds = (page: string) => [...page.matchAll(/<tr data-id="(\d+)">/g)].map((m) => Number(m[1]));

beforeAll(async () => {
  api = await createHarness({ WEBHOOK_TIMEOUT: "2" });
  rx = await startReceiver();
  rx.state.status = 500;
  // Two webhooks, each with its own rule: one for sites, one for tenants.
  ids.siteHook = await make(api, "/api/extras/webhooks/", {
    name: "Sites <hook>",
    secret: SECRET,
    payload_url: `${rx.url}/sites/{{event}}?api_key=k3y-value&plain=1`,
    additional_headers:
      "Authorization: Bearer bearer-value\nProxy-Authorization: Basic proxy-value\nCookie: sid=cookie-value\nX-Auth-Token: token-value\nX-Api-Key: key-value\nX-Client-Password: pw-value\nX-Trace: visible-value",
  });
  // Credentials in a URL: fetch refuses to send them, and the run keeps them masked.
  const [host] = rx.url.slice("http://".length).split("/");
  ids.tenantHook = await make(api, "/api/extras/webhooks/", {
    name: "Tenants",
    payload_url: `http://deliver:pa55word@${host}/tenants/`,
    http_method: "GET",
  });
  for (const [name, type, hook] of [
    ["Site rule", "dcim.site", ids.siteHook],
    ["Tenant rule", "tenancy.tenant", ids.tenantHook],
  ] as const) {
    ids[name] = await make(api, "/api/extras/event-rules/", {
      name,
      object_types: [type],
      event_types: ["object_created"],
      action_object_type: "extras.webhook",
      action_object_id: hook,
    });
  }
  ids.site = await make(api, "/api/dcim/sites/", { name: "<script>alert(1)</script>", slug: "xss", comments: "c".repeat(6000) });
  ids.tenant = await make(api, "/api/tenancy/tenants/", { name: "Acme", slug: "acme" });
  await api.queue.drain();
  const runs = (await api.get("/api/extras/webhook-deliveries/?limit=0")).body.results;
  ids.siteRun = runs.find((r: any) => r.object_type === "dcim.site").id;
  ids.tenantRun = runs.find((r: any) => r.object_type === "tenancy.tenant").id;
  await user("viewer", [{ actions: ["view"], constraints: { webhook: ids.tenantHook } }]);
  await user("retrier", [{ actions: ["view", "retry"] }]);
  await user("nobody");
});
afterAll(async () => {
  api.close();
  await rx.close();
});

describe("the request a delivery sent", () => {
  it("is kept on the run and shown by the API, with every credential masked before it is stored", async () => {
    const run = (await api.get(`/api/extras/webhook-deliveries/${ids.siteRun}/`)).body;
    expect(run.status.value).toBe("failed");
    expect(run.request_method).toBe("POST");
    expect(run.request_url).toBe(`${rx.url}/sites/created?api_key=********&plain=1`);
    const headers = run.request_headers as Record<string, string>;
    for (const name of ["authorization", "proxy-authorization", "cookie", "x-auth-token", "x-api-key", "x-client-password"])
      expect(headers[name]).toBe("********");
    expect(headers["x-trace"]).toBe("visible-value");
    expect(headers["content-type"]).toBe("application/json");
    // Signatures prove nothing without the secret; a receiver's check can be compared with them.
    const sent = rx.received.find((r) => r.path.startsWith("/sites/"))!;
    expect(headers["x-hook-signature"]).toBe(sent.headers["x-hook-signature"]);
    expect(headers["webhook-signature"]).toBe(sent.headers["webhook-signature"]);
    // The body as sent, cut at 4,096 characters.
    expect(run.request_body).toBe(sent.body.slice(0, 4096));
    expect(sent.body.length).toBeGreaterThan(4096);

    // Nothing secret anywhere in the stored row, the API or the admin page.
    const [stored] = await api.db.batch([{ sql: "SELECT * FROM extras_webhookdelivery", parameters: [] }], "read");
    const pages = await Promise.all(
      [ids.siteRun, ids.tenantRun].map(async (id) => (await api.get(`/admin/webhook-deliveries/${id}/`)).text),
    );
    const apiText = (await api.get("/api/extras/webhook-deliveries/")).text;
    for (const text of [JSON.stringify(stored.rows), apiText, ...pages]) {
      for (const secret of [
        SECRET,
        "bearer-value",
        "proxy-value",
        "cookie-value",
        "token-value",
        "key-value",
        "k3y-value",
        "pw-value",
        "pa55word",
      ]) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it("masks credentials in the URL, and keeps no body for a GET", async () => {
    const run = (await api.get(`/api/extras/webhook-deliveries/${ids.tenantRun}/`)).body;
    expect([run.request_method, run.request_body]).toEqual(["GET", ""]);
    expect(run.request_url).toBe(`http://********:********@${rx.url.slice("http://".length)}/tenants/`);
    expect(run.status.value).toBe("failed");
  });
});

describe("the webhook delivery admin", () => {
  it("sends anonymous visitors to the login page, and comes back with the filters kept", async () => {
    const reply = await api.get("/admin/webhook-deliveries/?status=failed", { token: null });
    expect(reply.status).toBe(302);
    expect(reply.headers.get("Location")).toBe(`/login/?next=${encodeURIComponent("/admin/webhook-deliveries/?status=failed")}`);
    expect((await api.get(`/admin/webhook-deliveries/${ids.siteRun}/`, { token: null })).status).toBe(302);
  });

  it("refuses users without the view permission with a 403 page, by session or token", async () => {
    const reply = await api.get("/admin/webhook-deliveries/", await session("nobody"));
    expect(reply.status).toBe(403);
    expect(reply.headers.get("Content-Type")).toContain("text/html");
    expect(reply.text).toContain("Permission denied");
    expect(reply.text).not.toContain("Sites &lt;hook&gt;");
    const token = await api.token({ superuser: false });
    expect((await api.get(`/admin/webhook-deliveries/${ids.siteRun}/`, { token })).status).toBe(403);
  });

  it("shows a superuser every run, escaped, with queue depth, filters and Retry on failed runs", async () => {
    const reply = await api.get("/admin/webhook-deliveries/", await session("admin", "admin-password"));
    expect(reply.status).toBe(200);
    expect(reply.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    const page = reply.text;
    expect(runIds(page).sort()).toEqual([ids.siteRun, ids.tenantRun].sort());
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).not.toContain("<script>alert(1)</script>");
    expect(page).toMatch(/id="queue-depth"><span class="value">0</);
    expect(page).toContain(`<option value="${ids.siteHook}">Sites &lt;hook&gt;</option>`);
    expect(page).toContain(`<option value="${ids["Tenant rule"]}">Tenant rule</option>`);
    expect(page).toContain(`data-retry="${ids.siteRun}"`);
    expect(page).toContain("attempt 1: HTTP 500");
  });

  it("filters by state, webhook and event rule through the API's own filters", async () => {
    const options = await session("admin", "admin-password");
    const list = async (query: string) => runIds((await api.get(`/admin/webhook-deliveries/?${query}`, options)).text);
    expect(await list(`webhook_id=${ids.tenantHook}`)).toEqual([ids.tenantRun]);
    expect(await list(`event_rule_id=${ids["Site rule"]}`)).toEqual([ids.siteRun]);
    expect(await list("status=succeeded")).toEqual([]);
    expect((await list("status=failed")).sort()).toEqual([ids.siteRun, ids.tenantRun].sort());
    // A filter the API refuses shows the API's own message.
    const refused = await api.get("/admin/webhook-deliveries/?webhook_id=999999", options);
    expect(refused.status).toBe(200);
    expect(refused.text).toContain("webhook_id: Select a valid choice");
    // Pages of the API's size.
    const first = (await api.get("/admin/webhook-deliveries/?limit=1", options)).text;
    expect(runIds(first)).toHaveLength(1);
    expect(first).toContain('href="/admin/webhook-deliveries/?limit=1&amp;offset=1" rel="next"');
  });

  it("shows a view-permission holder only the runs their constraints allow, without Retry", async () => {
    const options = await session("viewer");
    const page = (await api.get("/admin/webhook-deliveries/", options)).text;
    expect(runIds(page)).toEqual([ids.tenantRun]);
    expect(page).not.toContain("data-retry");
    expect(page).not.toContain("Retry selected");
    // The filters list only what the user may see: no webhooks nor rules without their view permission.
    expect(page).not.toContain("Sites &lt;hook&gt;");
    expect(page).toMatch(/id="failed-count"><span class="value"><a [^>]*>1</);
    expect((await api.get(`/admin/webhook-deliveries/${ids.siteRun}/`, options)).status).toBe(404);
    expect((await api.get(`/admin/webhook-deliveries/${ids.tenantRun}/`, options)).status).toBe(200);
    // The same as a script sees through the API.
    const viewer = await api.request("GET", "/api/extras/webhook-deliveries/", {
      ...options,
      headers: { ...options.headers, Accept: "application/json" },
    });
    expect(viewer.body.results.map((r: any) => r.id)).toEqual([ids.tenantRun]);
  });

  it("offers Retry to holders of the retry permission, which the API's retry endpoint honours with the session's CSRF token", async () => {
    const options = await session("retrier");
    const page = (await api.get("/admin/webhook-deliveries/?status=failed", options)).text;
    expect(page).toContain(`data-retry="${ids.siteRun}"`);
    expect(page).toContain('id="retry-selected"');
    const csrf = /csrftoken=([0-9a-f]+)/.exec(options.headers.Cookie)![1];
    const withoutToken = await api.post(`/api/extras/webhook-deliveries/${ids.siteRun}/retry/`, "", options);
    expect(withoutToken.status).toBe(403);
    rx.state.hang = true;
    const retried = await api.post(`/api/extras/webhook-deliveries/${ids.siteRun}/retry/`, "", {
      ...options,
      headers: { ...options.headers, "X-CSRFToken": csrf },
    });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.status.value).toBe("queued");
    const after = (await api.get("/admin/webhook-deliveries/", options)).text;
    expect(after).toMatch(/id="queue-depth"><span class="value">1</);
    expect(after).toContain(`data-status-for="${ids.siteRun}">Queued<`);
    rx.state.hang = false;
    await api.queue.drain();
  });

  it("answers 404 for a run that does not exist, and only GET and HEAD", async () => {
    const options = await session("admin", "admin-password");
    expect((await api.get("/admin/webhook-deliveries/999999/", options)).status).toBe(404);
    expect((await api.get("/admin/webhook-deliveries/abc/", options)).status).toBe(404);
    expect((await api.request("DELETE", "/admin/webhook-deliveries/", { headers: { Accept: "text/html" } })).status).toBe(405);
  });
});
