import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { ADMIN, api, launchBrowser, pageErrors, screenshot, startService } from "./support.ts";

describe("Swagger UI in a real browser", () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let browser: Browser;
  beforeAll(async () => {
    [service, browser] = await Promise.all([startService(), launchBrowser()]);
    await api(service, "POST", "/api/dcim/sites/", { name: "Swagger DC", slug: "swagger-dc" });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.cleanup();
  });

  it("renders every application's operations from our own assets and runs an authorized GET", async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    const outside: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(service.url)) outside.push(request.url());
    });
    await page.goto(`${service.url}/api/schema/swagger-ui/`);
    await page.locator(".swagger-ui .info .title").waitFor();
    // One section per application, each with its operations.
    for (const app of ["circuits", "dcim", "extras", "ipam", "tenancy", "users", "virtualization"]) {
      await expect(page.locator(`#operations-tag-${app}`).count()).resolves.toBe(1);
    }
    await screenshot(page, "swagger-ui");

    // Authorize with the token, as a user pastes it: "Token <key>".
    await page.getByRole("button", { name: "Authorize" }).first().click();
    await page.locator(".modal-ux input[type=text]").first().fill(`Token ${ADMIN.token}`);
    await page.locator(".modal-ux").getByRole("button", { name: "Authorize", exact: true }).click();
    await page.locator(".modal-ux").getByRole("button", { name: "Close" }).click();

    // Open the site list operation and execute it.
    await page.locator("#operations-tag-dcim").click();
    const operation = page.locator("#operations-dcim-dcim_sites_list");
    await operation.locator(".opblock-summary").click();
    await operation.getByRole("button", { name: "Try it out" }).click();
    await operation.getByRole("button", { name: "Execute" }).click();
    const status = operation.locator(".live-responses-table .response .response-col_status").first();
    await expect.poll(() => status.textContent()).toContain("200");
    await expect(operation.locator(".live-responses-table .response-col_description pre").first().textContent()).resolves.toContain("Swagger DC");
    await screenshot(page, "swagger-ui-try-it-out");

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("serves Swagger UI's files with long-lived caching, and nothing else of the package", async () => {
    const page = await (await fetch(`${service.url}/api/schema/swagger-ui/`)).text();
    const bundle = /src="([^"]*swagger-ui-bundle\.js)"/.exec(page)![1];
    const response = await fetch(`${service.url}${bundle}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    expect(response.headers.get("Content-Type")).toContain("javascript");
    expect((await fetch(`${service.url}${bundle.replace("swagger-ui-bundle.js", "index.html")}`)).status).toBe(404);
    expect((await fetch(`${service.url}${bundle.replace("swagger-ui-bundle.js", "../package.json")}`)).status).toBe(404);
  });
});
