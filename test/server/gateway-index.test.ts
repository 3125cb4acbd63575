import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, type GameEvent } from '../../src/model/events.js';
import type { SubscriptionFilter } from '../../src/server/viewer-protocol.js';
import { createSubscriptionIndex, matchesFilter } from '../../src/server/subscription-index.js';
import { textFrame } from '../../src/server/ws-frames.js';

const TEAMS = [
  ['1', 'ATL'],
  ['2', 'BOS'],
  ['13', 'LAL'],
  ['18', 'NY'],
  ['20', 'ATL'],
] as const;
const GAME_IDS = ['401', '402', '403', '501'];

/** A team as events carry it: rank and conference set, null, or absent (older events). */
function team(
  [id, abbreviation]: readonly [string, string],
  rank: number | null | undefined,
  conference: string | null | undefined,
) {
  return {
    id,
    abbreviation,
    ...(rank === undefined ? {} : { rank }),
    ...(conference === undefined
      ? {}
      : { conference: conference === null ? null : { id: conference, name: null } }),
  };
}

const eventArb = fc
  .record({
    league: fc.constantFrom('mens' as const, 'womens' as const),
    gameId: fc.constantFrom(...GAME_IDS),
    type: fc.constantFrom(...EVENT_TYPES),
    home: fc.constantFrom(...TEAMS),
    away: fc.constantFrom(...TEAMS),
    homeRank: fc.constantFrom(null, 1, 17, undefined),
    awayRank: fc.constantFrom(null, 4, undefined),
    homeConference: fc.constantFrom(null, '2', '8', undefined),
    awayConference: fc.constantFrom(null, '2', '23', undefined),
  })
  .map(
    (e, i = 0) =>
      ({
        id: `e${i}`,
        type: e.type,
        league: e.league,
        gameId: e.gameId,
        seq: 1,
        at: '',
        teams: {
          home: team(e.home, e.homeRank, e.homeConference),
          away: team(e.away, e.awayRank, e.awayConference),
        },
        data: {},
      }) as unknown as GameEvent,
  );

