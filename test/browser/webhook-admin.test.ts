import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { startReceiver } from "../support/receiver.ts";
import { ADMIN, api, launchBrowser, pageErrors, screenshot, startService } from "./support.ts";

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

describe("the webhook delivery admin in a real browser", () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let browser: Browser;
  let rx: Receiver;
  let admin: BrowserContext;
  let sites = 0;

  /** Waits until the API shows the run in `status`, as a script would poll it. */
  async function until(id: number, status: string): Promise<any> {
    for (let i = 0; i < 200; i++) {
      const run = await api(service, "GET", `/api/extras/webhook-deliveries/${id}/`);
      if (run.status.value === status) return run;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`delivery ${id} never became ${status}`);
  }

  /** Creates a site (the rule sends its creation to the receiver) and returns its run once it failed. */
  async function failedRun(): Promise<any> {
    const site = await api(service, "POST", "/api/dcim/sites/", { name: `Hooked ${++sites}`, slug: `hooked-${sites}` });
    const [run] = (await api(service, "GET", `/api/extras/webhook-deliveries/?object_type=dcim.site&object_id=${site.id}`)).results;
    return until(run.id, "failed");
  }

  /** A browser context signed in through the login form's fields. */
  async function signedIn(username: string, password: string): Promise<BrowserContext> {
    const context = await browser.newContext();
    const reply = await context.request.post(`${service.url}/login/`, { form: { username, password }, maxRedirects: 0 });
    expect(reply.status()).toBe(302);
    return context;
  }

  beforeAll(async () => {
    rx = await startReceiver();
    rx.state.status = 500;
    // Loopback destinations are allowed by default (only link-local and metadata networks are blocked).
    [service, browser] = await Promise.all([startService({ WEBHOOK_TIMEOUT: "3" }), launchBrowser()]);
    const webhook = await api(service, "POST", "/api/extras/webhooks/", {
      name: "Receiver",
      payload_url: `${rx.url}/hook/{{event}}`,
      secret: "browser-secret",
      additional_headers: "X-Api-Key: key-value\nX-Trace: trace-1",
    });
    await api(service, "POST", "/api/extras/event-rules/", {
      name: "Sites created",
      object_types: ["dcim.site"],
      event_types: ["object_created"],
      action_object_type: "extras.webhook",
      action_object_id: webhook.id,
    });
    await api(service, "POST", "/api/users/users/", { username: "visitor", password: "Visitor-password-1" });
    admin = await signedIn(ADMIN.username, ADMIN.password);
  });
  // A test that fails while the receiver holds requests open must not leave it so for the next.
  afterEach(() => void (rx.state.hang = false));
  afterAll(async () => {
    await browser?.close();
    await rx?.close();
    await service?.cleanup();
  });

  it("lists a failed delivery with its error, and its Retry button moves it to queued", async () => {
    const run = await failedRun();
    const page = await admin.newPage();
    const errors = pageErrors(page);
    await page.goto(`${service.url}/admin/webhook-deliveries/`);
    const row = page.locator(`tr[data-id="${run.id}"]`);
    await expect(row.locator(".status").textContent()).resolves.toBe("Failed");
    await expect(row.locator(".error-cell").textContent()).resolves.toContain("HTTP 500");
    await expect(page.locator("#queue-depth .value").textContent()).resolves.toBe("0");
    await screenshot(page, "webhook-admin-failed");

    // The receiver now holds the request open, so the retried run stays queued while it is sent.
    rx.state.hang = true;
    await row.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => row.locator(".status").textContent()).toBe("Queued");
    await expect(page.locator("#admin-message").textContent()).resolves.toBe(`Delivery #${run.id} is queued again.`);
    await expect(row.getByRole("button", { name: "Retry" }).count()).resolves.toBe(0);
    // A script sees the same.
    expect((await api(service, "GET", `/api/extras/webhook-deliveries/${run.id}/`)).status.value).toBe("queued");
    await expect.poll(() => rx.received.length).toBe(2);
    await screenshot(page, "webhook-admin-retried");

    await page.reload();
    await expect(page.locator("#queue-depth .value").textContent()).resolves.toBe("1");
    await expect(page.locator("#oldest-queued .value").textContent()).resolves.toMatch(/^\d+ s$/);
    await screenshot(page, "webhook-admin-queue");
    expect(errors).toEqual([]);
    rx.state.hang = false;
    await until(run.id, "failed");
  });

  it("shows a run's request, response and error log, without secrets", async () => {
    const run = await failedRun();
    const page = await admin.newPage();
    const errors = pageErrors(page);
    await page.goto(`${service.url}/admin/webhook-deliveries/`);
    await page.locator(`tr[data-id="${run.id}"] a[href="/admin/webhook-deliveries/${run.id}/"]`).click();
    await page.locator("#request").waitFor();
    const request = await page.locator("#request").textContent();
    expect(request).toContain(`POST ${rx.url}/hook/created`);
    expect(request).toContain("trace-1");
    expect(request).toContain("x-hook-signature");
    expect(request).not.toContain("key-value");
    expect(request).not.toContain("browser-secret");
    await expect(page.locator("#response").textContent()).resolves.toContain("receiver says no");
    await expect(page.locator("#error-log").textContent()).resolves.toContain("attempt 1: HTTP 500");
    await screenshot(page, "webhook-admin-detail");
    expect(errors).toEqual([]);
  });

  it("retries a selection of failed runs at once, and filters by state", async () => {
    const runs = [await failedRun(), await failedRun()];
    const page = await admin.newPage();
    const errors = pageErrors(page);
    await page.goto(`${service.url}/admin/webhook-deliveries/`);
    await page.locator('select[name="status"]').selectOption("failed");
    await page.waitForURL(/status=failed/);
    const shown = await page.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.querySelector(".status")?.textContent));
    expect(new Set(shown)).toEqual(new Set(["Failed"]));

    rx.state.hang = true;
    for (const run of runs) await page.locator(`input.select-run[value="${run.id}"]`).check();
    await page.getByRole("button", { name: "Retry selected" }).click();
    await expect.poll(() => page.locator("#admin-message").textContent()).toBe("2 deliveries are queued again.");
    for (const run of runs) {
      await expect(page.locator(`tr[data-id="${run.id}"] .status`).textContent()).resolves.toBe("Queued");
      expect((await api(service, "GET", `/api/extras/webhook-deliveries/${run.id}/`)).status.value).toBe("queued");
    }
    await screenshot(page, "webhook-admin-retry-selected");
    expect(errors).toEqual([]);
    rx.state.hang = false;
    for (const run of runs) await until(run.id, "failed");
  });

  it("refuses a signed-in user without the permission, and sends anonymous visitors to log in", async () => {
    const visitor = await signedIn("visitor", "Visitor-password-1");
    const page = await visitor.newPage();
    const response = await page.goto(`${service.url}/admin/webhook-deliveries/`);
    expect(response?.status()).toBe(403);
    await expect(page.locator("h1").textContent()).resolves.toBe("Permission denied");
    await expect(page.locator("header.top").textContent()).resolves.not.toContain("Webhook deliveries");
    await screenshot(page, "webhook-admin-forbidden");
    await visitor.close();

    const anonymous = await browser.newPage();
    await anonymous.goto(`${service.url}/admin/webhook-deliveries/?status=failed`);
    expect(new URL(anonymous.url()).pathname).toBe("/login/");
    expect(new URL(anonymous.url()).searchParams.get("next")).toBe("/admin/webhook-deliveries/?status=failed");
    await anonymous.close();
  });
});
