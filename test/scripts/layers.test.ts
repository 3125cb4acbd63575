import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { buildGraph, checkLayers, findCycles, layerOf, listSources, runCheck } from '../../scripts/layers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const trees: string[] = [];

/** A throw-away source tree: `files` maps repository paths to their imports. */
function plant(files: Record<string, readonly string[]>): string {
  const root = mkdtempSync(join(tmpdir(), 'courtside-layers-'));
  trees.push(root);
  for (const [file, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    const lines = imports.map((spec, i) => `import { x${i} } from '${spec}';`);
    writeFileSync(join(root, file), `${lines.join('\n')}\nexport const x = 1;\n`);
  }
  return root;
}

function violations(root: string): string[] {
  return checkLayers(buildGraph(root, listSources(root))).map((v) => `${v.kind}: ${v.message}`);
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('layer check', () => {
  it('finds no cycle and no import against the order in the repository', () => {
    const lines: string[] = [];
    expect(runCheck(ROOT, (line) => lines.push(line))).toBe(0);
    expect(lines).toEqual([]);
  });

  it('assigns every source file of the repository to a layer', () => {
    const files = listSources(ROOT);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => !layerOf(f))).toEqual([]);
  });

  it('accepts imports down the order', () => {
    const root = plant({
      'src/core/errors.ts': [],
      'src/model/events.ts': ['../core/errors.js'],
      'streams/engine.ts': ['../src/model/events.js', '../src/core/errors.js'],
      'src/daemon/daemon.ts': ['../../streams/engine.js'],
    });
    expect(violations(root)).toEqual([]);
  });

  it('fails on a back-import, naming both files and the layers allowed', () => {
    const root = plant({
      'src/core/errors.ts': ['../server/server.js'],
      'src/server/server.ts': [],
    });
    const found = violations(root);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /^layer: src\/core\/errors\.ts \(core\) imports src\/server\/server\.ts \(server\)/,
    );
  });

  it('fails when server and workers import each other (same rank)', () => {
    const root = plant({
      'src/server/gateway.ts': ['../../workers/producer.js'],
      'workers/producer.ts': [],
    });
    expect(violations(root)).toEqual([
      expect.stringMatching(/^layer: src\/server\/gateway\.ts \(server\) imports workers/),
    ]);
  });

  it('fails when product code imports the simulator', () => {
    const root = plant({
      'src/daemon/daemon.ts': ['../simulator/index.js'],
      'src/simulator/index.ts': [],
      'src/cli/demo.ts': ['../simulator/index.js'],
    });
    expect(violations(root)).toEqual([
      expect.stringMatching(/^layer: src\/daemon\/daemon\.ts \(daemon\) imports src\/simulator/),
    ]);
  });

  it('fails on a file cycle inside one layer, type-only imports included', () => {
    const root = plant({
      'src/server/a.ts': ['./b.js'],
      'src/server/b.ts': ['./c.js'],
      'src/server/c.ts': ['./a.js'],
      'src/server/d.ts': ['./a.js'],
    });
    writeFileSync(
      join(root, 'src/server/c.ts'),
      "import type { x } from './a.js';\nexport type Y = typeof x;\n",
    );
    expect(findCycles(buildGraph(root, listSources(root)))).toEqual([
      ['src/server/a.ts', 'src/server/b.ts', 'src/server/c.ts'],
    ]);
    expect(violations(root)).toEqual([
      'cycle: import cycle: src/server/a.ts → src/server/b.ts → src/server/c.ts',
    ]);
  });

  it('fails on a file in no layer', () => {
    const root = plant({ 'src/misc/helpers.ts': [] });
    expect(violations(root)).toEqual([
      'unassigned: src/misc/helpers.ts belongs to no layer: add its folder to LAYERS',
    ]);
  });

  it('exits non-zero from the command line on a planted violation, and 0 on a clean tree', async () => {
    const script = join(ROOT, 'scripts', 'check-layers.ts');
    const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
    const bad = plant({
      'src/core/log.ts': ['../daemon/daemon.js'],
      'src/daemon/daemon.ts': ['../core/log.js'],
    });
    const failed = await run(tsx, [script, bad]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/src\/core\/log\.ts \(core\) imports src\/daemon\/daemon\.ts/);
    expect(failed?.stderr).toMatch(/import cycle/);
    const clean = plant({ 'src/core/log.ts': [], 'src/daemon/daemon.ts': ['../core/log.js'] });
    const ok = await run(tsx, [script, clean]);
    expect(ok.stdout).toMatch(/no cycle/);
  });
});
