import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../src/core/log.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { loadPushConfig } from '../../src/daemon/push-config.js';
import type { GameEvent } from '../../src/model/events.js';
import { startUpstream } from '../../src/simulator/index.js';
import { parsePlays } from '../../src/tables/index.js';
import { testDaemonConfig } from '../support/daemon-config.js';
import { startLookalike } from '../support/fastcast-lookalike.js';
import { HAVE_FIXTURES, describeRecorded, finishedSummaries } from '../support/fixtures.js';
import { waitFor } from '../support/wait-for.js';
import { reconstructPlays } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

/**
 * The push client against a FastCast that is not our simulator: the look-alike in
 * test/support/fastcast-lookalike.ts (its own patches, mids, checkpoints on another host, faults),
 * following a recorded final replayed by a simulator with push off. A push daemon and a poll-only
 * daemon (1 s) follow it side by side behind a site summary lagging the push document by 3 s.
 */

// A recorded final (about 2 h 25 min of wallclock) played in about 55 s.
const SPEED = 160;
const CDN_LAG_MS = 3_000;
// Faults at these publications (the game has 230 to 360, fewer on a loaded machine): early, middle and late.
const LOST_FRAME_AT = [25, 120];
const BAD_PATCH_AT = [70, 170];

const files = finishedSummaries();
const file =
  files.find((f) => f.qualifier === (process.env.COURTSIDE_LOOKALIKE_GAME ?? '')) ??
  files.find((f) => f.league === 'mens');

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

interface Viewer {
  events: GameEvent[];
  /** Receipt time of each `play.added`, by play id. */
  received: Map<string, number>;
}

function view(daemon: Daemon): Promise<Viewer> {
  const viewer: Viewer = { events: [], received: new Map() };
  const ws = new WebSocket(`${daemon.url.replace(/^http/, 'ws')}/v1/stream`);
  cleanup.push(async () => ws.close());
  ws.on('message', (data) => {
    const at = Date.now();
    const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
    if (frame.type !== 'event' || !frame.event) return;
    viewer.events.push(frame.event);
    const e = frame.event;
    if (e.type === 'play.added' && e.data.play.id !== null) viewer.received.set(e.data.play.id, at);
  });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' }));
      resolve(viewer);
    });
  });
}

const quantile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN);
};

describeRecorded(!HAVE_FIXTURES || !file)(`push against a FastCast look-alike`, () => {
  it(
    'rebuilds the recorded game exactly, as polling does, through lost frames and bad patches, with at most a sixth of the summary requests',
    { timeout: 150_000 },
    async () => {
      const final = JSON.parse(readFileSync(file!.file, 'utf8')) as Record<string, any>;
      const sim = await startUpstream({ replay: [file!.file], speed: SPEED, push: false });
      cleanup.push(() => sim.close());
      const game = sim.games[0]!;
      const look = await startLookalike({
        upstream: sim.url,
        league: game.league === 'mens' ? 'nba' : 'wnba',
        games: [{ gameId: game.id, lostFrameAt: LOST_FRAME_AT, badPatchAt: BAD_PATCH_AT }],
        sites: ['push', 'poll'],
        cdnLagMs: CDN_LAG_MS,
        seed: 5,
        // Every new checkpoint announced to the subscribers too: a healthy stream meets H frames.
        variant: { announceCheckpoints: true },
      });
      cleanup.push(() => look.close());
      const followed = look.games[game.id]!;

      const daemon = async (site: string, withPush: boolean): Promise<Daemon> => {
        const config = testDaemonConfig(site, { leagues: game.league });
        const push = withPush ? loadPushConfig({ env: { COURTSIDE_FASTCAST_URL: look.discoveryUrl } }) : null;
        const d = createDaemon(config, { logger: silentLogger, push });
        cleanup.push(() => d.close());
        await d.start();
        return d;
      };
      const pushDaemon = await daemon(look.siteUrls.push!, true);
      const pollDaemon = await daemon(look.siteUrls.poll!, false);
      const [pushed, polled] = await Promise.all([view(pushDaemon), view(pollDaemon)]);

      const expected = parsePlays(final);
      const done = (v: Viewer): boolean =>
        v.events.some((e) => e.type === 'game.ended') && v.received.size >= expected.length;
      await waitFor(
        () => done(pushed) && done(polled),
        120_000,
        () =>
          `both daemons to end the game (push ${pushed.received.size}, poll ${polled.received.size} of ${expected.length} plays)`,
      );
      // The poll-only daemon's last polls and the push daemon's reconciliations after the end:
      // anything they would take back or repeat shows up here.
      await new Promise((r) => setTimeout(r, CDN_LAG_MS + 2_000));

      const lags = (v: Viewer, minus = 0): number[] =>
        [...v.received].flatMap(([id, at]) => {
          const published = followed.publishedAt.get(id);
          return published === undefined ? [] : [at - published - minus];
        });
      const requests = followed.stats.summaryRequests;
      console.log(
        JSON.stringify({
          lookalike: { ...look.stats, ...followed.stats, game: game.id, speed: SPEED },
          push: { p50Ms: quantile(lags(pushed), 0.5), p95Ms: quantile(lags(pushed), 0.95) },
          poll: {
            p50Ms: quantile(lags(polled), 0.5),
            p95Ms: quantile(lags(polled), 0.95),
            withoutCdnLagP50Ms: quantile(lags(polled, CDN_LAG_MS), 0.5),
          },
        }),
      );

      for (const [name, v] of [
        ['push', pushed],
        ['poll', polled],
      ] as const) {
        const mine = v.events.filter((e) => e.gameId === game.id);
        expect(reconstructPlays(mine), name).toEqual(expected);
        expect(
          mine.filter((e) => e.type === 'play.removed' || e.type === 'play.updated'),
          name,
        ).toEqual([]);
        expect(new Set(mine.map((e) => e.id)).size, name).toBe(mine.length);
      }
      const ids = (v: Viewer): Set<string> =>
        new Set(v.events.filter((e) => e.type === 'play.added').map((e) => e.id));
      expect(ids(pushed)).toEqual(ids(polled));

      // The socket was let in at the first try (Origin, header names, a token holding a `+`).
      expect(look.stats.refusedUpgrades).toBe(0);
      expect(look.stats.connections).toBe(1);
      // The faults happened and the client asked for fresh checkpoints after them.
      expect(followed.stats.lostFrames).toBe(LOST_FRAME_AT.length);
      expect(followed.stats.badPatches).toBe(BAD_PATCH_AT.length);
      expect(followed.stats.resubscribes).toBeGreaterThanOrEqual(LOST_FRAME_AT.length + BAD_PATCH_AT.length);
      expect(followed.stats.compressed).toBeGreaterThan(0);
      expect(followed.stats.plain).toBeGreaterThan(0);
      expect(followed.stats.iFrames).toBeGreaterThan(0);
      // Push followed the game with at most a sixth of polling's summary requests.
      expect(requests.push!).toBeLessThanOrEqual(requests.poll! / 6);
    },
  );
});
