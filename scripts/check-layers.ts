import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheck } from './layers.js';

// Part of `npm run lint`: fails on any import cycle between files and on any import against the
// layer order (docs/architecture.md). An argument names another tree to check (the tests plant
// violations in a temporary one).
const root = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('..', import.meta.url));
const count = runCheck(root);
if (count > 0) {
  console.error(
    `check-layers: ${count} violation${count === 1 ? '' : 's'}; the layer order is in docs/architecture.md`,
  );
  process.exit(1);
}
console.log('check-layers: no cycle, no import against the layer order');
