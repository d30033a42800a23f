import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../src/config.ts";

describe("settings", () => {
  it("have the documented defaults", () => {
    expect(parseConfig({})).toMatchObject({
      LIBSQL_URL: "file:data/inventory.db",
      HOST: "127.0.0.1",
      PORT: 8787,
      PAGINATE_COUNT: 50,
      MAX_PAGE_SIZE: 1000,
      ALLOW_TOKEN_RETRIEVAL: true,
      EXEMPT_VIEW_PERMISSIONS: [],
      MAINTENANCE_MODE: false,
      API_VERSION: "4.2",
      DATABASE_BUSY_TIMEOUT: 5000,
      WORKER_HEAP_MB: 512,
    });
    expect(Object.keys(parseConfig({}).DEFAULT_PERMISSIONS)).toContain("users.add_token");
  });

  it("parse lists, booleans and JSON", () => {
    const config = parseConfig({
      EXEMPT_VIEW_PERMISSIONS: '["dcim.site", "tenancy.*"]',
      ALLOW_TOKEN_RETRIEVAL: "False",
      MAINTENANCE_MODE: "yes",
      DEFAULT_PERMISSIONS: '{"users.view_token": {"user": "$user"}}',
      MAX_PAGE_SIZE: "0",
    });
    expect(config).toMatchObject({
      EXEMPT_VIEW_PERMISSIONS: ["dcim.site", "tenancy.*"],
      ALLOW_TOKEN_RETRIEVAL: false,
      MAINTENANCE_MODE: true,
      MAX_PAGE_SIZE: 0,
    });
    expect(parseConfig({ EXEMPT_VIEW_PERMISSIONS: "dcim.site, ipam.*" }).EXEMPT_VIEW_PERMISSIONS).toEqual(["dcim.site", "ipam.*"]);
  });

  it("stop the start with one message naming every bad variable", () => {
    let error: unknown;
    try {
      parseConfig({
        PORT: "http",
        PAGINATE_COUNT: "0",
        API_VERSION: "4",
        SUPERUSER_API_TOKEN: "short",
        DEFAULT_PERMISSIONS: "[1]",
        SECRET_KEY: "tiny",
        DATABASE_BUSY_TIMEOUT: "5s",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of [
      "PORT",
      "PAGINATE_COUNT",
      "API_VERSION",
      "SUPERUSER_API_TOKEN",
      "DEFAULT_PERMISSIONS",
      "SECRET_KEY",
      "DATABASE_BUSY_TIMEOUT",
    ]) {
      expect(message).toContain(name);
    }
    expect(message).not.toContain("tiny");
  });
});
