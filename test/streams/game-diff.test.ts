import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UpstreamPayloadError } from '../../src/core/errors.js';
import { parsePlays } from '../../src/tables/index.js';
import type { GameEvent } from '../../src/model/events.js';
import { diffSummary, STALE_ACCEPT_AFTER } from '../../streams/game-diff.js';
import { newGameState, restoreGameState, type GameDiffState } from '../../streams/game-state.js';
import type { RawPlay } from '../../streams/play-fingerprint.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON, loadFixture } from '../helpers/fixtures.js';
import { rawPlay, reconstructPlays, summary, type SummaryInput } from './helpers.js';

const T0 = Date.UTC(2025, 0, 1, 1, 0);
const ctx = (now = T0) => ({
  now,
  toRows: (plays: readonly RawPlay[]) => parsePlays({ plays }),
  where: 'mens_summary?event=401',
});

/** Diffs and applies (as if committed); returns the events. */
function poll(state: GameDiffState, raw: unknown, now = T0): GameEvent[] {
  const d = diffSummary(state, raw, ctx(now));
  if (d.kind === 'stale') return [];
  d.apply();
  return d.events as GameEvent[];
}

const plays = (n: number, from = 0) => Array.from({ length: n }, (_, i) => rawPlay(from + i));
const types = (events: GameEvent[]) => events.map((e) => e.type);
const live = (over: Partial<SummaryInput> = {}) =>
  summary({ state: 'in', period: 1, clock: '10:00', home: 0, away: 0, plays: [], ...over });

