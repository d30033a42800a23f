/**
 * Creates a superuser (and optionally its API token) in LIBSQL_URL, like `manage.py createsuperuser`:
 *   npm run create-superuser -- <username> <password> [<40-hex token>]
 * An existing user or token is left as it is.
 */
import { createApp } from "../src/app.ts";
import { parseConfig } from "../src/config.ts";
import { openDatabase } from "../src/runtime/node-database.ts";
import { loadMigrations, resolveSecretKey } from "../src/runtime/local-files.ts";

const [username, password, token] = process.argv.slice(2);
if (!username || !password) {
  console.error("usage: npm run create-superuser -- <username> <password> [<40-hex API token>]");
  process.exit(2);
}
const config = parseConfig({ ...process.env, SUPERUSER_NAME: username, SUPERUSER_PASSWORD: password, SUPERUSER_API_TOKEN: token });
const db = openDatabase(config);
const app = await createApp({ config, secretKey: resolveSecretKey(config).key, runtime: "script" });
const created = await app.prepare(db, loadMigrations());
console.log(created ? `Superuser ${username} is ready${token ? " with its token" : ""}.` : `Superuser ${username} already exists.`);
db.close();
