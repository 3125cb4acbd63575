import { afterEach, describe, expect, it } from 'vitest';
import { deflateBomb } from '../support/deflate-bomb.js';
import { startLookalike } from '../support/fastcast-lookalike.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON, describeRecorded } from '../support/fixtures.js';
import { reconstructPlays } from './helpers.js';
import { pushedServeArgs, startDaemonProcess } from '../support/daemon-process.js';
import { awaitCopies, heldOutGame, replayCopies } from '../support/game-copies.js';
import { anomalies, delays, quantile, watch } from '../support/play-viewer.js';

/**
 * A compressed frame of about 1 MB that inflates to 1 GiB, checked from outside: the daemon runs
 * as `courtside serve` in a child process (so its resident set is its own), pushed by the
 * look-alike of test/support/fastcast-lookalike.ts, which follows two copies of a held-out
 * recorded final and sends such frames on one of them. The daemon's peak resident set stays under
 * 300 MB, and both games stay live: every play arrives within one summary interval of the site
 * summary showing it, nothing lost, repeated, updated or removed.
 */

// A recorded final (about 2 h 40 min of wallclock) played in about 30 s.
const SPEED = 320;
const CDN_LAG_MS = 3_000;
const SUMMARY_INTERVAL_MS = 1_000;
// What a poll adds to the interval itself: the request's round trip, the diff, the commit and the
// delivery to the viewer, on the shared two-core machine (as in push-lookalike-oddities.test.ts).
const POLL_SLACK_MS = 1_000;
const BOMB_BYTES = 2 ** 30;
const RSS_LIMIT_MB = 300;
// Through the game (it has 60 to 120 publications at this speed, fewer on a loaded machine, and the
// daemon subscribes a few seconds in).
const BOMB_AT = [20, 40, 60, 80, 100];

const file = heldOutGame();

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('the look-alike’s bomb', () => {
  it('reaches deflate’s best ratio: 1 GiB of JSON in about 1 MB, built without holding it', async () => {
    const before = process.memoryUsage().rss;
    const bomb = await deflateBomb(BOMB_BYTES);
    expect(bomb.length).toBeGreaterThan(900_000);
    expect(bomb.length).toBeLessThan(1_100_000);
    expect(BOMB_BYTES / bomb.length).toBeGreaterThan(1000);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 2 ** 20);
  });
});

describeRecorded(!HAVE_FIXTURES || !file)(
  `push against a frame that inflates to 1 GiB, from outside ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
  () => {
    it('leaves the daemon under 300 MB and its games live, nothing lost', { timeout: 120_000 }, async () => {
      const copies = await replayCopies(file!, ['healthy', 'bomb'], SPEED);
      cleanup.push(() => copies.close());
      const look = await startLookalike({
        upstream: copies.sim.url,
        league: file!.league === 'mens' ? 'nba' : 'wnba',
        games: [{ gameId: copies.ids.healthy! }, { gameId: copies.ids.bomb!, bombAt: BOMB_AT }],
        sites: ['push'],
        cdnLagMs: CDN_LAG_MS,
        pollMs: 250,
        bombBytes: BOMB_BYTES,
        seed: 11,
      });
      cleanup.push(() => look.close());
      const daemon = await startDaemonProcess(
        pushedServeArgs({
          upstream: look.siteUrls.push!,
          fastcastUrl: look.discoveryUrl,
          league: file!.league,
          summaryIntervalMs: SUMMARY_INTERVAL_MS,
        }),
      );
      cleanup.push(() => daemon.kill());
      const viewer = await watch(daemon.url);
      cleanup.push(() => viewer.close());
      await awaitCopies(viewer, copies, CDN_LAG_MS);
      const memory = daemon.memory();

      const bombStats = look.games[copies.ids.bomb!]!.stats;
      const byPoll = CDN_LAG_MS + SUMMARY_INTERVAL_MS + POLL_SLACK_MS;
      const figures: Record<string, unknown> = { memory, bombs: bombStats.bombs };
      for (const [name, id] of Object.entries(copies.ids)) {
        const mine = viewer.of(id);
        const d = delays(viewer, id, look.games[id]!.publishedAt);
        const values = [...d.values()];
        figures[name] = {
          plays: values.length,
          lost: copies.expected.get(id)!.length - (viewer.received.get(id)?.size ?? 0),
          p50Ms: quantile(values, 0.5),
          p95Ms: quantile(values, 0.95),
          maxMs: Math.max(...values),
        };
        expect.soft(reconstructPlays(mine), `${name}: the plays rebuilt`).toEqual(copies.expected.get(id));
        expect.soft(anomalies(mine), `${name}: repeated, updated or removed`).toEqual([]);
        expect
          .soft(
            [...d].filter(([, ms]) => ms >= byPoll),
            `${name}: plays later than one interval after the site`,
          )
          .toEqual([]);
      }
      console.log(JSON.stringify(figures));
      // The bombs were sent to a subscriber.
      expect(bombStats.bombs).toBeGreaterThanOrEqual(1);
      expect.soft(memory.peakMb, 'the daemon’s peak resident set, MB').toBeLessThan(RSS_LIMIT_MB);
      expect(daemon.child.exitCode).toBeNull();
    });
  },
);
