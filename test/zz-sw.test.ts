import { it } from "vitest";
import { ADMIN, launchBrowser, screenshot, startService } from "/work/main/test/browser/support.ts";
it("debug", async () => {
  const [service, browser] = await Promise.all([startService(), launchBrowser()]);
  const page = await browser.newPage();
  await page.goto(`${service.url}/api/schema/swagger-ui/#/dcim/dcim_sites_list`);
  const operation = page.locator("#operations-dcim-dcim_sites_list");
  await operation.locator(".opblock-body").waitFor({ timeout: 60000 });
  await page.locator(".auth-wrapper button.authorize").first().click();
  await screenshot(page, "debug-modal");
  const modal = await page.locator(".modal-ux").evaluate((e) => [...e.querySelectorAll("input,button")].map((b) => b.outerHTML.slice(0, 150)));
  console.log("XX", modal);
  await browser.close(); await service.cleanup();
}, 240000);
