import { afterEach, describe, expect, it } from 'vitest';
import { fastcastReconnects, fastcastResyncs } from '../../src/core/metrics.js';
import { parsePlays } from '../../src/tables/index.js';
import type { GameEvent } from '../../src/model/events.js';
import { HAVE_FIXTURES, finishedSummaries, describeRecorded } from '../support/fixtures.js';
import { reconstructPlays } from './helpers.js';
import { orderViolations, playReveal, replayLive, revealOrderViolations } from './replay-helpers.js';

// Real time, real sockets, as in replay.test.ts: every recorded final replayed in about 12 s.
const REPLAY_MS = 12_000;
const WAIT_MS = 60_000;
// Push faults on every kind of loss, and a site summary lagging the push document by 1.5 s of
// replay time: a stale poll must never take back a play push delivered. Drops at 0.02 per frame:
// some 10-16 a run; at 0.01 (about 5, fewer when the machine is loaded) a run without any came
// once in some 30 runs.
const PUSH_FAULTS = 'lostframe=0.03,badpatch=0.03,dropsocket=0.02,topic404=0.2,cdnlag=1500';

const files = finishedSummaries();
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const ofTypes = (events: readonly GameEvent[], types: readonly string[]): GameEvent[] =>
  events.filter((e) => types.includes(e.type));
/** An event without what says when and where it was logged (`seq`, `at`, `offset`). */
const payload = ({
  seq: _seq,
  at: _at,
  offset: _offset,
  ...rest
}: GameEvent): Omit<GameEvent, 'seq' | 'at' | 'offset'> => rest;
const addedIds = (events: readonly GameEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'play.added' ? [e.data.play.id as string] : []));
const winprobIds = (events: readonly GameEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'winprob.changed' ? [e.data.playId] : []));

describe('the play order check', () => {
  // Plays a, b, c listed in that order and stamped c first, then b, then a: each pair of them is
  // out of list order, so any order of them passes pair by pair, yet a daemon can emit only four.
  const at = (s: number): string => new Date(Date.UTC(2025, 0, 1, 1, 0, s)).toISOString();
  const reveal = playReveal({
    plays: [
      { id: 'a', wallclock: at(20) },
      { id: 'b', wallclock: at(10) },
      { id: 'c', wallclock: at(5) },
      { id: 'd', wallclock: at(30) },
      // Stamped with d: revealed with it, always after it.
      { id: 'e', wallclock: at(30) },
    ],
  });

  it('knows the late plays and the reveal moments', () => {
    expect(reveal.moments).toEqual([['c'], ['b'], ['a'], ['d', 'e']]);
    expect([...reveal.late].sort()).toEqual(['a', 'b', 'c']);
  });

  it('accepts reveal order, list order, and batches of reveals each in list order', () => {
    // c|b|a|de, cb|a|de, c|ba|de, cba|de: the only four.
    for (const order of ['cbade', 'bcade', 'cabde', 'abcde'])
      expect(revealOrderViolations([...order], reveal), order).toEqual([]);
  });

  it('refuses any other order', () => {
    // The two other orders of a, b, c (each needs all three in one batch, not in list order), an
    // on-time pair reversed (d before a), two plays of one moment out of list order, a play
    // missing, a play twice.
    for (const order of ['acbde', 'bacde', 'cbdae', 'cbaed', 'cbae', 'cbadee'])
      expect(revealOrderViolations([...order], reveal), order).not.toEqual([]);
  });
});

describeRecorded(!HAVE_FIXTURES || files.length === 0)(`recorded games through push`, () => {
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
      const lateCounts: number[] = [];
      for (const game of pushed.sim.games) {
        const mine = pushed.events.filter((e) => e.gameId === game.id);
        const theirs = polled.events.filter((e) => e.gameId === game.id);
        // Nothing lost, repeated or taken back.
        expect(reconstructPlays(mine)).toEqual(parsePlays(game.final));
        expect(mine.filter((e) => e.type === 'play.removed' || e.type === 'play.updated')).toEqual([]);
        expect(new Set(mine.map((e) => e.id)).size).toBe(mine.length);
        expect(mine.map((e) => e.seq)).toEqual(mine.map((_, i) => i + 1));
        expect(orderViolations(mine)).toEqual([]);
        // The same events under the same ids and payloads. Periods, start and end: in the same
        // order. (game.status, score.changed and situation.changed tell the game as it stood
        // whenever the daemon looked, so they follow its sampling, by push or by poll.)
        for (const kinds of [
          ['period.started', 'period.ended'],
          ['game.started', 'game.ended'],
        ])
          expect(ofTypes(mine, kinds).map(payload)).toEqual(ofTypes(theirs, kinds).map(payload));

        // Plays come in the order each daemon saw them revealed, one document's in list order:
        // by push, document by document; by polling, all that one poll found at once. So each
        // pair of plays comes in list order or in reveal order, and where the two agree (all but
        // a few late plays), push and polling give the same order, the same `after` and `index`.
        const reveal = playReveal(game.final);
        expect(revealOrderViolations(addedIds(mine), reveal)).toEqual([]);
        expect(revealOrderViolations(addedIds(theirs), reveal)).toEqual([]);
        lateCounts.push(reveal.late.size);
        expect(reveal.late.size).toBeLessThan(reveal.list.length / 20);
        const onTime = (events: readonly GameEvent[]): GameEvent[] =>
          events.filter(
            (e) =>
              (e.type === 'play.added' && !reveal.late.has(e.data.play.id as string)) ||
              (e.type === 'winprob.changed' && !reveal.late.has(e.data.playId)),
          );
        expect(onTime(mine).map(payload)).toEqual(onTime(theirs).map(payload));
        // The late plays: the same rows; only their `after` and `index` may differ (each names
        // the play before it in the list as it stood then, so both rebuild the same list).
        const lateRows = (events: readonly GameEvent[]): Map<string, unknown> =>
          new Map(
            events.flatMap((e) =>
              e.type === 'play.added' && reveal.late.has(e.data.play.id as string)
                ? [[e.id, e.data.play] as const]
                : [],
            ),
          );
        expect(lateRows(mine)).toEqual(lateRows(theirs));
        // Win probability follows its play: in each daemon its order is the plays' order, and
        // every value is the same event (previous value included) by push and by polling.
        for (const events of [mine, theirs]) {
          const valued = new Set(winprobIds(events));
          expect(winprobIds(events)).toEqual(addedIds(events).filter((id) => valued.has(id)));
        }
        const byId = (events: readonly GameEvent[]) =>
          new Map(ofTypes(events, ['winprob.changed']).map((e) => [e.id, payload(e)]));
        expect(byId(mine)).toEqual(byId(theirs));
      }
      // The replay does reveal plays out of list order: the comparison above is not vacuous.
      expect(lateCounts.some((n) => n > 0)).toBe(true);
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
      // Every game's poller reports how it is fed (an empty list would prove nothing).
      expect(feeds.map((s) => s.gameId).sort()).toEqual(pushed.sim.games.map((g) => g.id).sort());
      expect(feeds.every((s) => s.feed !== undefined)).toBe(true);
    },
  );
});
