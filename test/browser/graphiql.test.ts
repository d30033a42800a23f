import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { ADMIN, api, launchBrowser, pageErrors, screenshot, startService } from "./support.ts";

describe("GraphiQL in a real browser", () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let browser: Browser;
  beforeAll(async () => {
    // At the default settings: GraphiQL's introspection query (15 levels deep) has its own cap.
    [service, browser] = await Promise.all([startService(), launchBrowser()]);
    await api(service, "POST", "/api/dcim/sites/", { name: "GraphiQL DC", slug: "graphiql-dc" });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.cleanup();
  });

  it("signs in, then runs a query with the session from our own copy of GraphiQL", { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors = pageErrors(page);
    const outside: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(service.url)) outside.push(request.url());
    });

    // LOGIN_REQUIRED (the default): an anonymous visitor is sent to sign in, and comes back.
    await page.goto(`${service.url}/graphql/`);
    await page.waitForURL(`${service.url}/login/?next=%2Fgraphql%2F`);
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${service.url}/graphql/`);
    await page.locator(".graphiql-container .graphiql-query-editor .CodeMirror").waitFor();
    await expect(page.locator("header.top .username").textContent()).resolves.toBe(ADMIN.username);

    // The schema came through the same session (introspection): the documentation explorer lists the queries.
    await page.getByRole("button", { name: "Show Documentation Explorer" }).click();
    const docs = page.locator(".graphiql-doc-explorer");
    await docs.getByRole("link", { name: "Query", exact: true }).click();
    await docs.getByRole("link", { name: "site_list", exact: true }).waitFor();

    // A dialog adds a scroll-locking <style>, which the page's CSP allows by its hash.
    await page.getByRole("button", { name: "Open settings dialog" }).click();
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });

    // Type the query as a user does (the editor closes brackets itself, and steps over the ones typed).
    await page.locator(".graphiql-query-editor .CodeMirror").click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    await page.keyboard.type("{ site_list { name } }");
    await page.keyboard.press("Escape");
    await expect(page.locator(".graphiql-query-editor .CodeMirror-code").textContent()).resolves.toContain("{ site_list { name } }");
    const answer = page.waitForResponse(
      (r) => r.url() === `${service.url}/graphql/` && r.request().method() === "POST" && /site_list/.test(r.request().postData() ?? ""),
    );
    await page.locator("button.graphiql-execute-button").click();
    const reply = await answer;
    expect(reply.status()).toBe(200);
    // The session's CSRF token went with the cookie.
    expect(reply.request().headers()["x-csrftoken"]).toMatch(/^[0-9a-f]{64}$/);
    const result = page.locator(".graphiql-response .CodeMirror-code");
    await expect.poll(() => result.textContent()).toContain('"name": "GraphiQL DC"');
    await screenshot(page, "graphiql");

    await context.close();
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("answers JSON clients and queries without the page, and serves GraphiQL's files with long-lived caching, nothing else", async () => {
    const anonymous = await fetch(`${service.url}/graphql/`, { headers: { Accept: "text/html" }, redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/login/?next=%2Fgraphql%2F");
    await anonymous.arrayBuffer();

    const token = { Authorization: `Token ${ADMIN.token}` };
    const response = await fetch(`${service.url}/graphql/`, { headers: { ...token, Accept: "text/html" } });
    expect(response.status).toBe(200);
    // The pages' CSP, with data: fonts (GraphiQL's stylesheet embeds its fonts) and one hashed style.
    const csp = response.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("font-src 'self' data:;");
    expect(csp).toMatch(/style-src 'self' 'sha256-[\w+/=]+';/);
    const page = await response.text();
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page).not.toMatch(/\sstyle=/);
    const json = await fetch(`${service.url}/graphql/`, { headers: { ...token, Accept: "application/json" } });
    expect(json.headers.get("Content-Type")).not.toContain("text/html");
    await json.arrayBuffer();

    const bundle = /src="([^"]*\/graphiql\.min\.js)"/.exec(page)![1];
    expect(bundle).toMatch(/^\/static\/graphiql\/\d+\.\d+\.\d+\/graphiql\.min\.js$/);
    const urls = [...page.matchAll(/(?:src|href)="(\/static\/[^"]+)"/g)].map((m) => m[1]);
    expect(urls.filter((u) => /\/static\/(graphiql|react|react-dom)\//.test(u))).toHaveLength(4);
    for (const url of urls) {
      const file = await fetch(`${service.url}${url}`);
      expect(file.status, url).toBe(200);
      expect(file.headers.get("Cache-Control")).toContain("immutable");
      expect(file.headers.get("Content-Type")).toMatch(/^text\/(javascript|css)/);
      await file.arrayBuffer();
    }
    for (const other of [
      bundle.replace("graphiql.min.js", "graphiql.min.js.map"),
      bundle.replace("graphiql.min.js", "package.json"),
      bundle.replace("graphiql.min.js", "../package.json"),
      bundle.replace(/\/\d+\.\d+\.\d+\//, "/0.0.1/"),
      "/static/react/18.3.1/index.js",
    ]) {
      const refused = await fetch(`${service.url}${other}`);
      expect(refused.status, other).toBe(404);
      await refused.text();
    }
  });
});
