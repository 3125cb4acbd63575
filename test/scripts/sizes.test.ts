import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSizes, formatOffence, longFunctions } from '../../scripts/sizes.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const trees: string[] = [];

/** A throw-away source tree: `files` maps repository paths to their text. */
function plant(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'courtside-sizes-'));
  trees.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

/** A body of `n` statement lines. */
const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('size check', () => {
  it('reports a function declaration, an arrow function and a method over 120 lines, naming each', () => {
    const text = [
      `export function long() {\n${body(119)}\n}`,
      `export function fits() {\n${body(118)}\n}`,
      `export const arrow = () => {\n${body(130)}\n};`,
      `class C {\n  method() {\n${body(125)}\n  }\n}`,
    ].join('\n');
    const found = longFunctions('src/core/x.ts', text).map((o) => `${o.name}:${o.line}:${o.lines}`);
    expect(found).toEqual(['long:1:121', 'arrow:242:132', 'method:375:127']);
  });

  it('reports a file over 500 lines, and leaves test, bench and scripts trees and exempt files alone', () => {
    const long = `${body(501)}\n`;
    const root = plant({
      'src/core/big.ts': long,
      'src/core/small.ts': `${body(500)}\n`,
      'src/tables/schema.ts': long,
      'test/core/big.test.ts': long,
      'bench/big.ts': long,
      'scripts/big.ts': long,
    });
    expect(checkSizes(root).map(formatOffence)).toEqual(['src/core/big.ts: 501 lines (limit 500)']);
  });

  it('exits 1 from the command line on a planted offender, 0 on a clean tree, and 0 with --warn', async () => {
    const script = join(ROOT, 'scripts', 'check-sizes.ts');
    const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
    const bad = plant({ 'streams/long.ts': `export function phases() {\n${body(150)}\n}\n` });
    const failed = await run(tsx, [script, bad]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/streams\/long\.ts:1: function phases is 152 lines \(limit 120\)/);
    const warned = await run(tsx, [script, bad, '--warn']);
    expect(warned.stderr).toMatch(/check-sizes: 1 over the limits/);
    const clean = plant({ 'streams/short.ts': `export function phases() {\n${body(10)}\n}\n` });
    const ok = await run(tsx, [script, clean]);
    expect(ok.stdout).toMatch(/no file over 500 lines/);
  });
});
