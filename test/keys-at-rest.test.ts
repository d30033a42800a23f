import { describe, expect, it, vi } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { parseConfig } from "../src/config.ts";
import { nativeDatabase } from "../src/runtime/native-database.ts";
import { loadMigrations } from "../src/runtime/local-files.ts";

const ADMIN = "fedcba9876543210fedcba9876543210fedcba98";

/**
 * Token keys never reach the disk: every byte of the database file (and its WAL) is searched
 * for each key created through the API and by provisioning, with retrieval on and off.
 */
for (const retrieval of ["true", "false"]) {
  describe(`the database file with ALLOW_TOKEN_RETRIEVAL=${retrieval}`, () => {
    it("holds no token key in any form", async () => {
      const dir = mkdtempSync(join(tmpdir(), "keys-at-rest-"));
      const file = join(dir, "inventory.db");
      const config = parseConfig({
        LIBSQL_URL: `file:${file}`,
        SUPERUSER_NAME: "admin",
        SUPERUSER_PASSWORD: "Admin-password-1",
        SUPERUSER_API_TOKEN: ADMIN,
        ALLOW_TOKEN_RETRIEVAL: retrieval,
      });
      const db = nativeDatabase(file);
      const app = await createApp({ config, secretKey: "keys-at-rest-secret-0123456789abcdef0123", runtime: "test" });
      await app.prepare(db, loadMigrations());
      const call = async (method: string, path: string, body: unknown, token: string | null = ADMIN) => {
        const response = await app.fetch(
          new Request(`http://inventory.test${path}`, {
            method,
            body: JSON.stringify(body),
            headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Token ${token}` } : {}) },
          }),
          { db, clientAddress: "127.0.0.1" },
        );
        return response.json() as Promise<Record<string, any>>;
      };
      const keys = [ADMIN];
      keys.push((await call("POST", "/api/users/tokens/", { description: "generated" })).key);
      keys.push((await call("POST", "/api/users/tokens/", { key: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678" })).key);
      await call("POST", "/api/users/users/", { username: "robot", password: "Robot-password-1" });
      keys.push((await call("POST", "/api/users/tokens/provision/", { username: "robot", password: "Robot-password-1" }, null)).key);
      for (const key of keys) expect(key).toMatch(/^[0-9a-f]{40}$/);
      db.close();

      // The database threads close their connections after close() returns; the last one moves
      // the WAL into the file and removes it, maybe between the check and the read: read again.
      // A WAL already gone when checked was in the file before it went.
      const bytes = await vi.waitFor(() => Buffer.concat([file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f))));
      for (const key of keys) {
        expect(bytes.includes(Buffer.from(key, "ascii")), `hex key ${key.slice(0, 6)}…`).toBe(false);
        expect(bytes.includes(Buffer.from(key.toUpperCase(), "ascii"))).toBe(false);
        expect(bytes.includes(Buffer.from(key, "hex")), "raw key bytes").toBe(false);
      }
      rmSync(dir, { recursive: true, force: true });
    });
  });
}

describe("token digests", () => {
  it("are the same through Web Crypto and through the runtime's HMAC (node:crypto), so either reads the other's tokens", async () => {
    const { deriveSecrets } = await import("../src/lib/secrets.ts");
    const { nodeHmac } = await import("../src/runtime/node-hmac.ts");
    const key = "k".repeat(40);
    const [web, node, other] = await Promise.all([
      deriveSecrets(key),
      deriveSecrets(key, nodeHmac),
      deriveSecrets("o".repeat(40), nodeHmac),
    ]);
    // The key as digests stored by earlier releases were made: HKDF straight to an HMAC key.
    const enc = new TextEncoder();
    const material = await crypto.subtle.importKey("raw", enc.encode(key), "HKDF", false, ["deriveKey"]);
    const stored = await crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: enc.encode("inventory token digest v1") },
      material,
      { name: "HMAC", hash: "SHA-256", length: 256 },
      false,
      ["sign"],
    );
    for (const token of ["0123456789abcdef0123456789abcdef01234567", "session:abc", ""]) {
      const digest = await web.tokenDigest(token);
      expect(digest).toBe(Buffer.from(await crypto.subtle.sign("HMAC", stored, enc.encode(token))).toString("hex"));
      expect(digest).toMatch(/^[0-9a-f]{64}$/);
      expect(await node.tokenDigest(token)).toBe(digest);
      expect(await other.tokenDigest(token)).not.toBe(digest);
    }
  });
});
