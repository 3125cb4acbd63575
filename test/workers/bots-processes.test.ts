import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDaemonConfig } from '../support/daemon-config.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { MENS_FINAL, runCli, type CliRun } from '../cli/harness.js';
import { getTestRedis } from '../support/redis.js';
import { startReceiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';
import { SECRET, acceptedAlertIds } from './pipeline.js';

const redis = await getTestRedis();

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * As an operator runs them: a daemon replaying a game (a recorded one when the recordings are
 * there, else a synthetic one), and three `courtside worker alerts` processes on one Redis: the
 * bot `scores`, the bot `staging` (the same rules, another receiver) and `scores` again.
 */
describe.skipIf(!redis)(
  `two bots and a second process of one, as processes${redis ? '' : ' (skipped: no Redis; set REDIS_URL)'}`,
  () => {
    const runs: CliRun[] = [];
    const closers: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGKILL');
      for (const close of closers.reverse()) await close();
      await redis?.cleanup();
    });

    it('each bot gets its final score exactly once, both get the same alerts, none doubled', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'courtside-bots-'));
      closers.push(() => rm(dir, { recursive: true, force: true }));
      const scores = await startReceiver();
      const staging = await startReceiver();
      closers.push(scores.close, staging.close);
      const rules = (url: string): string =>
        JSON.stringify({
          allowPrivateAddresses: true,
          backoffMs: 200,
          rules: { final_score: {}, lead_change: { fromPeriod: 1 }, run: { points: 8 } },
          subscribers: [{ id: 'local-bot', url, secret: SECRET }],
        });
      const scoresFile = join(dir, 'scores.json');
      const stagingFile = join(dir, 'staging.json');
      await writeFile(scoresFile, rules(scores.url));
      await writeFile(stagingFile, rules(staging.url));
      const flags = ['--redis', redis!.url, '--prefix', redis!.prefix];
      for (const file of [scoresFile, stagingFile, scoresFile]) {
        const run = runCli(['worker', 'alerts', '--rules', file, ...flags], { LOG_LEVEL: 'info' });
        runs.push(run);
        await waitFor(
          () => run.stderr().includes('courtside worker alerts running'),
          30_000,
          () => `a worker for ${file}\n${run.stderr()}`,
        );
      }

      const upstream: RunningUpstream = await startUpstream(
        MENS_FINAL
          ? { replay: [MENS_FINAL.file], speed: 1_000, logger: silentLogger }
          : {
              simulate: { games: 1, seed: 11, leagues: ['mens'], staggerMs: 0 },
              speed: 300,
              logger: silentLogger,
            },
      );
      closers.push(() => upstream.close());
      const daemon: Daemon = createDaemon(
        testDaemonConfig(upstream.url, { redis: redis!.url, prefix: redis!.prefix }),
        { logger: silentLogger },
      );
      closers.push(() => daemon.close());
      await daemon.start();

      const finals = (receiver: Receiver): string[] =>
        acceptedAlertIds(receiver).filter((id) => id.startsWith('final_score:'));
      await waitFor(
        () => finals(scores).length > 0 && finals(staging).length > 0,
        150_000,
        () => `a final score at both receivers\n${runs.map((r) => r.stderr().slice(-800)).join('\n---\n')}`,
      );
      // The rest of the game's alerts, and anything doubled, arrive within moments.
      await waitFor(
        () => acceptedAlertIds(scores).length === acceptedAlertIds(staging).length,
        10_000,
        'as many alerts at both',
      );
      await new Promise((resolve) => setTimeout(resolve, 2_000));

      const gameId = upstream.games[0]?.id ?? '';
      expect(finals(scores)).toEqual([`final_score:mens:${gameId}:final`]);
      expect(finals(staging)).toEqual([`final_score:mens:${gameId}:final`]);
      const a = acceptedAlertIds(scores);
      const b = acceptedAlertIds(staging);
      expect(a.length).toBeGreaterThan(1);
      expect(new Set(a).size).toBe(a.length);
      expect(new Set(b).size).toBe(b.length);
      expect(b).toEqual(a);

      for (const run of runs) run.child.kill('SIGTERM');
      for (const run of runs) expect((await run.exited).code).toBe(0);
    }, 240_000);
  },
);
