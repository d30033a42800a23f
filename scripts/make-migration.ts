/**
 * Prints the CREATE statements a model declaration needs, to start a new migration file:
 *   npm run make-migration -- dcim.rack dcim.rackrole > migrations/0002_racks.sql
 * Review the output, then commit it; a landed migration is never edited again.
 */
import { modelDdl } from "../src/db/schema.ts";
import { registry } from "../src/models/registry.ts";

const names = process.argv.slice(2);
const models = names.length ? names.map((n) => registry.byObjectType(n) ?? fail(n)) : registry.models;
for (const model of models) {
  console.log(`-- ${model.objectType}`);
  for (const statement of modelDdl(model)) console.log(`${statement};\n`);
}

function fail(name: string): never {
  console.error(`unknown model ${name}; known: ${registry.models.map((m) => m.objectType).join(", ")}`);
  process.exit(2);
}
