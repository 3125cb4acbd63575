import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli/harness.js';

/**
 * docs/architecture.md against the tree: every module path it names exists, and every folder a
 * contributor meets (top-level, and under src/) is described.
 */

/** The repository paths a page names in backticks: a folder (`src/espn/`) or a module file. */
export function namedPaths(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const token = m[1] ?? '';
    if (token.startsWith('/') || token.startsWith('.') || token.includes('<') || token.includes('*'))
      continue;
    if (!/^[\w.-]+(\/[\w.-]+)*\/?$/.test(token)) continue;
    const isFolder = token.endsWith('/');
    const isModule = /\.(ts|js|mjs|py|yaml|json|md|html|css)$/.test(token) && token.includes('/');
    if (isFolder || isModule) out.add(token);
  }
  return [...out];
}

/**
 * The named paths that do not resolve. A name resolves when it exists from the root, or when a
 * repository path ends with it: the page names files within a section's folder by their path
 * below it (`delivery/frames.ts` in the delivery section).
 */
export function missingPaths(text: string, repoPaths: readonly string[]): string[] {
  const known = new Set(repoPaths);
  return namedPaths(text).filter(
    (name) => !known.has(name) && !repoPaths.some((path) => path.endsWith(`/${name}`)),
  );
}

/**
 * Every tracked file and folder (folders with a trailing slash), repository-relative: what a
 * contributor's clone holds, not what a test run or a build left beside it (artifacts/, dist/).
 */
function repoPaths(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(`${parts.slice(0, i).join('/')}/`);
  }
  return [...files, ...folders];
}

const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

describe('missingPaths', () => {
  const tree = ['streams/', 'streams/custody.ts', 'src/', 'src/server/', 'src/server/delivery/frames.ts'];

  it('accepts paths from the root and paths below a folder the section is about', () => {
    expect(missingPaths('`streams/custody.ts`, `src/server/`, `delivery/frames.ts`', tree)).toEqual([]);
  });

  it('reports a named file and a named folder that do not exist', () => {
    const planted = '`streams/custody.ts` and `streams/gone.ts`, under `src/nowhere/`';
    expect(missingPaths(planted, tree)).toEqual(['streams/gone.ts', 'src/nowhere/']);
  });

  it('leaves out URLs, package entries and bare names', () => {
    expect(namedPaths('`/v1/asyncapi.json` `courtside/client` `custody.ts` `a/<league>/b`')).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  const paths = repoPaths();

  it('names only paths that exist', () => {
    expect(namedPaths(page).length).toBeGreaterThan(100);
    // dist/ is the build's output, named where the build is described; it need not exist yet.
    expect(missingPaths(page, [...paths, 'dist/'])).toEqual([]);
  });

  it('describes every top-level folder and every folder under src/', () => {
    const top = paths.filter((p) => /^[^/.][^/]*\/$/.test(p));
    const underSrc = paths.filter((p) => p.startsWith('src/') && p.endsWith('/'));
    expect(top).toContain('src/');
    expect(underSrc.length).toBeGreaterThan(10);
    const named = new Set(namedPaths(page));
    expect([...top, ...underSrc].filter((folder) => !named.has(folder))).toEqual([]);
  });

  it('puts server and workers at the rank scripts/layers.ts gives them', async () => {
    const { LAYERS } = await import('../scripts/layers.js');
    const rank = LAYERS.find((l) => l.name === 'server')?.rank;
    expect(LAYERS.find((l) => l.name === 'workers')?.rank).toBe(rank);
    expect(page).toContain(`the two rank-${rank} layers`);
  });
});
