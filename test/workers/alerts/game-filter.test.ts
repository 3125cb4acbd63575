import { describe, expect, it } from 'vitest';
import type { TeamRef } from '../../../src/model/events.js';
import { gameFilter, wantsGame } from '../../../workers/alerts/game-filter.js';

const team = (abbreviation: string, rank: number | null, conference: string | null): TeamRef => ({
  id: abbreviation.toLowerCase(),
  abbreviation,
  rank,
  conference: conference === null ? null : { id: conference, name: null },
});
const game = (home: TeamRef, away: TeamRef, league = 'mens-college' as const) => ({
  league,
  teams: { home, away },
});

describe('alert game filter', () => {
  const ranked = game(team('DUKE', 11, '2'), team('KU', 1, '8'));
  const sec = game(team('LSU', null, '23'), team('UGA', 22, '23'));
  const plain = game(team('WAKE', null, '2'), team('SLU', null, '3'));
  const pro = game(team('LAL', null, null), team('BOS', null, null), 'mens' as never);
  const leagues = ['mens', 'mens-college'];

  it('keeps games of the listed conferences (either team)', () => {
    const f = gameFilter({ leagues, conferences: ['2'] });
    expect([ranked, sec, plain, pro].map((g) => wantsGame(f, g))).toEqual([true, false, true, false]);
  });

  it('keeps games with a ranked team, or one ranked N or better', () => {
    const any = gameFilter({ leagues, ranked: true });
    expect([ranked, sec, plain, pro].map((g) => wantsGame(any, g))).toEqual([true, true, false, false]);
    const top10 = gameFilter({ leagues, ranked: 10 });
    expect([ranked, sec, plain].map((g) => wantsGame(top10, g))).toEqual([true, false, false]);
  });

  it('combines with leagues and teams; no field keeps every game of the leagues', () => {
    expect(wantsGame(gameFilter({ leagues, teams: ['ku'], ranked: true }), ranked)).toBe(true);
    expect(wantsGame(gameFilter({ leagues, teams: ['lsu'], ranked: 20 }), sec)).toBe(false);
    expect([ranked, sec, plain, pro].every((g) => wantsGame(gameFilter({ leagues }), g))).toBe(true);
    expect(wantsGame(gameFilter({ leagues: ['womens'] }), ranked)).toBe(false);
  });
});
