import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { startNodeService, type NodeService } from "../../src/runtime/node-service.ts";

export const ADMIN = { username: "admin", password: "Admin-password-1", token: "0123456789abcdef0123456789abcdef01234567" };

/** Debian's chromium (package `chromium`), which `.ci/run` installs; CHROMIUM_PATH names another build. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Where screenshots go, to look at while building the pages (not committed). */
export const SCREENSHOTS = join(import.meta.dirname, "../../test-output/screenshots");

/** The real service on a real socket (127.0.0.1, a free port) over a fresh database file. */
export async function startService(env: Record<string, string> = {}): Promise<NodeService & { cleanup(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "inventory-browser-"));
  const service = await startNodeService({
    LIBSQL_URL: `file:${dir}/inventory.db`,
    HOST: "127.0.0.1",
    PORT: "0",
    SUPERUSER_NAME: ADMIN.username,
    SUPERUSER_PASSWORD: ADMIN.password,
    SUPERUSER_API_TOKEN: ADMIN.token,
    ...env,
  });
  return Object.assign(service, {
    async cleanup() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/**
 * Headless chromium, offline: no sandbox (CI runs as root), and none of the background services
 * that would try to reach Google's hosts from a machine without internet.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Debian's chromium at ${CHROMIUM} (apt-get install chromium), or CHROMIUM_PATH set to another build.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** Saves what the page (whole) or one element shows now as `test-output/screenshots/<name>.png`. */
export async function screenshot(target: Page | Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await ("goto" in target ? target.screenshot({ path, fullPage: true }) : target.screenshot({ path }));
}

/** Calls the JSON API with the superuser's token, for setting up what a page should show. */
export async function api(service: NodeService, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { Authorization: `Token ${ADMIN.token}`, "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Collects what the browser reports as errors (CSP refusals, script exceptions), to assert there are none. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}
