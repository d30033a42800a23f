import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/workerd/**", "node_modules/**"],
    globalSetup: ["test/support/scratch.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
