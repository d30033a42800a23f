/**
 * The ceilings the service's throughput is compared with, on the same Node and HTTP stack:
 *   node scripts/bench-ceiling.ts hello PORT          a constant JSON answer
 *   node scripts/bench-ceiling.ts point PORT DBFILE   one primary-key select of a dcim_site row
 *                                                     (native `libsql`, read-only), as JSON
 * PORT 0 picks a free port; the server prints `ceiling <mode> listening on http://127.0.0.1:<port>`.
 * The same servers as shared/bench/ceiling.mjs, kept here so the benchmark runs where shared/ is absent.
 */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import Database from "libsql";

const [mode, port, file] = process.argv.slice(2);
let handler: RequestListener;
if (mode === "hello") {
  const body = JSON.stringify({ hello: "world" });
  handler = (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  };
} else if (mode === "point" && file) {
  const db = new Database(file, { readonly: true });
  const select = db.prepare("SELECT * FROM dcim_site WHERE id = ?");
  const max = Number((db.prepare("SELECT max(id) AS m FROM dcim_site").get() as { m: number }).m);
  let i = 0;
  handler = (_req, res) => {
    const row = select.get((i++ % max) + 1);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(row));
  };
} else {
  console.error("usage: node scripts/bench-ceiling.ts hello PORT | point PORT DBFILE");
  process.exit(2);
}
const server = createServer(handler);
server.listen(Number(port ?? 0), "127.0.0.1", () => {
  console.log(`ceiling ${mode} listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once("SIGTERM", () => process.exit(0));
