/**
 * The Node.js service as `npm start` runs it (src/node.ts loads it): starts it from the
 * environment, reports where it listens, and stops it on SIGINT or SIGTERM.
 */
import { bootstrapMessage } from "../auth/bootstrap.ts";
import { ConfigError } from "../config.ts";
import { startNodeService } from "./node-service.ts";

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
