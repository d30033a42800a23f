/**
 * The Node.js entry, the zero-config default: `npm start` serves the API on HOST:PORT
 * (127.0.0.1:8787) over the embedded libSQL file LIBSQL_URL (file:data/inventory.db).
 * On Linux it first restarts itself in place with settings read only at start, two malloc arenas
 * and a bounded V8 nursery (runtime/start-settings.ts);
 * the service's modules load as JavaScript stripped once for all its threads (runtime/threads.ts).
 */
import { applyStartSettings } from "./runtime/start-settings.ts";
import { loadStrippedSources } from "./runtime/threads.ts";

applyStartSettings();
loadStrippedSources();
await import("./runtime/node-main.ts");
