/**
 * The Worker entry under real workerd: `vitest run --config vitest.workerd.config.ts`.
 *
 * @cloudflare/vitest-plugin builds the worker from wrangler.toml (its `[[rules]]` import
 * migrations/*.sql as text) and runs the tests in the same isolate as the worker. The database is a
 * local Hrana server (scripts/libsql-server.ts) started by the global setup, which provides its URL.
 */
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { prepareWorkerAssets } from "./scripts/worker-assets.ts";

// No network here: Miniflare would otherwise try to fetch the `request.cf` object at start.
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
process.env.WRANGLER_SEND_METRICS ??= "false";
// wrangler.toml's `[assets]` folder, which `[build]` fills for wrangler but the plugin does not build.
prepareWorkerAssets();

/** The superuser the worker creates on its first request; the tests authenticate as it. */
export const WORKERD_SUPERUSER = {
  SUPERUSER_NAME: "admin",
  SUPERUSER_PASSWORD: "workerd-admin-password",
  SUPERUSER_API_TOKEN: "feedfacecafebeef0123456789abcdef01234567",
};

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: "./wrangler.toml" },
      remoteBindings: false,
      miniflare: {
        bindings: {
          LIBSQL_URL: inject<string>("libsqlUrl"),
          RECEIVER_URL: inject<string>("receiverUrl"),
          // Retries on, so the consumer's retry path is exercised; seconds are the queue's delays.
          WEBHOOK_MAX_RETRIES: "2",
          WEBHOOK_RETRY_BACKOFF: "1",
          SECRET_KEY: "workerd-test-secret-key-0123456789abcdef",
          ...WORKERD_SUPERUSER,
        },
      },
    })),
  ],
  test: {
    include: ["test/workerd/**/*.test.ts"],
    globalSetup: ["test/workerd/global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
