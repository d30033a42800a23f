import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Harness, type Reply } from "./support/harness.ts";

let api: Harness;

const HTML = { Accept: "text/html" };
/** What Chromium sends when it navigates to a page. */
const CHROME_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";

beforeAll(async () => {
  api = await createHarness({ LOGIN_FAILURE_LIMIT: "50" });
  await api.post("/api/users/users/", { username: "browser", password: "Browser-pass-1", is_superuser: true });
  for (const [name, slug] of [
    ["Alpha", "alpha"],
    ["Bravo", "bravo"],
    ["Charlie", "charlie"],
  ]) {
    expect((await api.post("/api/dcim/sites/", { name, slug })).status).toBe(201);
  }
});
afterAll(() => api.close());

/** Logs in as `browser` with a form post; returns the cookies a browser would then send. */
async function session() {
  const reply = await api.request("POST", "/login/", {
    token: null,
    body: "username=browser&password=Browser-pass-1",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(reply.status).toBe(302);
  const set = reply.headers.getSetCookie();
  const value = (name: string) =>
    set
      .find((c) => c.startsWith(`${name}=`))!
      .split(";")[0]
      .slice(name.length + 1);
  const cookie = `sessionid=${value("sessionid")}; csrftoken=${value("csrftoken")}`;
  return { cookie, csrf: value("csrftoken") };
}

function expectPage(reply: Reply, status = 200) {
  expect(reply.status).toBe(status);
  expect(reply.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
  expect(reply.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
  expect(reply.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  expect(reply.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(reply.headers.get("Referrer-Policy")).toBe("same-origin");
  expect(reply.headers.get("Cache-Control")).toBe("no-store");
  expect(reply.text).toMatch(/^<!doctype html>/);
}

const siteCount = async () => (await api.get("/api/dcim/sites/?limit=1")).body.count as number;

describe("the browsable API", () => {
  it("answers a browser with a page and JSON clients with JSON", async () => {
    expectPage(await api.get("/api/dcim/sites/", { headers: HTML }));
    expectPage(await api.get("/api/dcim/sites/", { headers: { Accept: CHROME_ACCEPT } }));
    for (const accept of [undefined, "*/*", "application/json", "application/json, text/html", "application/json; indent=4"]) {
      const reply = await api.get("/api/dcim/sites/", { headers: accept ? { Accept: accept } : {} });
      expect(reply.headers.get("Content-Type"), accept).toBe("application/json");
      expect(reply.body.count, accept).toBe(3);
    }
  });

  it("takes ?format=json and ?format=api over Accept, and neither is read as a filter", async () => {
    const json = await api.get("/api/dcim/sites/?format=json", { headers: HTML });
    expect(json.headers.get("Content-Type")).toBe("application/json");
    expect(json.body.count).toBe(3);
    const page = await api.get("/api/dcim/sites/?format=api&slug=bravo", { headers: { Accept: "application/json" } });
    expectPage(page);
    expect(page.text).toContain('&quot;count&quot;</span>: <span class="j-num">1</span>');
    // The page's JSON link asks for the same list as JSON.
    expect(page.text).toContain('href="/api/dcim/sites/?format=json&amp;slug=bravo"');
    expect((await api.get("/api/dcim/sites/1/?format=json", { headers: HTML })).body.name).toBe("Alpha");
  });

  it("shows the request, status, headers, the JSON with API URLs as links, pagination and filters", async () => {
    const reply = await api.get("/api/dcim/sites/?limit=1&offset=1", { headers: HTML });
    expectPage(reply);
    const text = reply.text;
    expect(text).toContain("<h1>Site List</h1>");
    expect(text).toContain("<code>/api/dcim/sites/?limit=1&amp;offset=1</code>");
    expect(text).toContain("HTTP 200 OK");
    expect(text).toMatch(/API-Version:<\/span> 4\.2/);
    expect(text).toMatch(/Allow:<\/span> GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS/);
    expect(text).toMatch(/Content-Type:<\/span> application\/json/);
    expect(text).toContain(`X-Request-ID:</span> ${reply.headers.get("X-Request-ID")}`);
    expect(text).toContain(`<a class="j-str" href="${ORIGIN}/api/dcim/sites/2/">&quot;${ORIGIN}/api/dcim/sites/2/&quot;</a>`);
    expect(text).toContain(`rel="next" href="${ORIGIN}/api/dcim/sites/?limit=1&amp;offset=2"`);
    expect(text).toContain(`rel="prev" href="${ORIGIN}/api/dcim/sites/?limit=1"`);
    expect(text).toContain("2–2 of 3");
    // Filters with their lookups, from the model's filter set.
    expect(text).toMatch(/<dt><code>name<\/code><\/dt><dd>n ic nic isw nisw iew niew ie nie empty isnull<\/dd>/);
    expect(text).toMatch(/<dt><code>region_id<\/code><\/dt><dd>n isnull<\/dd>/);
    expect(text).toContain("<code>q</code>");
  });

  it("renders roots, details, declared routes and errors the same way", async () => {
    const root = await api.get("/api/", { headers: HTML, token: null });
    expectPage(root);
    expect(root.text).toContain(`href="${ORIGIN}/api/dcim/"`);
    expect(root.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    expect(root.text).toContain("GET, HEAD, OPTIONS");
    expectPage(await api.get("/api/dcim/", { headers: HTML }));
    const detail = await api.get("/api/dcim/sites/2/", { headers: HTML });
    expectPage(detail);
    expect(detail.text).toContain("<h1>Site: Bravo</h1>");
    expectPage(await api.get("/api/ipam/prefixes/?limit=1", { headers: HTML }));

    const missing = await api.get("/api/dcim/sites/999/", { headers: HTML });
    expectPage(missing, 404);
    expect(missing.text).toContain("<h1>Not Found</h1>");
    expect(missing.text).toContain("No Site matches the given query.");
    expectPage(await api.get("/api/dcim/no-such-things/", { headers: HTML }), 404);
    expectPage(await api.get("/nowhere/", { headers: HTML }), 404);
    const bad = await api.get("/api/dcim/sites/?status=no-such", { headers: HTML });
    expectPage(bad, 400);

    const anonymous = await api.get("/api/dcim/sites/", { headers: HTML, token: null });
    expectPage(anonymous, 403);
    expect(anonymous.text).toContain("Authentication credentials were not provided.");
    expect(anonymous.text).toContain('<a href="/login/?next=%2Fapi%2Fdcim%2Fsites%2F">Log in</a>');
    expect(anonymous.text).not.toContain("api-form");
    expect(anonymous.text).not.toContain("Filters");
  });

  it("answers HEAD with headers only", async () => {
    const head = await api.request("HEAD", "/api/dcim/sites/", { headers: HTML });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(head.headers.get("Content-Security-Policy")).toBeTruthy();
    const json = await api.request("HEAD", "/api/dcim/sites/");
    expect(json.text).toBe("");
    expect(json.headers.get("Content-Type")).toBe("application/json");
  });

  it("says that the answer depends on Accept", async () => {
    expect((await api.get("/api/dcim/sites/")).headers.get("Vary")).toContain("Accept");
    expect((await api.get("/api/dcim/sites/", { headers: HTML })).headers.get("Vary")).toContain("Accept");
  });

  it("leaves writes and OPTIONS in JSON", async () => {
    const options = await api.request("OPTIONS", "/api/dcim/sites/", { headers: HTML });
    expect(options.headers.get("Content-Type")).toBe("application/json");
    const created = await api.post("/api/tenancy/tenants/", { name: "T", slug: "t" }, { headers: HTML });
    expect(created.status).toBe(201);
    expect(created.headers.get("Content-Type")).toBe("application/json");
  });

  it("escapes every value: names, query strings, paths", async () => {
    const evil = await api.post("/api/dcim/sites/", {
      name: "<script>alert(1)</script>",
      slug: "evil",
      description: "javascript:alert(1)",
      comments: `'"><img src=x onerror=alert(1)>`,
    });
    const { cookie } = await session();
    const reply = await api.get(`/api/dcim/sites/${evil.body.id}/`, { headers: { ...HTML, Cookie: cookie }, token: null });
    expectPage(reply);
    expect(reply.text).not.toContain("<script>alert");
    expect(reply.text).not.toContain("<img");
    expect(reply.text).toContain("<h1>Site: &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
    expect(reply.text).toContain("<title>Site: &lt;script&gt;alert(1)&lt;/script&gt; · Inventory</title>");
    // In the edit form's textarea too.
    expect(reply.text).toContain("&quot;name&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;");
    // Only URLs into this API become links.
    expect(reply.text).not.toContain('href="javascript:');

    const query = await api.get(`/api/dcim/sites/?q=${encodeURIComponent('"><script>alert(2)</script>')}`, { headers: HTML });
    expectPage(query);
    expect(query.text).not.toContain("<script>alert");
    expect(query.text).toContain('value="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
    // An unknown filter's name comes back in the 400's error, escaped.
    const unknown = await api.get(`/api/dcim/sites/?${encodeURIComponent("<b>")}=1`, { headers: HTML });
    expectPage(unknown, 400);
    expect(unknown.text).not.toContain("<b>");
    expect(unknown.text).toContain("&lt;b&gt;");
    await api.delete(`/api/dcim/sites/${evil.body.id}/`);
  });

  it("offers write forms only to a signed-in browser, and only what it may do", async () => {
    // A token client asking for HTML has no session and no CSRF token: no forms.
    expect((await api.get("/api/dcim/sites/", { headers: HTML })).text).not.toContain("api-form");
    const { cookie } = await session();
    const list = await api.get("/api/dcim/sites/", { headers: { ...HTML, Cookie: cookie }, token: null });
    expect(list.text).toContain('<form class="api-form" data-url="/api/dcim/sites/">');
    expect(list.text).toContain('<button type="submit" value="POST">POST</button>');
    // The POST template holds the required writable fields, from OPTIONS.
    const template = /<textarea[^>]*>([^<]*)<\/textarea>/.exec(list.text)![1].replace(/&quot;/g, '"');
    expect(JSON.parse(template)).toEqual({ name: "", slug: "" });
    const detail = await api.get("/api/dcim/sites/1/", { headers: { ...HTML, Cookie: cookie }, token: null });
    expect(detail.text).toContain('value="PATCH"');
    expect(detail.text).toContain('value="PUT"');
    expect(detail.text).toContain('value="DELETE"');
    const prefilled = JSON.parse(/<textarea[^>]*>([^<]*)<\/textarea>/.exec(detail.text)![1].replace(/&quot;/g, '"'));
    expect(prefilled).toMatchObject({ name: "Alpha", slug: "alpha", status: "active", region: null, tags: [] });
    expect(prefilled).not.toHaveProperty("id");
    expect(prefilled).not.toHaveProperty("device_count");
    // Read-only models have none.
    const changes = await api.get("/api/core/object-changes/", { headers: { ...HTML, Cookie: cookie }, token: null });
    expectPage(changes);
    expect(changes.text).not.toContain("api-form");
  });

  it("changes nothing when the CSRF check fails", async () => {
    const { cookie, csrf } = await session();
    const before = await siteCount();
    const headers = { Cookie: cookie, Accept: "application/json" };
    expect((await api.post("/api/dcim/sites/", { name: "X", slug: "x" }, { headers, token: null })).status).toBe(403);
    expect(
      (
        await api.post(
          "/api/dcim/sites/",
          { name: "X", slug: "x" },
          { headers: { ...headers, "X-CSRFToken": "0".repeat(64) }, token: null },
        )
      ).status,
    ).toBe(403);
    expect((await api.delete("/api/dcim/sites/1/", undefined, { headers, token: null })).status).toBe(403);
    expect(await siteCount()).toBe(before);
    const created = await api.post(
      "/api/dcim/sites/",
      { name: "X", slug: "x" },
      { headers: { ...headers, "X-CSRFToken": csrf }, token: null },
    );
    expect(created.status).toBe(201);
    await api.delete(`/api/dcim/sites/${created.body.id}/`);
  });
});

describe("/login/ and /logout/", () => {
  const form = (body: string, headers: Record<string, string> = {}) =>
    api.request("POST", "/login/", { token: null, body, headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers } });

  it("shows the login form with next kept, escaped", async () => {
    const reply = await api.get(`/login/?next=${encodeURIComponent('/api/dcim/?a="><script>x</script>')}`, { token: null });
    expectPage(reply);
    expect(reply.text).toContain('<form method="post" action="/login/">');
    expect(reply.text).toContain('name="next" value="/api/dcim/?a=&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(reply.text).not.toContain("<script>x");
    // The page itself is the way in: the header offers no second "Log in" link.
    expect(reply.text).not.toContain('href="/login/?next=');
    // Another site is never a `next`.
    expect((await api.get("/login/?next=//evil.example/", { token: null })).text).toContain('name="next" value="/api/"');
    expect((await api.request("HEAD", "/login/", { token: null })).text).toBe("");
  });

  it("redirects a form login to next, and shows a refused one again with the reason", async () => {
    const ok = await form(`username=browser&password=Browser-pass-1&next=${encodeURIComponent("/api/dcim/sites/?limit=2")}`);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/api/dcim/sites/?limit=2");

    const wrong = await form("username=browser&password=wrong&next=%2Fapi%2Fdcim%2F");
    expectPage(wrong, 403);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    expect(wrong.text).toContain('<p class="error" role="alert">Invalid username/password</p>');
    expect(wrong.text).toContain('name="username" value="browser"');
    expect(wrong.text).toContain('name="next" value="/api/dcim/"');

    const missing = await form("username=%3Cb%3E");
    expectPage(missing, 400);
    expect(missing.text).toContain("Password: This field is required.");
    expect(missing.text).toContain('name="username" value="&lt;b&gt;"');
  });

  it("keeps JSON answers for JSON login clients", async () => {
    const wrong = await api.request("POST", "/login/", { token: null, body: { username: "browser", password: "wrong" } });
    expect(wrong).toMatchObject({ status: 403, body: { detail: "Invalid username/password" } });
    expect(wrong.headers.get("Content-Type")).toBe("application/json");
    const ok = await api.request("POST", "/login/", { token: null, body: { username: "browser", password: "Browser-pass-1" } });
    expect(ok).toMatchObject({ status: 200, body: { detail: "Logged in.", username: "browser" } });
  });

  it("refuses a login posted from another site, and a next a browser would read as another site", async () => {
    const foreign = await form("username=browser&password=Browser-pass-1", { Origin: "https://evil.example" });
    expectPage(foreign, 403);
    expect(foreign.headers.getSetCookie()).toEqual([]);
    expect((await form("username=browser&password=Browser-pass-1", { Origin: ORIGIN })).status).toBe(302);
    const plain = await api.request("POST", "/login/", {
      token: null,
      body: '{"username": "browser", "password": "Browser-pass-1", "x": "="}',
      headers: { "Content-Type": "text/plain", Origin: "https://evil.example" },
    });
    expect(plain).toMatchObject({ status: 403, body: { detail: "A login from another site was refused." } });
    expect(plain.headers.getSetCookie()).toEqual([]);
    const tab = await form(`username=browser&password=Browser-pass-1&next=${encodeURIComponent("/\t/evil.example/")}`);
    expect(tab.headers.get("Location")).toBe("/api/");
  });

  it("logs out: a page with the button, then the session is gone", async () => {
    const { cookie, csrf } = await session();
    const page = await api.get("/logout/", { token: null, headers: { Cookie: cookie } });
    expectPage(page);
    expect(page.text).toContain('<form method="post" action="/logout/">');
    expect(page.text).toContain('class="username">browser</strong>');
    // Without the CSRF token nothing happens.
    expect((await api.request("POST", "/logout/", { token: null, headers: { Cookie: cookie } })).status).toBe(403);
    expect((await api.get("/api/dcim/sites/", { token: null, headers: { Cookie: cookie } })).status).toBe(200);
    const out = await api.request("POST", "/logout/", { token: null, headers: { Cookie: cookie, "X-CSRFToken": csrf } });
    expect(out.status).toBe(200);
    expect((await api.get("/api/dcim/sites/", { token: null, headers: { Cookie: cookie } })).status).toBe(403);
    const after = await api.get("/logout/", { token: null });
    expectPage(after);
    expect(after.text).toContain("You are not logged in.");
  });
});
