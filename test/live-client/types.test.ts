import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/harness.js';

/**
 * The client library's types, checked by the TypeScript compiler itself: the hand-written
 * declarations equal the model's (typecheck/drift.ts), a user's example narrows events by `type`
 * (typecheck/narrowing.ts, with @ts-expect-error where narrowing must refuse), the earlier names
 * equal the current ones (typecheck/aliases.ts), the library's JavaScript passes `checkJs` against
 * its own JSDoc, and a wrong access does fail.
 */
const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const dir = mkdtempSync(join(tmpdir(), 'courtside-client-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STRICT = {
  target: 'ES2022',
  lib: ['ES2023', 'DOM'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  types: ['node'],
  typeRoots: [join(ROOT, 'node_modules', '@types')],
};

async function tsc(
  files: string[],
  extra: Record<string, unknown> = {},
): Promise<{ code: number; out: string }> {
  const config = join(dir, `tsconfig-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions: { ...STRICT, ...extra }, files }));
  try {
    const { stdout } = await run(process.execPath, [TSC, '-p', config], { cwd: ROOT });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? 1, out: e.stdout ?? String(err) };
  }
}

describe('client library types', () => {
  it('match the model, narrow events by type in a user example, and check the JavaScript', async () => {
    // One compiler run for the three (each run loads @types/node: the slow part). allowJs and
    // checkJs make the library's own JSDoc count; skipLibCheck stays off so the .d.ts files count.
    const result = await tsc(
      [
        join(ROOT, 'test/live-client/typecheck/drift.ts'),
        join(ROOT, 'test/live-client/typecheck/narrowing.ts'),
        join(ROOT, 'test/live-client/typecheck/aliases.ts'),
        join(ROOT, 'src/live-client/courtside.js'),
      ],
      { allowJs: true, checkJs: true },
    );
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('refuse data of the wrong event type (the check has teeth)', async () => {
    const file = join(dir, 'wrong.ts');
    writeFileSync(
      file,
      `import type { GameEvent } from '${join(ROOT, 'src/live-client/courtside.js')}';
export function f(e: GameEvent): number {
  if (e.type === 'play.added') return e.data.score.home;
  return 0;
}
`,
    );
    const result = await tsc([file], { skipLibCheck: true });
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(/error TS2339: Property 'score' does not exist/);
  }, 120_000);
});
