import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { waitFor } from '../support/wait-for.js';
import { runCli, startDaemon, type CliRun } from './harness.js';
import { easternNoonToday } from '../support/eastern-noon.js';

/**
 * What `watch` says where a newcomer would otherwise get silence or a library's hint: a daemon
 * that wants a token names the flag, and a named game that is unknown or not started yet is
 * announced and waited for. Two synthetic games an hour apart at 1x: the first in progress, the
 * second scheduled.
 */
const TOKEN = 's3cret';

describe('courtside watch hints', () => {
  let upstream: RunningUpstream | undefined;
  let daemon: Daemon | undefined;
  const runs: CliRun[] = [];
  afterEach(async () => {
    for (const r of runs.splice(0)) {
      r.kill();
      await r.exited;
    }
    await daemon?.close();
    await upstream?.close();
    daemon = undefined;
    upstream = undefined;
  });

  async function start(): Promise<{ live: string; later: string; url: string }> {
    // The simulator's day runs from noon Eastern (easternNoonToday), in real time.
    const shift = easternNoonToday() - Date.now();
    upstream = await startUpstream({
      logger: silentLogger,
      simulate: { games: 2, seed: 3, leagues: ['mens'], staggerMs: 3_600_000 },
      speed: 1,
      clock: { now: () => Date.now() + shift },
    });
    daemon = await startDaemon(upstream.url, 0, { tokens: TOKEN });
    const [live, later] = upstream.games.map((g) => g.id);
    if (!live || !later) throw new Error('two games expected');
    const url = daemon.url;
    // Both games are on the daemon's scoreboard before watch asks about them.
    await waitFor(async () => {
      const res = await fetch(`${url}/v1/games/mens/${later}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      await res.body?.cancel();
      return res.status === 200;
    }, 30_000);
    return { live, later, url };
  }

  function watch(args: string[]): CliRun {
    const run = runCli(['watch', ...args]);
    runs.push(run);
    return run;
  }

  it('a 401 names --token, not the library’s option, and exits 1', async () => {
    const { url } = await start();
    const without = watch(['--url', url, '--league', 'mens']);
    expect((await without.exited).code).toBe(1);
    expect(without.stderr()).toMatch(/refused the connection \(401\): it needs a token: --token <token>/);
    expect(without.stderr()).not.toContain('connect(url');

    const wrong = watch(['--url', url, '--league', 'mens', '--token', 'nope']);
    expect((await wrong.exited).code).toBe(1);
    expect(wrong.stderr()).toMatch(
      /\(401\): the token given \(--token or COURTSIDE_TOKEN\) is not one of its tokens/,
    );
  }, 60_000);

  it('says when a named game is unknown or not started yet, and keeps waiting for it', async () => {
    const { live, later, url } = await start();
    const run = watch(['--url', url, '--token', TOKEN, '--game', `900999999,${later},${live}`]);
    await waitFor(
      () => /game 900999999 is not on the daemon's scoreboards/.test(run.stderr()),
      30_000,
      () => `the unknown-game notice; stderr:\n${run.stderr()}`,
    );
    expect(run.stderr()).toContain(`${url}/v1/games/live`);
    await waitFor(
      () =>
        new RegExp(
          `game ${later} \\([A-Z]+ at [A-Z]+\\) has not started yet, scheduled \\S+: waiting for tip-off`,
        ).test(run.stderr()),
      30_000,
      () => `the not-started notice; stderr:\n${run.stderr()}`,
    );
    // The game in progress gets no notice: its score line prints.
    expect(run.stderr()).not.toContain(`game ${live} `);
    await run.waitForStdout(/^● [A-Z]+ \d+ - [A-Z]+ \d+/m);
    // Still subscribed, waiting.
    expect(run.child.exitCode).toBeNull();
  }, 60_000);
});
