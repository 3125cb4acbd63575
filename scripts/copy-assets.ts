import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Part of `npm run build`, after tsc: tsc emits JavaScript only for TypeScript sources, but the
// built package also runs files that are not TypeScript (the plain-JS client library, the overlay's
// pages, styles and scripts, hand-written .d.ts). Each is copied to the same place under dist/, so
// the built code finds them where the sources do, beside the module that loads them.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The folders tsconfig.build.json compiles.
const TREES = ['src', 'streams', 'workers'];

/** Every file tsc does not write into dist itself: not `.ts`, or a hand-written `.d.ts`. */
function isAsset(name: string): boolean {
  return !name.endsWith('.ts') || name.endsWith('.d.ts');
}

function copyTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) copyTree(path);
    else if (entry.isFile() && isAsset(entry.name)) cpSync(path, join(ROOT, 'dist', relative(ROOT, path)));
  }
}

for (const tree of TREES) copyTree(join(ROOT, tree));
