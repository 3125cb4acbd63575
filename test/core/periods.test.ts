import { describe, expect, it } from 'vitest';
import { LEAGUES } from '../../src/core/leagues.js';
import {
  finalLabel,
  isOvertime,
  periodFormat,
  periodLabel,
  periodSeconds,
  periodShortLabel,
} from '../../src/core/periods.js';

describe('period names by league', () => {
  it('names halves in men’s college and quarters elsewhere, then OT, 2OT … 6OT', () => {
    const names = (league: (typeof LEAGUES)[number], n: number) =>
      Array.from({ length: n }, (_, i) => periodLabel(league, i + 1));
    expect(names('mens-college', 8)).toEqual([
      '1st Half',
      '2nd Half',
      'OT',
      '2OT',
      '3OT',
      '4OT',
      '5OT',
      '6OT',
    ]);
    for (const league of ['mens', 'womens', 'womens-college'] as const) {
      expect(names(league, 7)).toEqual([
        '1st Quarter',
        '2nd Quarter',
        '3rd Quarter',
        '4th Quarter',
        'OT',
        '2OT',
        '3OT',
      ]);
    }
    expect(periodShortLabel('mens-college', 2)).toBe('2nd');
    expect(periodShortLabel('mens', 6)).toBe('2OT');
    expect(periodLabel('mens', 0)).toBe('');
    expect(periodLabel('mens', 1.5)).toBe('');
  });

  it('knows overtime and the length of each period', () => {
    expect(isOvertime('mens-college', 2)).toBe(false);
    expect(isOvertime('mens-college', 3)).toBe(true);
    expect(isOvertime('womens-college', 4)).toBe(false);
    expect(isOvertime('womens-college', 5)).toBe(true);
    expect([1, 3].map((p) => periodSeconds('mens-college', p))).toEqual([1200, 300]);
    expect([1, 5].map((p) => periodSeconds('mens', p))).toEqual([720, 300]);
    expect([1, 5].map((p) => periodSeconds('womens', p))).toEqual([600, 300]);
    expect([1, 5].map((p) => periodSeconds('womens-college', p))).toEqual([600, 300]);
    for (const league of LEAGUES) expect(periodFormat(league).overtimeSeconds).toBe(300);
  });

  it('words final statuses as ESPN does', () => {
    expect(finalLabel('mens-college', 2)).toBe('Final');
    expect(finalLabel('mens-college', 3)).toBe('Final/OT');
    expect(finalLabel('mens-college', 8)).toBe('Final/6OT');
    expect(finalLabel('womens-college', 5)).toBe('Final/OT');
    expect(finalLabel('mens', 4)).toBe('Final');
    expect(finalLabel('mens', 6)).toBe('Final/2OT');
  });
});
