/** Writes schemas/*.json from the zod schemas (`npm run schemas`), in the project's formatting. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { jsonSchemas } from '../src/contracts/json-schema.js';

const dir = new URL('../schemas/', import.meta.url);
mkdirSync(dir, { recursive: true });
const schemas = jsonSchemas();
for (const [name, schema] of Object.entries(schemas)) {
  const file = fileURLToPath(new URL(name, dir));
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(JSON.stringify(schema, null, 2), { ...options, filepath: file }));
}
console.log(`wrote ${Object.keys(schemas).length} schemas to schemas/`);
