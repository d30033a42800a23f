/**
 * Prints the CREATE statements a model declaration needs, to start a new migration file, and the
 * ALTER statements for a field added to a model that has already landed (`app.model.field`):
 *   npm run make-migration -- dcim.rack dcim.rackrole dcim.device.rack > migrations/0002_racks.sql
 * Review the output, then commit it; a landed migration is never edited again.
 */
import { registry } from "../src/apps/index.ts";
import { fieldDdl, modelDdl } from "../src/engine/ddl.ts";

const names = process.argv.slice(2);
for (const name of names.length ? names : registry.models.map((m) => m.objectType)) {
  const [app, modelName, fieldName] = name.split(".");
  const model = registry.byObjectType(`${app}.${modelName}`) ?? fail(name);
  console.log(`-- ${name}`);
  const field = fieldName === undefined ? null : (model.field[fieldName] ?? fail(name));
  for (const statement of field ? fieldDdl(model, field) : modelDdl(model)) console.log(`${statement};\n`);
}

function fail(name: string): never {
  console.error(`unknown model ${name}; known: ${registry.models.map((m) => m.objectType).join(", ")}`);
  process.exit(2);
}
