import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createServer } from "node:net";

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe("scripts/webhook-listener.ts", () => {
  it("prints the method, path, headers and body of each request and answers 200", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["scripts/webhook-listener.ts", "--port", String(port)], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`listener did not start: ${output}`)), 10_000);
        child.stdout.on("data", () => output.includes("Listening") && (clearTimeout(timer), resolve()));
      });
      const reply = await fetch(`http://127.0.0.1:${port}/hooks/site`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Hook-Signature": "abc" },
        body: JSON.stringify({ event: "created", model: "site" }),
      });
      expect(reply.status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      expect(output).toContain("POST /hooks/site");
      expect(output).toMatch(/X-Hook-Signature: abc/i);
      expect(output).toContain('"event": "created"');
    } finally {
      child.kill();
    }
  });
});