const filterArb: fc.Arbitrary<SubscriptionFilter> = fc
  .record(
    {
      leagues: fc.uniqueArray(fc.constantFrom('mens' as const, 'womens' as const), { minLength: 1 }),
      games: fc.uniqueArray(fc.constantFrom(...GAME_IDS, '999'), { minLength: 1, maxLength: 3 }),
      teams: fc.uniqueArray(fc.constantFrom('1', '2', '13', 'ATL', 'NY', 'LAL', 'XYZ'), {
        minLength: 1,
        maxLength: 3,
      }),
      conferences: fc.uniqueArray(fc.constantFrom('2', '8', '23', '99'), { minLength: 1, maxLength: 2 }),
      ranked: fc.constant(true as const),
      types: fc.uniqueArray(fc.constantFrom(...EVENT_TYPES), { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: [] },
  )
  .map((f) => {
    const out: SubscriptionFilter = {};
    if (f.leagues) out.leagues = new Set(f.leagues);
    if (f.games) out.games = new Set(f.games);
    if (f.teams) out.teams = new Set(f.teams);
    if (f.conferences) out.conferences = new Set(f.conferences);
    if (f.ranked) out.ranked = true;
    if (f.types) out.types = new Set(f.types);
    return out;
  });

describe('subscription index', () => {
  it('finds exactly the subscriptions a full scan would, each once, and forgets removed ones', () => {
    fc.assert(
      fc.property(
        fc.array(filterArb, { maxLength: 40 }),
        fc.array(eventArb, { minLength: 1, maxLength: 20 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        (filters, events, removals) => {
          const index = createSubscriptionIndex<{ filter: SubscriptionFilter; n: number }>();
          const subs = filters.map((filter, n) => ({ filter, n }));
          for (const s of subs) index.add(s);
          const kept = subs.filter((s, i) => {
            if (removals[i]) {
              index.remove(s);
              return false;
            }
            return true;
          });
          expect(index.size).toBe(kept.length);
          for (const event of events) {
            const found: number[] = [];
            index.match(event, (s) => found.push(s.n));
            const expected = kept.filter((s) => matchesFilter(s.filter, event)).map((s) => s.n);
            expect(found.sort((a, b) => a - b)).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('looks only at the buckets an event can match, not at every subscription', () => {
    const index = createSubscriptionIndex<{ readonly filter: SubscriptionFilter }>();
    let looked = 0;
    for (let i = 0; i < 10_000; i++) {
      const filter: SubscriptionFilter = { games: new Set([`g${i}`]) };
      index.add({
        get filter() {
          looked += 1;
          return filter;
        },
      });
    }
    looked = 0;
    let matched = 0;
    const event = {
      type: 'play.added',
      league: 'mens',
      gameId: 'g42',
      teams: { home: { id: '1', abbreviation: 'A' }, away: { id: '2', abbreviation: 'B' } },
    } as unknown as GameEvent;
    index.match(event, () => (matched += 1));
    expect(matched).toBe(1);
    expect(looked).toBeLessThanOrEqual(2);
  });
  it('says a game is watched while a subscription names it, not for one to every game', () => {
    const index = createSubscriptionIndex<{ readonly filter: SubscriptionFilter }>();
    const named = { filter: { games: new Set(['g1']) } };
    index.add(named);
    index.add({ filter: {} });
    expect(index.watches('g1')).toBe(true);
    expect(index.watches('g2')).toBe(false);
    index.remove(named);
    expect(index.watches('g1')).toBe(false);
  });
});

describe('matchesFilter: conferences and ranked', () => {
  const game = (home: { rank?: number | null; conference?: string }, away: typeof home = {}) =>
    ({
      type: 'play.added',
      league: 'mens-college',
      gameId: '401',
      teams: {
        home: {
          id: '150',
          abbreviation: 'DUKE',
          rank: home.rank ?? null,
          conference: home.conference ? { id: home.conference, name: null } : null,
        },
        away: {
          id: '2305',
          abbreviation: 'KU',
          rank: away.rank ?? null,
          conference: away.conference ? { id: away.conference, name: null } : null,
        },
      },
    }) as unknown as GameEvent;

  it('matches a conference by either team, and ranked by either team’s rank', () => {
    const acc: SubscriptionFilter = { conferences: new Set(['2']) };
    expect(matchesFilter(acc, game({ conference: '2' }, { conference: '8' }))).toBe(true);
    expect(matchesFilter(acc, game({ conference: '23' }, { conference: '2' }))).toBe(true);
    expect(matchesFilter(acc, game({ conference: '23' }, { conference: '8' }))).toBe(false);
    expect(matchesFilter(acc, game({}))).toBe(false);
    const ranked: SubscriptionFilter = { ranked: true };
    expect(matchesFilter(ranked, game({ rank: 11 }))).toBe(true);
    expect(matchesFilter(ranked, game({}, { rank: 1 }))).toBe(true);
    expect(matchesFilter(ranked, game({}))).toBe(false);
    // Both fields together: a ranked team in a game of the conference.
    const both: SubscriptionFilter = { conferences: new Set(['2']), ranked: true };
    expect(matchesFilter(both, game({ conference: '2' }))).toBe(false);
    expect(matchesFilter(both, game({ conference: '2' }, { rank: 3 }))).toBe(true);
  });
});

describe('textFrame', () => {
  it.each([0, 125, 126, 65_535, 65_536, 200_000])('frames %i bytes with the right length header', (n) => {
    const text = 'x'.repeat(n);
    const frame = textFrame(text);
    expect(frame[0]).toBe(0x81);
    const marker = frame[1] as number;
    const [length, offset] =
      marker < 126
        ? [marker, 2]
        : marker === 126
          ? [frame.readUInt16BE(2), 4]
          : [Number(frame.readBigUInt64BE(2)), 10];
    expect(length).toBe(n);
    expect(frame.length).toBe(offset + n);
    expect(frame.toString('utf8', offset)).toBe(text);
  });

  it('counts bytes, not characters', () => {
    const frame = textFrame('é'.repeat(100));
    expect(frame[1]).toBe(126);
    expect(frame.readUInt16BE(2)).toBe(200);
  });
});
