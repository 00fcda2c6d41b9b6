/** Writes schemas/*.json from the zod schemas (`npm run schemas`). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { jsonSchemas } from '../src/contracts/json-schema.js';

const dir = new URL('../schemas/', import.meta.url);
mkdirSync(dir, { recursive: true });
const schemas = jsonSchemas();
for (const [name, schema] of Object.entries(schemas))
  writeFileSync(new URL(name, dir), JSON.stringify(schema, null, 2) + '\n');
console.log(`wrote ${Object.keys(schemas).length} schemas to schemas/`);
