import { afterEach, describe, expect, it } from 'vitest';
import { fastcastReconnects, fastcastResyncs } from '../../src/core/metrics.js';
import { parsePlays } from '../../src/tables/index.js';
import type { GameEvent } from '../../src/model/events.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON, finishedSummaries } from '../support/fixtures.js';
import { reconstructPlays } from './helpers.js';
import { orderViolations, replayLive } from './replay-helpers.js';

// Real time, real sockets, as in replay.test.ts: every recorded final replayed in about 12 s.
const REPLAY_MS = 12_000;
const WAIT_MS = 60_000;
// Push faults on every kind of loss, and a site summary lagging the push document by 1.5 s of
// replay time: a stale poll must never take back a play push delivered.
const PUSH_FAULTS = 'lostframe=0.03,badpatch=0.03,dropsocket=0.01,topic404=0.2,cdnlag=1500';

const files = finishedSummaries();
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const ofTypes = (events: readonly GameEvent[], types: readonly string[]): string[] =>
  events.filter((e) => types.includes(e.type)).map((e) => e.id);

describe.skipIf(!HAVE_FIXTURES || files.length === 0)(
  `recorded games through push ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
  () => {
    it(
      'give the poll-only replay’s events under lost frames, bad patches, drops, 404s and CDN lag',
      { timeout: 150_000 },
      async () => {
        const polled = await replayLive({ files, replayMs: REPLAY_MS, seed: 7, waitMs: WAIT_MS, cleanup });
        const pushed = await replayLive({
          files,
          replayMs: REPLAY_MS,
          seed: 7,
          waitMs: WAIT_MS,
          cleanup,
          faults: PUSH_FAULTS,
          push: { reconcileMs: 1500 },
        });
        for (const game of pushed.sim.games) {
          const mine = pushed.events.filter((e) => e.gameId === game.id);
          const theirs = polled.events.filter((e) => e.gameId === game.id);
          // Nothing lost, repeated or taken back.
          expect(reconstructPlays(mine)).toEqual(parsePlays(game.final));
          expect(mine.filter((e) => e.type === 'play.removed' || e.type === 'play.updated')).toEqual([]);
          expect(new Set(mine.map((e) => e.id)).size).toBe(mine.length);
          expect(mine.map((e) => e.seq)).toEqual(mine.map((_, i) => i + 1));
          expect(orderViolations(mine)).toEqual([]);
          // The same events under the same ids. Periods, start and end come in the same order.
          // Plays revealed between two polls come in list order in one poll's events and in
          // reveal order through push (the replay reveals some plays before the ones listed above
          // them), so the plays are compared as a set; the rebuilt list above proves their places.
          for (const kinds of [
            ['period.started', 'period.ended'],
            ['game.started', 'game.ended'],
          ])
            expect(ofTypes(mine, kinds)).toEqual(ofTypes(theirs, kinds));
          for (const kind of ['play.added', 'winprob.changed'])
            expect(new Set(ofTypes(mine, [kind]))).toEqual(new Set(ofTypes(theirs, [kind])));
        }
        // Push served the games: fewer summary requests than polling every 100 ms, even with the
        // faults sending every game back to polling again and again.
        const summaries = (sim: typeof pushed.sim): number =>
          sim.requests.count((r) => r.path.endsWith('/summary'));
        expect(summaries(pushed.sim)).toBeLessThan(summaries(polled.sim) / 2);
        // The faults did happen: topics were resynced and sockets opened again.
        const total = async (c: typeof fastcastResyncs): Promise<number> =>
          (await c.get()).values.reduce((n, v) => n + v.value, 0);
        expect(await total(fastcastResyncs)).toBeGreaterThan(0);
        expect(await total(fastcastReconnects)).toBeGreaterThan(0);
        const feeds = pushed.engine.status().filter((s) => s.poller === 'summary');
        expect(feeds.every((s) => s.feed !== undefined)).toBe(true);
      },
    );
  },
);
