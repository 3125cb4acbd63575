import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { renderOperationsDoc } from '../src/espn/operations-doc.js';

// Regenerates docs/operations.md from the operation registry, formatted as `npm run lint` expects.
const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'operations.md');
const config = (await resolveConfig(target)) ?? {};
writeFileSync(target, await format(renderOperationsDoc(), { ...config, filepath: target }));
console.log(`wrote ${target}`);
