/**
 * The Node.js entry, the zero-config default: `npm start` serves the API on HOST:PORT
 * (127.0.0.1:8787) over the embedded libSQL file LIBSQL_URL (file:data/inventory.db).
 * The service's modules load as JavaScript stripped once for all its threads (runtime/threads.ts).
 */
import { loadStrippedSources } from "./runtime/threads.ts";

loadStrippedSources();
await import("./runtime/node-main.ts");
