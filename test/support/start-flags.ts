import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Node's own flags in `npm start` (package.json): the soak runs its daemons with them, and the
 * Docker image's entrypoint must give the same, so that what is measured is what runs.
 */
export function startNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const flags = /\bnode((?:\s+--\S+)*)\s+dist\/src\/cli\.js serve\b/.exec(pkg.scripts.start);
  if (!flags) throw new Error(`npm start does not run dist/src/cli.js serve: ${pkg.scripts.start}`);
  return (flags[1] ?? '').split(/\s+/).filter(Boolean);
}
