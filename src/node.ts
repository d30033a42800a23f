/**
 * The Node.js entry, the zero-config default: `npm start` serves the API on HOST:PORT
 * (127.0.0.1:8787) over the embedded libSQL file LIBSQL_URL (file:data/inventory.db).
 * On Linux it first restarts itself in place with two malloc arenas (runtime/malloc-arenas.ts);
 * the service's modules load as JavaScript stripped once for all its threads (runtime/threads.ts).
 */
import { limitMallocArenas } from "./runtime/malloc-arenas.ts";
import { loadStrippedSources } from "./runtime/threads.ts";

limitMallocArenas();
loadStrippedSources();
await import("./runtime/node-main.ts");
