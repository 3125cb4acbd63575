import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSizes, formatOffence, MAX_FILE_LINES, MAX_FUNCTION_LINES } from './sizes.js';

// Reports product files over MAX_FILE_LINES and functions over MAX_FUNCTION_LINES, so long
// functions get split along their phases before they grow further. An argument names another tree
// to check (the tests plant offenders in a temporary one); `--warn` prints without failing.
const args = process.argv.slice(2);
const warn = args.includes('--warn');
const dir = args.find((a) => !a.startsWith('--'));
const root = dir ? resolve(dir) : fileURLToPath(new URL('..', import.meta.url));
const offences = checkSizes(root);
for (const o of offences) console.error(formatOffence(o));
if (offences.length > 0) {
  console.error(
    `check-sizes: ${offences.length} over the limits (files ${MAX_FILE_LINES} lines, functions ${MAX_FUNCTION_LINES})`,
  );
  if (!warn) process.exit(1);
} else
  console.log(`check-sizes: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}`);
