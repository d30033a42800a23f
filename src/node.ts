/**
 * The Node.js entry, the zero-config default: `npm start` serves the API on HOST:PORT
 * (127.0.0.1:8787) over the embedded libSQL file LIBSQL_URL (file:data/inventory.db).
 */
import { ConfigError } from "./config.ts";
import { startNodeService } from "./runtime/node-service.ts";

try {
  const service = await startNodeService(process.env);
  console.log(`Inventory API listening on ${service.url}/api/ (database ${service.config.LIBSQL_URL})`);
  if (service.secretKeyFile) console.log(`Generated SECRET_KEY and kept it in ${service.secretKeyFile}`);
  const boot = service.bootstrap;
  if (boot?.password || boot?.token) {
    console.log("\nFirst start: created a superuser. This is shown only once:");
    console.log(`  username: ${boot.username}`);
    if (boot.password) console.log(`  password: ${boot.password}`);
    if (boot.token) {
      console.log(`  API token: ${boot.token}`);
      console.log(`\nTry: curl -H "Authorization: Token ${boot.token}" ${service.url}/api/dcim/sites/`);
    }
  }
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
