import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { ADMIN, api, launchBrowser, pageErrors, screenshot, startService } from "./support.ts";

describe("Swagger UI in a real browser", () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let browser: Browser;
  let siteId: number;
  beforeAll(async () => {
    [service, browser] = await Promise.all([startService(), launchBrowser()]);
    siteId = (await api(service, "POST", "/api/dcim/sites/", { name: "Swagger DC", slug: "swagger-dc" })).id;
  });
  afterAll(async () => {
    await browser?.close();
    await service?.cleanup();
  });

  // Swagger UI takes seconds to lay out a document of 800+ operations on a small machine.
  it("renders every application's operations from our own assets and runs an authorized GET", { timeout: 240_000 }, async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(45_000);
    const errors = pageErrors(page);
    const outside: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(service.url)) outside.push(request.url());
    });
    await page.goto(`${service.url}/api/schema/swagger-ui/`);
    await page.locator(".swagger-ui .info .title").waitFor();
    // One section per application, each with its operations.
    for (const app of ["circuits", "dcim", "extras", "ipam", "tenancy", "users", "virtualization"]) {
      await page.locator(`#operations-tag-${app}`).waitFor();
    }
    await page.locator("#operations-tag-tenancy").click();
    await page.locator("#operations-tenancy-tenancy_tenants_list").waitFor();
    await screenshot(page, "swagger-ui");

    // Authorize with the token, as a user pastes it: "Token <key>". It is kept for the next visit.
    await page.locator(".auth-wrapper button.authorize").first().click();
    await page.locator(".modal-ux input[type=text]").first().fill(`Token ${ADMIN.token}`);
    await page.locator(".modal-ux button.modal-btn.authorize").first().click();
    await page.locator(".modal-ux button.btn-done").first().click();

    // A deep link opens one operation, as a user following a shared link would. (The site list's
    // form has a row for each of its 250 filters, which Swagger UI lays out slowly on a small machine.)
    await page.goto("about:blank");
    await page.goto(`${service.url}/api/schema/swagger-ui/#/dcim/dcim_sites_retrieve`);
    const operation = page.locator("#operations-dcim-dcim_sites_retrieve");
    // Laying the document out again takes the browser half a minute on a busy two-core machine.
    await operation.locator(".opblock-body").waitFor({ timeout: 120_000 });

    // Try the site operation out.
    await operation.locator("button.try-out__btn").click();
    await operation.locator("tr[data-param-name='id'] input").fill(String(siteId));
    await operation.locator("button.execute").click();
    const status = operation.locator(".live-responses-table .response .response-col_status").first();
    await status.waitFor();
    expect(await status.textContent()).toContain("200");
    await expect(operation.locator(".live-responses-table .response-col_description pre").first().textContent()).resolves.toContain(
      "Swagger DC",
    );
    await screenshot(operation.locator(".responses-wrapper"), "swagger-ui-try-it-out");

    await page.close();
    expect(outside).toEqual([]);
    // Swagger UI's own notice about `_` in deep links, which every NetBox-style operation id has.
    expect(errors.filter((e) => !e.startsWith("Deprecated: escaping deep link whitespace"))).toEqual([]);
  });

  it("serves Swagger UI's files with long-lived caching, and nothing else of the package", async () => {
    const page = await (await fetch(`${service.url}/api/schema/swagger-ui/`)).text();
    const bundle = /src="([^"]*swagger-ui-bundle\.js)"/.exec(page)![1];
    const response = await fetch(`${service.url}${bundle}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    expect(response.headers.get("Content-Type")).toContain("javascript");
    await response.arrayBuffer();
    for (const other of ["index.html", "../package.json"]) {
      const refused = await fetch(`${service.url}${bundle.replace("swagger-ui-bundle.js", other)}`);
      expect(refused.status).toBe(404);
      await refused.text();
    }
  });
});
