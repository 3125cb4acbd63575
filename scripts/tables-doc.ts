import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { collectRecordings, renderTablesDoc } from '../src/tables/doc.js';

// Regenerates docs/tables.md from the schema and the list of recorded payloads, formatted as `npm run lint` expects.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = resolve(process.env.COURTSIDE_FIXTURES ?? join(root, '..', 'shared', 'fixtures', 'espn'));
const target = join(root, 'docs', 'tables.md');
const config = (await resolveConfig(target)) ?? {};
writeFileSync(
  target,
  await format(renderTablesDoc(collectRecordings(fixtures)), { ...config, filepath: target }),
);
console.log(`wrote ${target}`);
