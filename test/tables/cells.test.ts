import { describe, expect, it } from 'vitest';
import {
  snakeCase,
  toCharacter,
  toClockSeconds,
  toColour,
  toDouble,
  toInteger,
  toLogical,
  toLogoList,
  toSeasonYear,
  strictNumber,
  toCoordinate,
  valueOrDisplay,
} from '../../src/tables/cells.js';

describe('cell converters', () => {
  it('character: text as is, numbers and booleans as text, lists as JSON, empty as null', () => {
    expect(toCharacter('a')).toBe('a');
    expect(toCharacter(12)).toBe('12');
    expect(toCharacter(false)).toBe('false');
    expect(toCharacter([1, { a: 2 }])).toBe('[1,{"a":2}]');
    expect(toCharacter('')).toBeNull();
    expect(toCharacter(undefined)).toBeNull();
    expect(toCharacter(NaN)).toBeNull();
  });

  it('integer: numbers and numeric text in Int32 range', () => {
    expect(toInteger('12')).toBe(12);
    expect(toInteger(' 7 ')).toBe(7);
    expect(toInteger('44.4')).toBeNull();
    expect(toInteger(2 ** 31)).toBeNull();
    expect(toInteger('-214748340')).toBe(-214748340);
    expect(toInteger(true)).toBeNull();
    expect(toInteger('')).toBeNull();
  });

  it('double, logical', () => {
    expect(toDouble('44.4')).toBe(44.4);
    expect(toDouble('.683')).toBe(0.683);
    expect(toDouble('-')).toBeNull();
    expect(toDouble(Infinity)).toBeNull();
    expect(toLogical('true')).toBe(true);
    expect(toLogical(0)).toBe(false);
    expect(toLogical('yes')).toBeNull();
  });

  it('clock, season year, colour, logos, snake case', () => {
    expect(toClockSeconds('8:41')).toBe(521);
    expect(toClockSeconds('45.1')).toBe(45.1);
    expect(toClockSeconds(300)).toBe(300);
    expect(toClockSeconds('a:b')).toBeNull();
    expect(toSeasonYear(2025)).toBe(2025);
    expect(toSeasonYear('2024-25')).toBe(2025);
    expect(toSeasonYear('1999-00')).toBe(2000);
    expect(toColour('#c8102e')).toBe('c8102e');
    expect(toColour('')).toBeNull();
    expect(toLogoList([{ href: 'a' }, { href: 'b' }, {}])).toBe('a|b');
    expect(toLogoList([])).toBeNull();
    expect(snakeCase('fieldGoalsMade-fieldGoalsAttempted')).toBe('field_goals_made_field_goals_attempted');
    expect(snakeCase('$ref')).toBe('ref');
    expect(snakeCase('isAllStar')).toBe('is_all_star');
  });

  it('strict number of a display text: plain decimals only', () => {
    expect(strictNumber('32')).toBe(32);
    expect(strictNumber('50.6')).toBe(50.6);
    expect(strictNumber('.683')).toBe(0.683);
    expect(strictNumber('-4')).toBe(-4);
    expect(strictNumber('+12')).toBe(12);
    for (const text of ['45-89', 'W2', '-', '', ' 3', '1e3', '3/6', '44%', 12, null]) {
      expect(strictNumber(text)).toBeNull();
    }
  });

  it('a stat value, else the number its display value shows', () => {
    expect(valueOrDisplay(29, '29')).toBe(29);
    expect(valueOrDisplay(undefined, '32')).toBe(32);
    expect(valueOrDisplay(null, '45-89')).toBeNull();
    expect(valueOrDisplay('', '7')).toBe(7);
  });

  it("coordinates: ESPN's no-location sentinels are null, real values kept", () => {
    expect(toCoordinate(25)).toBe(25);
    expect(toCoordinate(-3)).toBe(-3);
    expect(toCoordinate('12')).toBe(12);
    expect(toCoordinate(-214748340)).toBeNull();
    expect(toCoordinate(-214748365)).toBeNull();
    expect(toCoordinate(2147483)).toBeNull();
  });
});