describe('diffSummary', () => {
  it('starts a game: status, start, plays, win probability, score, period, in that order, seq from 1', () => {
    const s = newGameState('mens', '401');
    const events = poll(
      s,
      live({
        plays: plays(2),
        home: 2,
        away: 0,
        winprob: [
          { playId: '90000', home: 0.5 },
          { playId: '90001', home: 0.55 },
        ],
      }),
    );
    expect(types(events)).toEqual([
      'game.status',
      'game.started',
      'play.added',
      'play.added',
      'winprob.changed',
      'winprob.changed',
      'score.changed',
      'period.started',
    ]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.map((e) => e.id)).toEqual([
      'mens:401:game.status:1:in:STATUS_IN_PROGRESS',
      'mens:401:game.started',
      'mens:401:play.added:90000',
      'mens:401:play.added:90001',
      'mens:401:winprob.changed:90000:1',
      'mens:401:winprob.changed:90001:1',
      'mens:401:score.changed:0-2',
      'mens:401:period.started:1',
    ]);
    const first = events[0];
    expect(first?.teams).toEqual({
      home: { id: '1', abbreviation: 'HOM' },
      away: { id: '2', abbreviation: 'AWY' },
    });
    expect(first?.at).toBe(new Date(T0).toISOString());
    expect(s.meta.snapshot).toMatchObject({ seq: 8, state: 'in', score: { home: 2, away: 0 }, period: 1 });
    expect(s.meta.snapshot?.recentPlays.map((r) => r.id)).toEqual(['90000', '90001']);
  });

  it('emits nothing for an unchanged summary and continues seq after changes', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ plays: plays(2) }));
    const seq = s.meta.seq;
    expect(poll(s, live({ plays: plays(2) }))).toEqual([]);
    const events = poll(s, live({ plays: plays(3) }));
    expect(events.map((e) => [e.type, e.seq])).toEqual([['play.added', seq + 1]]);
    expect(events[0]?.type === 'play.added' && events[0].data.after).toBe('90001');
  });

  it.skipIf(!HAVE_FIXTURES)(
    'follows the header score, not the last play (recorded live game) ' +
      (HAVE_FIXTURES ? '' : NO_FIXTURES_REASON),
    () => {
      const raw = loadFixture<Record<string, any>>('mens/summary__401705066_live.json'); // eslint-disable-line @typescript-eslint/no-explicit-any
      const competitors = raw.header.competitions[0].competitors as Array<{
        homeAway: string;
        score: string;
      }>;
      const header = {
        home: Number(competitors.find((c) => c.homeAway === 'home')?.score),
        away: Number(competitors.find((c) => c.homeAway === 'away')?.score),
      };
      const last = raw.plays.at(-1);
      expect(header.home + header.away).not.toBe(last.homeScore + last.awayScore);
      const s = newGameState('mens', '401705066');
      const events = poll(s, raw);
      const scores = events.filter((e) => e.type === 'score.changed');
      expect(scores).toHaveLength(1);
      expect(scores[0]?.data).toMatchObject({
        score: header,
        previous: { home: 0, away: 0 },
        period: 4,
        clock: '8:10',
      });
      expect(events.filter((e) => e.type === 'play.added')).toHaveLength(raw.plays.length);
      // Joined mid-game: every period before the current one started and ended, in order.
      expect(
        events.filter((e) => e.type.startsWith('period.')).map((e) => e.id.split(':').slice(2).join(':')),
      ).toEqual([
        'period.started:1',
        'period.ended:1',
        'period.started:2',
        'period.ended:2',
        'period.started:3',
        'period.ended:3',
        'period.started:4',
      ]);
    },
  );

  it('reports a score that goes down, with ids that stay distinct when a score repeats', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ home: 5, away: 3 }));
    const down = poll(s, live({ home: 3, away: 3 }));
    expect(down.map((e) => [e.type, e.id])).toEqual([['score.changed', 'mens:401:score.changed:3-3~1']]);
    expect(down[0]?.data).toMatchObject({ score: { home: 3, away: 3 }, previous: { home: 5, away: 3 } });
    const up = poll(s, live({ home: 5, away: 3 }));
    expect(up[0]?.id).toBe('mens:401:score.changed:3-5~1');
    expect(up[0]?.id).not.toBe('mens:401:score.changed:3-5');
  });

  it('ignores an old response arriving after a newer one, then believes a persistent one', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ plays: plays(5), clock: '8:00', home: 4 }));
    const seq = s.meta.seq;
    const old = live({ plays: plays(3), clock: '9:30', home: 2 });
    for (let i = 1; i < STALE_ACCEPT_AFTER; i++) {
      const d = diffSummary(s, old, ctx());
      expect(d.kind).toBe('stale');
    }
    expect(s.meta.seq).toBe(seq);
    // The same regression seen STALE_ACCEPT_AFTER times in a row is the upstream's new truth.
    const accepted = poll(s, old);
    expect(types(accepted)).toEqual(['play.removed', 'play.removed', 'score.changed']);
  });

  it('does not take a shorter list with a later clock for a stale response: plays are removed', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ plays: plays(5), clock: '8:00' }));
    const events = poll(s, live({ plays: [...plays(2), ...plays(2, 3)], clock: '7:40' }));
    expect(events.map((e) => e.id)).toEqual(['mens:401:play.removed:90002']);
    expect(events[0]?.data).toMatchObject({ playId: '90002', play: { id: '90002', text: 'play 2' } });
  });

  it('does not treat an earlier clock with more plays as stale (late-entered play)', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ plays: plays(3), clock: '8:00' }));
    const events = poll(s, live({ plays: plays(4), clock: '8:30' }));
    expect(types(events)).toEqual(['play.added']);
  });

  it('rejects a body that does not parse as a summary, without touching the state', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ plays: plays(2) }));
    const before = JSON.stringify(s.meta);
    for (const bad of [
      null,
      'text',
      {},
      { header: {} },
      { header: { competitions: [{ status: { type: { state: 'x' } } }] } },
    ]) {
      expect(() => diffSummary(s, bad, ctx())).toThrow(UpstreamPayloadError);
    }
    expect(JSON.stringify(s.meta)).toBe(before);
  });

  it('keeps the plays when a summary has no plays key at all', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ plays: plays(2) }));
    expect(poll(s, live({ plays: undefined }))).toEqual([]);
    expect(s.plays.order).toEqual(['90000', '90001']);
  });

  it('reports in → pre postponement as game.status and never ends the game', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ plays: plays(2), clock: '5:00' }));
    const events = poll(
      s,
      summary({ state: 'pre', name: 'STATUS_POSTPONED', detail: 'Postponed', plays: plays(2) }),
    );
    expect(events.map((e) => e.type)).toEqual(['game.status']);
    expect(events[0]?.data).toMatchObject({ state: 'pre', previousState: 'in', name: 'STATUS_POSTPONED' });
    expect(s.meta.ended).toBe(false);
  });

  it('reports a suspension, and a suspended game in post does not end', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ period: 3, clock: '5:00' }));
    const suspended = poll(
      s,
      summary({
        state: 'post',
        name: 'STATUS_SUSPENDED',
        completed: false,
        period: 3,
        clock: '5:00',
        home: 0,
        away: 0,
      }),
    );
    expect(types(suspended)).toEqual(['game.status']);
    expect(suspended[0]?.data).toMatchObject({
      state: 'post',
      previousState: 'in',
      name: 'STATUS_SUSPENDED',
    });
    const resumed = poll(s, live({ period: 3, clock: '4:50' }));
    expect(types(resumed)).toEqual(['game.status']);
    expect(s.meta.ended).toBe(false);
  });

  it('starts and ends every period once, in order, even when polls skip some', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ period: 1 }));
    const skipped = poll(s, live({ period: 3, clock: '11:00' }));
    expect(skipped.map((e) => e.id.split(':').slice(2).join(':'))).toEqual([
      'period.ended:1',
      'period.started:2',
      'period.ended:2',
      'period.started:3',
    ]);
    const end = poll(
      s,
      live({ period: 3, clock: '0.0', name: 'STATUS_END_PERIOD', detail: 'End of 3rd Quarter' }),
    );
    expect(end.map((e) => e.type)).toEqual(['game.status', 'period.ended']);
    expect(
      poll(s, live({ period: 3, clock: '0.0', name: 'STATUS_END_PERIOD', detail: 'End of 3rd Quarter' })),
    ).toEqual([]);
  });

  it('ends a game once: last period ended, game.ended with the winner, period from plays when the status has none', () => {
    const s = newGameState('mens', '401');
    const p = plays(2).map((x) => ({ ...x, period: { number: 4, displayValue: '4th Quarter' } }));
    poll(s, live({ period: 4, clock: '1:00', plays: p, home: 100, away: 98 }));
    const events = poll(
      s,
      summary({ state: 'post', period: null, clock: '0.0', home: 100, away: 98, plays: p }),
    );
    expect(types(events)).toEqual(['game.status', 'period.ended', 'game.ended']);
    expect(events.at(-1)?.data).toEqual({
      score: { home: 100, away: 98 },
      winner: 'home',
      periods: 4,
      detail: 'STATUS_FINAL',
    });
    expect(
      poll(s, summary({ state: 'post', period: null, clock: '0.0', home: 100, away: 98, plays: p })),
    ).toEqual([]);
  });

  it('reports win-probability moves per play with the previous value', () => {
    const s = newGameState('mens', '401');
    poll(s, live({ plays: plays(1), winprob: [{ playId: '90000', home: 0.5 }] }));
    const events = poll(s, live({ plays: plays(1), winprob: [{ playId: '90000', home: 0.6 }] }));
    expect(events.map((e) => [e.id, e.data])).toEqual([
      [
        'mens:401:winprob.changed:90000:2',
        { playId: '90000', homeWinPercentage: 0.6, previousHomeWinPercentage: 0.5, tiePercentage: 0 },
      ],
    ]);
  });

  it('continues after a restore from stored state: same seq, no repeated ids, no events for unchanged plays', () => {
    const s = newGameState('mens', '401');
    const entries = new Map<string, unknown>();
    let meta: unknown;
    const commit = (raw: unknown) => {
      const d = diffSummary(s, raw, ctx());
      if (d.kind !== 'diff') throw new Error('stale');
      d.apply();
      meta = JSON.parse(JSON.stringify(d.delta.meta));
      for (const [k, v] of d.delta.set ?? []) entries.set(k, JSON.parse(JSON.stringify(v)));
      return d.events as GameEvent[];
    };
    const seen = new Set<string>();
    for (const e of commit(live({ plays: plays(4), home: 2 }))) seen.add(e.id);
    for (const e of commit(live({ plays: [...plays(1), rawPlay(9), ...plays(3, 1)], home: 4 })))
      seen.add(e.id);
    const restored = restoreGameState('mens', '401', { meta, entries });
    expect(restored.plays.order).toEqual(s.plays.order);
    const next = poll(restored, live({ plays: [...plays(1), rawPlay(9), ...plays(4, 1)], home: 4 }));
    expect(next.map((e) => [e.type, e.seq])).toEqual([['play.added', s.meta.seq + 1]]);
    expect(seen.has(next[0]?.id as string)).toBe(false);
  });

  it('rebuilds the last list from the events across inserts, edits, removals, reorders and restarts (property)', () => {
    const list = fc
      .uniqueArray(fc.integer({ min: 0, max: 25 }), { maxLength: 15 })
      .chain((ids) =>
        fc.tuple(fc.constant(ids), fc.array(fc.nat(2), { minLength: ids.length, maxLength: ids.length })),
      );
    fc.assert(
      fc.property(fc.array(fc.tuple(list, fc.boolean()), { minLength: 1, maxLength: 8 }), (steps) => {
        let s = newGameState('mens', '401');
        let meta: unknown;
        const entries = new Map<string, unknown>();
        const events: GameEvent[] = [];
        let last: Record<string, unknown>[] = [];
        steps.forEach(([[ids, edits], restart], i) => {
          if (restart && meta !== undefined) s = restoreGameState('mens', '401', { meta, entries });
          last = ids.map((n, k) =>
            rawPlay(n, edits[k] === 1 ? { text: `edit ${n}` } : edits[k] === 2 ? { homeScore: 99 } : {}),
          );
          const d = diffSummary(s, live({ plays: last, clock: `${11 - i}:00` }), ctx());
          if (d.kind !== 'diff') throw new Error('unexpected stale');
          d.apply();
          meta = JSON.parse(JSON.stringify(d.delta.meta));
          for (const [k, v] of d.delta.set ?? []) entries.set(k, JSON.parse(JSON.stringify(v)));
          events.push(...(d.events as GameEvent[]));
        });
        expect(reconstructPlays(events)).toEqual(parsePlays({ plays: last }));
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      }),
      { numRuns: 200 },
    );
  });
});
