import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runProcess } from './harness.js';

/**
 * `exitOnSignals` in a real process, signalled for real: one signal is a graceful stop (exit 0), a
 * second during it exits at once with 1, and a close that never settles is cut off at the limit.
 */
const dir = await mkdtemp(join(tmpdir(), 'courtside-shutdown-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function program(closeMs: number | 'never', hardExitMs: number): Promise<string> {
  const file = join(dir, `stop-${closeMs}-${hardExitMs}.ts`);
  const shutdown = pathToFileURL(join(ROOT, 'src', 'cli', 'shutdown.ts')).href;
  const log = pathToFileURL(join(ROOT, 'src', 'core', 'log.ts')).href;
  const close =
    closeMs === 'never'
      ? 'new Promise(() => {})'
      : `new Promise((r) => setTimeout(() => { console.log('closed'); r(undefined); }, ${closeMs}))`;
  await writeFile(
    file,
    [
      `import { exitOnSignals } from '${shutdown}';`,
      `import { createLogger } from '${log}';`,
      `exitOnSignals({ logger: createLogger({ level: 'info' }), close: () => ${close}, hardExitMs: ${hardExitMs} });`,
      `setInterval(() => {}, 1000);`,
      `console.log('ready');`,
    ].join('\n'),
  );
  return file;
}

function run(file: string) {
  return runProcess(process.execPath, ['--import', 'tsx', file]);
}

describe('exitOnSignals', () => {
  it('stops gracefully on one SIGTERM: close runs to the end, exit 0', async () => {
    const child = run(await program(300, 5_000));
    await child.waitForStdout(/ready/);
    child.child.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stdout()).toContain('closed');
    expect(child.stderr()).toContain('shutting down');
  });

  it('exits at once with 1 on a second signal during the shutdown', async () => {
    const child = run(await program(3_000, 5_000));
    await child.waitForStdout(/ready/);
    const started = Date.now();
    child.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    child.child.kill('SIGINT');
    expect(await child.exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(child.stdout()).not.toContain('closed');
    expect(child.stderr()).toContain('second signal: exiting now');
  });

  it('exits 0 at the hard limit when close never settles, saying so', async () => {
    const child = run(await program('never', 500));
    await child.waitForStdout(/ready/);
    child.child.kill('SIGINT');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr()).toContain('shutdown took longer than 0.5 s');
  });
});
