import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, type GameEvent } from '../../src/model/events.js';
import type { SubscriptionFilter } from '../../src/server/client-protocol.js';
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

const eventArb = fc
  .record({
    league: fc.constantFrom('mens' as const, 'womens' as const),
    gameId: fc.constantFrom(...GAME_IDS),
    type: fc.constantFrom(...EVENT_TYPES),
    home: fc.constantFrom(...TEAMS),
    away: fc.constantFrom(...TEAMS),
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
          home: { id: e.home[0], abbreviation: e.home[1] },
          away: { id: e.away[0], abbreviation: e.away[1] },
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
      types: fc.uniqueArray(fc.constantFrom(...EVENT_TYPES), { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: [] },
  )
  .map((f) => {
    const out: SubscriptionFilter = {};
    if (f.leagues) out.leagues = new Set(f.leagues);
    if (f.games) out.games = new Set(f.games);
    if (f.teams) out.teams = new Set(f.teams);
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
