import { describe, expect, it } from 'vitest';
import { LEAGUES } from '../../src/core/leagues.js';
import { finalLabel, periodShortLabel } from '../../src/core/periods.js';
import { overlayPeriodsScript } from '../../src/server/overlay-periods.js';

interface PeriodsModule {
  PERIOD_NAMES: Record<string, string[]>;
  FINAL_NAMES: Record<string, string[]>;
}

/** The script as a browser loads it: an ES module. */
async function load(): Promise<PeriodsModule> {
  const url = `data:text/javascript;base64,${Buffer.from(overlayPeriodsScript()).toString('base64')}`;
  return (await import(url)) as PeriodsModule;
}

describe('overlay periods.js', () => {
  it('names halves for men’s college and quarters elsewhere, then the overtimes', async () => {
    const { PERIOD_NAMES, FINAL_NAMES } = await load();
    expect(PERIOD_NAMES['mens-college']?.slice(1, 9)).toEqual([
      '1st',
      '2nd',
      'OT',
      '2OT',
      '3OT',
      '4OT',
      '5OT',
      '6OT',
    ]);
    expect(PERIOD_NAMES['womens-college']?.slice(1, 7)).toEqual(['1st', '2nd', '3rd', '4th', 'OT', '2OT']);
    expect(PERIOD_NAMES.mens?.slice(1, 6)).toEqual(['1st', '2nd', '3rd', '4th', 'OT']);
    expect(FINAL_NAMES['mens-college']?.[2]).toBe('Final');
    expect(FINAL_NAMES['mens-college']?.[8]).toBe('Final/6OT');
    expect(FINAL_NAMES.womens?.[6]).toBe('Final/2OT');
  });

  it('agrees with the engine’s names for every league and period it lists', async () => {
    const { PERIOD_NAMES, FINAL_NAMES } = await load();
    for (const league of LEAGUES) {
      const names = PERIOD_NAMES[league] ?? [];
      expect(names.length).toBeGreaterThan(18);
      for (let period = 1; period < names.length; period++) {
        expect(names[period]).toBe(periodShortLabel(league, period));
        expect(FINAL_NAMES[league]?.[period]).toBe(finalLabel(league, period));
      }
    }
  });
});
