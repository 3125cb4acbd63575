import { describe, expect, it } from 'vitest';
import type { League } from '../../src/core/leagues.js';
import { generateFinishedSummary } from '../../src/simulator/synthetic-game.js';
import { syntheticGameId } from '../../src/simulator/synthetic-ids.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */

/**
 * Synthetic college games checked against the NCAA rules, with the rules written out here rather
 * than taken from the code under test: men 2 halves of 20:00, women 4 quarters of 10:00, overtimes
 * of 5:00; team fouls per half (men) or quarter (women), overtime continuing the last one; on a
 * common foul men shoot a one-and-one from the 7th team foul and two from the 10th, women two from
 * the 5th; 4 team timeouts a game and one more per overtime.
 */
const RULES = {
  'mens-college': { regulation: 2, seconds: 1200, unit: 'Half', bonus: 7, double: 10 },
  'womens-college': { regulation: 4, seconds: 600, unit: 'Quarter', bonus: 5, double: 5 },
} as const;
type College = keyof typeof RULES;
const ORD = ['1st', '2nd', '3rd', '4th'];
const label = (league: College, period: number): string => {
  const r = RULES[league];
  if (period <= r.regulation) return `${ORD[period - 1]} ${r.unit}`;
  return period === r.regulation + 1 ? 'OT' : `${period - r.regulation}OT`;
};
const seconds = (clock: string): number => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(clock);
  if (!m) throw new Error(`clock "${clock}" is not M:SS`);
  return Number(m[1]) * 60 + Number(m[2]);
};
const games = (league: League, n: number): any[] =>
  Array.from({ length: n }, (_, i) =>
    generateFinishedSummary(league, syntheticGameId(21, i), { seed: 21, index: i }),
  );

describe.each(['mens-college', 'womens-college'] as const)('synthetic %s games', (league) => {
  const rules = RULES[league];
  // Enough games that some go to overtime (about one in fifteen does).
  const all = games(league, 60);

  it('play halves or quarters with M:SS clocks, overtime only from a tie, the final status named', () => {
    let overtimes = 0;
    for (const g of all) {
      const plays: any[] = g.plays;
      const ends = plays.filter((p) => p.type.text === 'End Period');
      const periods = ends.length;
      expect(periods).toBeGreaterThanOrEqual(rules.regulation);
      expect(g.format.regulation).toMatchObject({ periods: rules.regulation, clock: rules.seconds });
      let last = { period: 0, clock: Infinity };
      for (const p of plays) {
        const s = seconds(p.clock.displayValue);
        expect(p.period.displayValue).toBe(label(league, p.period.number));
        const length = p.period.number > rules.regulation ? 300 : rules.seconds;
        expect(s).toBeLessThanOrEqual(length);
        if (p.period.number === last.period) expect(s).toBeLessThanOrEqual(last.clock);
        else expect(p.period.number).toBe(last.period + 1);
        last = { period: p.period.number, clock: s };
      }
      // Tied at the end of every period but the last from regulation's end on.
      ends.forEach((e, i) => {
        if (i + 1 >= rules.regulation) expect(e.homeScore === e.awayScore).toBe(i + 1 < periods);
      });
      if (league === 'mens-college') expect(ends[0].text).toBe('End of 1st half');
      const ot = periods - rules.regulation;
      overtimes += ot;
      const detail = ot === 0 ? 'Final' : ot === 1 ? 'Final/OT' : `Final/${ot}OT`;
      expect(g.header.competitions[0].status.type.detail).toBe(detail);
    }
    expect(overtimes).toBeGreaterThan(0);
  });

  it('type fouls, timeouts and free throws as college feeds do; TV timeouts have no team', () => {
    for (const g of all) {
      const plays: any[] = g.plays;
      const texts = new Set(plays.map((p) => p.type.text));
      for (const pro of ['Shooting Foul', 'Personal Foul', 'Full Timeout'])
        expect(texts.has(pro)).toBe(false);
      expect(texts.has('PersonalFoul')).toBe(true);
      expect(texts.has('OfficialTVTimeOut')).toBe(true);
      for (const p of plays) {
        if (p.type.text === 'OfficialTVTimeOut') {
          expect(p.team).toBeUndefined();
          expect(p.period.number).toBeLessThanOrEqual(rules.regulation);
        }
        if (p.type.text === 'ShortTimeOut' || p.type.text === 'RegularTimeOut')
          expect(p.team?.id).toBeTruthy();
        if (p.type.id === '540') expect(p.text).toMatch(/ (makes|misses) free throw [123] of [123]$/);
      }
      const tv = plays.filter((p) => p.type.text === 'OfficialTVTimeOut');
      expect(tv.length).toBeLessThanOrEqual(rules.regulation * (league === 'mens-college' ? 4 : 1));
      for (const side of g.header.competitions[0].competitors) {
        const taken = plays.filter((p) => /TimeOut$/.test(p.type.text) && p.team?.id === side.id).length;
        expect(taken).toBeLessThanOrEqual(
          4 + plays.filter((p) => p.type.text === 'End Period').length - rules.regulation,
        );
      }
    }
  });

  it('shoot free throws by the team fouls: every foul in the bonus gives a trip, a one-and-one only where the rules give one', () => {
    let oneAndOnesCut = 0;
    let bonusFouls = 0;
    for (const g of all) {
      const plays: any[] = g.plays;
      const fouls = new Map<string, number>();
      plays.forEach((p, i) => {
        if (p.type.text !== 'PersonalFoul') return;
        const count = `${p.team.id}/${Math.min(p.period.number, rules.regulation)}`;
        const n = (fouls.get(count) ?? 0) + 1;
        fouls.set(count, n);
        const trip: any[] = [];
        for (let k = i + 1; plays[k]?.type.id === '540'; k++) trip.push(plays[k]);
        for (const ft of trip) expect(ft.team.id).not.toBe(p.team.id);
        if (n >= rules.bonus) {
          bonusFouls++;
          expect(trip.length, `${g.header.id} foul ${p.id}, team foul ${n}`).toBeGreaterThan(0);
        }
        const of = Number(/ of (\d)$/.exec(trip[0]?.text ?? '')?.[1] ?? 0);
        if (trip.length > 0 && trip.length < of) {
          // A trip cut short: the missed front end of a one-and-one.
          oneAndOnesCut++;
          expect(league).toBe('mens-college');
          expect(n).toBeGreaterThanOrEqual(rules.bonus);
          expect(n).toBeLessThan(rules.double);
          expect(trip).toHaveLength(1);
          expect(trip[0].text).toMatch(/misses free throw 1 of 2$/);
        }
      });
    }
    expect(bonusFouls).toBeGreaterThan(50);
    if (league === 'mens-college') expect(oneAndOnesCut).toBeGreaterThan(0);
  });
});
