import { afterEach, describe, expect, it } from 'vitest';
import { generateFinishedSummary } from '../../src/simulator/synthetic-game.js';
import { syntheticGameId } from '../../src/simulator/synthetic-ids.js';
import { homeWinProbability } from '../../src/simulator/synthetic-plays.js';
import type { League } from '../../src/core/leagues.js';
import { NBA, TestClock, WNBA, closeAll, getJson, start } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
afterEach(closeAll);

const SENTINEL = { x: -214748340, y: -214748365 };
const clockSeconds = (d: string): number =>
  d.includes(':') ? Number(d.split(':')[0]) * 60 + Number(d.split(':')[1]) : Number(d);

function game(league: League, i: number, seed = 11): any {
  return generateFinishedSummary(league, syntheticGameId(seed, i), { seed, index: i });
}

describe('synthetic games', () => {
  it('are deterministic for a seed and differ between seeds', async () => {
    const a = await start({ simulate: { games: 4, seed: 42 }, clock: new TestClock() });
    const b = await start({ simulate: { games: 4, seed: 42 }, clock: new TestClock() });
    const c = await start({ simulate: { games: 4, seed: 43 }, clock: new TestClock() });
    expect(a.games.map((g) => g.final)).toEqual(b.games.map((g) => g.final));
    expect(a.games.map((g) => g.league)).toEqual(['mens', 'womens', 'mens', 'womens']);
    expect(JSON.stringify(c.games[0]?.final.plays)).not.toBe(JSON.stringify(a.games[0]?.final.plays));
    expect(new Set(a.games.map((g) => g.id)).size).toBe(4);
  });

  it('have a realistic number and mix of plays, per-league period lengths and ESPN fields', () => {
    for (const league of ['mens', 'womens'] as const) {
      for (let i = 0; i < 10; i++) {
        const s = game(league, i);
        const plays: any[] = s.plays;
        expect(plays.length).toBeGreaterThan(330);
        expect(plays.length).toBeLessThan(600);
        const types = new Set(plays.map((p) => p.type.text));
        for (const t of [
          'Jumpball',
          'Defensive Rebound',
          'Offensive Rebound',
          'End Period',
          'End Game',
          'Substitution',
          'Full Timeout',
        ])
          expect(types).toContain(t);
        expect([...types].some((t) => t.startsWith('Free Throw'))).toBe(true);
        expect([...types].some((t) => /Turnover|Traveling/.test(t))).toBe(true);
        expect(plays[0].type.text).toBe('Jumpball');
        expect(plays[0].participants).toHaveLength(3);
        const periodSeconds = league === 'mens' ? 720 : 600;
        for (const p of plays) {
          expect(p).toMatchObject({
            id: expect.any(String),
            sequenceNumber: expect.any(String),
            wallclock: expect.stringMatching(/Z$/),
          });
          expect(clockSeconds(p.clock.displayValue)).toBeLessThanOrEqual(
            p.period.number > 4 ? 300 : periodSeconds,
          );
          if (p.scoringPlay) expect([1, 2, 3]).toContain(p.scoreValue);
          else expect(p.scoreValue).toBe(0);
          if (p.shootingPlay && !p.type.text.startsWith('Free Throw'))
            expect(p.coordinate).not.toEqual(SENTINEL);
          if (['End Period', 'Substitution', 'Full Timeout', 'Jumpball'].includes(p.type.text))
            expect(p.coordinate).toEqual(SENTINEL);
          if (p.type.text === 'End Period' || p.type.text === 'End Game') expect(p.team).toBeUndefined();
          else expect(p.team.id).toMatch(/^\d+$/);
        }
        expect(s.format.regulation.clock).toBe(periodSeconds);
        expect(s.winprobability).toHaveLength(plays.length);
      }
    }
  });

  it('end with a final score equal to the sum of the scoring plays, and box scores that agree', () => {
    for (let i = 0; i < 20; i++) {
      const s = game(i % 2 ? 'womens' : 'mens', i, 5);
      const [home, away] = s.header.competitions[0].competitors;
      const sum: Record<string, number> = { [home.id]: 0, [away.id]: 0 };
      let running = { home: 0, away: 0 };
      for (const p of s.plays) {
        if (p.scoringPlay) sum[p.team.id] = (sum[p.team.id] ?? 0) + p.scoreValue;
        expect(p.homeScore).toBeGreaterThanOrEqual(running.home);
        running = { home: p.homeScore, away: p.awayScore };
      }
      expect(sum[home.id]).toBe(Number(home.score));
      expect(sum[away.id]).toBe(Number(away.score));
      expect(home.score).not.toBe(away.score);
      expect(home.winner).toBe(Number(home.score) > Number(away.score));
      const linescoreTotal = home.linescores.reduce((t: number, l: any) => t + Number(l.displayValue), 0);
      expect(linescoreTotal).toBe(Number(home.score));
      const boxPoints = s.boxscore.players[0].statistics[0].athletes.reduce(
        (t: number, a: any) => t + Number(a.stats[1] ?? 0),
        0,
      );
      expect(boxPoints).toBe(Number(home.score));
    }
  });

  it('go to overtime (300 s periods) exactly when regulation ends tied', () => {
    let overtimes = 0;
    for (let i = 0; i < 300 && overtimes < 2; i++) {
      const s = game('mens', i, 3);
      const ends = s.plays.filter((p: any) => p.type.text === 'End Period');
      const periods = Math.max(...s.plays.map((p: any) => p.period.number));
      expect(ends).toHaveLength(periods);
      for (const end of ends.filter((e: any) => e.period.number >= 4)) {
        expect(end.homeScore === end.awayScore).toBe(end.period.number < periods);
      }
      if (periods > 4) {
        overtimes++;
        const ot = s.plays.filter((p: any) => p.period.number === 5);
        expect(Math.max(...ot.map((p: any) => clockSeconds(p.clock.displayValue)))).toBeLessThanOrEqual(300);
        expect(s.header.competitions[0].status.type.detail).toMatch(/^Final\/\d*OT$/);
      }
    }
    expect(overtimes).toBeGreaterThan(0);
  });

  it('carry a win probability that follows the score and the time left', () => {
    expect(homeWinProbability(0, 2880, 2880)).toBeGreaterThan(0.5);
    expect(homeWinProbability(10, 2880, 2880)).toBeLessThan(homeWinProbability(10, 120, 2880));
    expect(homeWinProbability(-10, 120, 2880)).toBeLessThan(0.1);
    const s = game('mens', 1);
    const last = s.winprobability[s.winprobability.length - 1];
    const [home, away] = s.header.competitions[0].competitors;
    expect(last.homeWinPercentage).toBe(Number(home.score) > Number(away.score) ? 1 : 0);
    expect(new Set(s.winprobability.map((w: any) => w.homeWinPercentage)).size).toBeGreaterThan(50);
    expect(s.winprobability.map((w: any) => w.playId)).toEqual(s.plays.map((p: any) => p.id));
  });

  it('are served live, staggered, on the scoreboard and summary of their league', async () => {
    const clock = new TestClock();
    const up = await start({ simulate: { games: 4, seed: 9, staggerMs: 60_000 }, speed: 10, clock });
    const starts = up.games.map((g) => g.startAt);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts[1]).toBeGreaterThan(starts[0] ?? 0);
    clock.advance(9_000); // game 0 (0 s) and game 1 (6 s) have started, games 2 and 3 (12 s, 18 s) not
    const mens = await getJson(`${up.url}${NBA}/scoreboard`);
    expect(mens.body.events.map((e: any) => e.status.type.state)).toEqual(['in', 'pre']);
    const womens = await getJson(`${up.url}${WNBA}/scoreboard`);
    expect(womens.body.events.map((e: any) => e.status.type.state)).toEqual(['in', 'pre']);
    const id = mens.body.events[0].id;
    const live = await getJson(`${up.url}${NBA}/summary?event=${id}`);
    expect(live.body.plays.length).toBeGreaterThan(2);
    expect(live.body.plays[0].type.text).toBe('Jumpball');
    clock.advance(6 * 3600_000);
    const done = await getJson(`${up.url}${NBA}/summary?event=${id}`);
    expect(done.body).toEqual(up.games[0]?.final);
  });
});
