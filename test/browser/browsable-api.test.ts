import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ADMIN, api, launchBrowser, pageErrors, screenshot, startService } from "./support.ts";

describe("the browsable API in a real browser", () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let browser: Browser;
  let site: { id: number; url: string };
  beforeAll(async () => {
    [service, browser] = await Promise.all([startService(), launchBrowser()]);
    site = await api(service, "POST", "/api/dcim/sites/", { name: "Amsterdam DC", slug: "ams-dc" });
    await api(service, "POST", "/api/dcim/sites/", { name: "Berlin DC", slug: "ber-dc" });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.cleanup();
  });

  /**
   * A fresh browser profile (no cookies), its page, and what the page reports as errors (CSP
   * refusals, script exceptions). The 400, 403 and 404 answers this test asks for on purpose, and the
   * favicon the browser looks for, are reported too: those are left out.
   */
  async function open(): Promise<{ context: BrowserContext; page: Page; errors: () => string[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const all = pageErrors(page);
    const errors = () => all.filter((e) => !/^Failed to load resource: the server responded with a status of 40[034]/.test(e));
    return { context, page, errors };
  }

  async function logIn(page: Page, next = "/api/"): Promise<void> {
    await page.goto(`${service.url}/login/?next=${encodeURIComponent(next)}`);
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${service.url}${next}`);
  }

  it("shows a site list and follows a link to a site's detail page", async () => {
    const { context, page, errors } = await open();
    await logIn(page, "/api/");
    await expect(page.locator("h1").textContent()).resolves.toBe("API Root");
    await screenshot(page, "browsable-root");

    await page.getByRole("link", { name: `"${service.url}/api/dcim/"` }).click();
    await page.getByRole("link", { name: `"${service.url}/api/dcim/sites/"` }).click();
    await expect(page.locator("h1").textContent()).resolves.toBe("Site List");
    await expect(page.locator("pre.headers").textContent()).resolves.toMatch(/HTTP 200 OK[\s\S]*API-Version: 4\.2[\s\S]*Allow: GET, POST/);
    await expect(page.locator("aside.filters").textContent()).resolves.toContain("name");
    await screenshot(page, "browsable-site-list");

    await page
      .getByRole("link", { name: `"${site.url}"` })
      .first()
      .click();
    await page.waitForURL(site.url);
    await expect(page.locator("h1").textContent()).resolves.toBe("Site: Amsterdam DC");
    await expect(page.locator("pre.json").textContent()).resolves.toContain('"slug": "ams-dc"');
    await screenshot(page, "browsable-site-detail");
    expect(errors()).toEqual([]);
    await context.close();
  });

  it("follows pagination links and searches a list", async () => {
    const { context, page, errors } = await open();
    await logIn(page, "/api/dcim/sites/?limit=1");
    await expect(page.locator(".pager .count").first().textContent()).resolves.toBe("1–1 of 2");
    await page.getByRole("link", { name: "Next »" }).first().click();
    await expect(page.locator("pre.json").textContent()).resolves.toContain("Berlin DC");
    await page.getByRole("searchbox", { name: "Search" }).fill("amster");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/q=amster/);
    const listed = await page.locator("pre.json").textContent();
    expect(listed).toContain("Amsterdam DC");
    expect(listed).not.toContain("Berlin DC");
    expect(errors()).toEqual([]);
    await context.close();
  });

  it("logs in and out: the header shows who is logged in, then not", async () => {
    const { context, page, errors } = await open();
    await page.goto(`${service.url}/api/dcim/sites/`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Forbidden");
    await screenshot(page, "browsable-anonymous-403");
    await page.locator("header.top").getByRole("link", { name: "Log in" }).click();
    await screenshot(page, "login");

    // A wrong password shows the form again, with the reason and the username kept.
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("Invalid username/password");
    await expect(page.getByLabel("Username").inputValue()).resolves.toBe(ADMIN.username);
    await screenshot(page, "login-failed");

    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(`${service.url}/api/dcim/sites/`);
    await expect(page.locator("header.top .username").textContent()).resolves.toBe(ADMIN.username);
    await expect(page.locator("h1").textContent()).resolves.toBe("Site List");

    await page.locator("header.top").getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(`${service.url}/login/`);
    await expect(page.locator("header.top .username").count()).resolves.toBe(0);
    // The login page is the way back in; elsewhere the header offers "Log in" again.
    await expect(page.getByRole("button", { name: "Log in" }).count()).resolves.toBe(1);
    await screenshot(page, "logged-out");
    // The session is over on the server, not only forgotten by the browser.
    await page.goto(`${service.url}/api/dcim/sites/`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Forbidden");
    await expect(page.locator("header.top").getByRole("link", { name: "Log in" }).count()).resolves.toBe(1);
    expect(errors()).toEqual([]);
    await context.close();
  });

  it("creates an object with the list's form, then changes and deletes it on its page", async () => {
    const { context, page, errors } = await open();
    await logIn(page, "/api/dcim/sites/");
    const body = page.locator("form.api-form textarea");
    await expect(body.inputValue().then(JSON.parse)).resolves.toEqual({ name: "", slug: "" });
    await body.fill(JSON.stringify({ name: "Created In Browser", slug: "created-in-browser", status: "planned" }));
    await screenshot(page, "browsable-post-form");
    await page.getByRole("button", { name: "POST" }).click();
    await page.waitForURL(/\/api\/dcim\/sites\/\d+\/$/);
    await expect(page.locator("h1").textContent()).resolves.toBe("Site: Created In Browser");
    await screenshot(page, "browsable-created");

    // The JSON API has it.
    const created = (await api(service, "GET", "/api/dcim/sites/?slug=created-in-browser")).results;
    expect(created).toHaveLength(1);
    expect(created[0].status.value).toBe("planned");
    expect(page.url()).toBe(created[0].url);

    // PATCH from the prefilled form.
    const edit = JSON.parse(await page.locator("form.api-form textarea").inputValue());
    expect(edit).toMatchObject({ name: "Created In Browser", slug: "created-in-browser", status: "planned" });
    await page.locator("form.api-form textarea").fill(JSON.stringify({ description: "edited here" }));
    await page.getByRole("button", { name: "PATCH" }).click();
    await expect.poll(() => page.locator("pre.json").textContent()).toContain('"description": "edited here"');
    expect((await api(service, "GET", `/api/dcim/sites/${created[0].id}/`)).description).toBe("edited here");

    // A refused write shows the API's answer and changes nothing.
    await page.locator("form.api-form textarea").fill(JSON.stringify({ status: "no-such-status" }));
    await page.getByRole("button", { name: "PATCH" }).click();
    await expect.poll(() => page.locator("form.api-form .api-result").first().textContent()).toContain("HTTP 400");
    await screenshot(page, "browsable-write-refused");

    await page.getByText("Delete this site…").click();
    await page.getByRole("button", { name: "DELETE" }).click();
    await page.waitForURL(`${service.url}/api/dcim/sites/`);
    expect((await api(service, "GET", "/api/dcim/sites/?slug=created-in-browser")).count).toBe(0);
    expect(errors()).toEqual([]);
    await context.close();
  });

  it("renders an object named <script>alert(1)</script> as text", async () => {
    const evil = await api(service, "POST", "/api/dcim/sites/", {
      name: "<script>alert(1)</script>",
      slug: "evil",
      description: '"><img src=x onerror=alert(2)>',
    });
    const { context, page, errors } = await open();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await logIn(page, `/api/dcim/sites/${evil.id}/`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Site: <script>alert(1)</script>");
    await expect(page.getByText('"<script>alert(1)</script>"').first().isVisible()).resolves.toBe(true);
    await expect(page.locator("main script, main img").count()).resolves.toBe(0);
    await screenshot(page, "browsable-escaped");
    await page.goto(`${service.url}/api/dcim/sites/?q=${encodeURIComponent("<script>alert(3)</script>")}`);
    await expect(page.locator("main script").count()).resolves.toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors()).toEqual([]);
    await context.close();
  });
});
