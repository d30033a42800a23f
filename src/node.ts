/**
 * The Node.js entry, the zero-config default: `npm start` serves the API on HOST:PORT
 * (127.0.0.1:8787) over the embedded libSQL file LIBSQL_URL (file:data/inventory.db).
 */
import { bootstrapMessage } from "./auth/bootstrap.ts";
import { ConfigError } from "./config.ts";
import { startNodeService } from "./runtime/node-service.ts";

try {
  const service = await startNodeService(process.env);
  console.log(`Inventory API listening on ${service.url}/api/ (database ${service.config.LIBSQL_URL})`);
  if (service.secretKeyFile) console.log(`Generated SECRET_KEY and kept it in ${service.secretKeyFile}`);
  for (const line of bootstrapMessage(service.bootstrap, service.url)) console.log(line);
  const stop = async () => {
    await service.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
