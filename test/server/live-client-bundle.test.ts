import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ClientBundleError, bundleClientLibrary } from '../../src/server/live-client-bundle.js';
import { ROOT } from '../cli/harness.js';

const LIBRARY = join(ROOT, 'src', 'live-client');
const work = mkdtempSync(join(tmpdir(), 'courtside-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Writes a throw-away library of the given modules and joins it. */
function bundleOf(modules: Record<string, string>): string {
  const dir = mkdtempSync(join(work, 'lib-'));
  for (const [name, text] of Object.entries(modules)) writeFileSync(join(dir, name), text);
  return bundleClientLibrary(dir, 'entry.js');
}

describe('the client library as one module', () => {
  it('exports exactly what the entry module exports, and works alone (no sibling import left)', async () => {
    const bundle = bundleClientLibrary(LIBRARY);
    expect(bundle).not.toMatch(/from\s*'\.\//);
    const file = join(work, 'courtside.mjs');
    writeFileSync(file, bundle);
    const joined = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const entry = (await import(pathToFileURL(join(LIBRARY, 'courtside.js')).href)) as Record<
      string,
      unknown
    >;
    expect(Object.keys(joined).sort()).toEqual(Object.keys(entry).sort());
    // The reducer from the one file behaves as the module's does.
    const game = { league: 'mens', gameId: '1', seq: 3, state: 'in', score: { home: 2, away: 0 } };
    const store = (joined.gameState as () => { apply(m: unknown): unknown })();
    const reference = (entry.gameState as () => { apply(m: unknown): unknown })();
    expect(store.apply({ type: 'snapshot', game })).toEqual(reference.apply({ type: 'snapshot', game }));
  });

  it('puts each module after the ones it imports and keeps only the entry’s exports', () => {
    const bundle = bundleOf({
      'entry.js': "import { b } from './b.js';\nexport { a } from './a.js';\nexport const c = b + 1;\n",
      'b.js': "import { a } from './a.js';\nexport const b = a + 1;\n",
      'a.js': 'export const a = 1;\n',
    });
    expect(bundle.indexOf('const a = 1')).toBeLessThan(bundle.indexOf('const b = a + 1'));
    expect(bundle.indexOf('const b = a + 1')).toBeLessThan(bundle.indexOf('export const c'));
    expect(bundle).toContain('export { a };');
    expect(bundle).not.toMatch(/export const (a|b)\b/);
  });

  it('refuses an import cycle and an import form it cannot join', () => {
    expect(() =>
      bundleOf({
        'entry.js': "import { x } from './x.js';\nexport const e = x;\n",
        'x.js': "import { e } from './entry.js';\nexport const x = 1;\n",
      }),
    ).toThrow(ClientBundleError);
    expect(() => bundleOf({ 'entry.js': "import * as all from './a.js';\n", 'a.js': '' })).toThrow(
      /form the join cannot read/,
    );
  });
});
