/**
 * A local receiver for checking rendered webhooks (SPEC.md 6.3.6): listens on TCP 9000 (or
 * --port N) on 127.0.0.1 and prints the method, path, headers and body of each request. It does
 * nothing else and answers every request with 200.
 */
import { createServer } from "node:http";

const portArg = process.argv.indexOf("--port");
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 9000;
let count = 0;

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    let shown = body;
    try {
      shown = JSON.stringify(JSON.parse(body), null, 2);
    } catch {}
    console.log(`[${++count}] ${new Date().toISOString()} ${req.method} ${req.url}`);
    for (let i = 0; i < req.rawHeaders.length; i += 2) console.log(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    console.log(`\n${shown}\n${"-".repeat(72)}`);
    res.writeHead(200, { "Content-Type": "text/plain" }).end("Webhook received!\n");
  });
}).listen(port, "127.0.0.1", () => console.log(`Listening for webhooks on http://127.0.0.1:${port}/`));
