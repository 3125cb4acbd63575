import { describe, expect, it } from 'vitest';
import {
  CLOSE_DELTA_E,
  DEFAULT_COLORS,
  PANEL_COLOR,
  deltaE76,
  hexToLab,
  mix,
  parseHex,
  scorebugColors,
  textOn,
} from '../../src/server/overlay/colors.js';

/**
 * The overlay's colour rule, on the same file the browser loads. Team colours are ESPN's
 * (`team.color` / `team.alternateColor`, hex without `#`).
 */
const NY = { color: '1d428a', alternateColor: 'f58426' };
const DAL = { color: '0064b1', alternateColor: 'bbc4ca' };
const LAL = { color: '552583', alternateColor: 'fdb927' };
const BOS = { color: '008348', alternateColor: 'ffffff' };
const CHI = { color: 'ce1141', alternateColor: '000000' };
const HOU = { color: 'ce1141', alternateColor: '000000' };

describe('CIE L*a*b* and ΔE76', () => {
  it('matches the reference values of white, black and sRGB red', () => {
    const [wl, wa, wb] = hexToLab('ffffff');
    expect(wl).toBeCloseTo(100, 2);
    expect(Math.abs(wa)).toBeLessThan(0.01);
    expect(Math.abs(wb)).toBeLessThan(0.01);
    expect(hexToLab('000000')).toEqual([0, 0, 0]);
    // sRGB red in L*a*b* (D65): 53.24, 80.09, 67.20.
    const [rl, ra, rb] = hexToLab('ff0000');
    expect(rl).toBeCloseTo(53.24, 1);
    expect(ra).toBeCloseTo(80.09, 1);
    expect(rb).toBeCloseTo(67.2, 1);
    expect(deltaE76('ffffff', '000000')).toBeCloseTo(100, 2);
  });

  it('is a distance: zero for one colour, symmetric', () => {
    expect(deltaE76(NY.color, NY.color)).toBe(0);
    expect(deltaE76(NY.color, DAL.color)).toBe(deltaE76(DAL.color, NY.color));
  });

  it('puts the Knicks and Mavericks blues under the threshold, clearly different pairs well over it', () => {
    const nyDal = deltaE76(NY.color, DAL.color);
    expect(nyDal).toBeLessThan(CLOSE_DELTA_E);
    expect(nyDal).toBeGreaterThan(2.3); // not identical: a close pair, not the same colour
    for (const [a, b] of [
      [NY, LAL],
      [NY, BOS],
      [LAL, BOS],
      [DAL, CHI],
    ] as const) {
      expect(deltaE76(a.color, b.color), `${a.color} vs ${b.color}`).toBeGreaterThan(CLOSE_DELTA_E);
    }
  });
});

describe('scorebugColors', () => {
  it('keeps both teams’ own colours when they are told apart easily', () => {
    for (const [home, away] of [
      [NY, LAL],
      [LAL, BOS],
      [CHI, NY],
    ] as const) {
      const colors = scorebugColors(home, away);
      expect(colors.changed).toBeNull();
      expect(colors.home.background).toBe(home.color);
      expect(colors.away.background).toBe(away.color);
    }
  });

  it('NY at home to DAL: the away side turns to its alternate colour, with readable text', () => {
    const colors = scorebugColors(NY, DAL);
    expect(colors.changed).toBe('away-alternate');
    expect(colors.home).toEqual({ background: NY.color, text: '#ffffff' });
    // Silver is light: dark text on it.
    expect(colors.away).toEqual({ background: DAL.alternateColor, text: '#111111' });
    expect(deltaE76(colors.home.background, colors.away.background)).toBeGreaterThanOrEqual(CLOSE_DELTA_E);
  });

  it('DAL at home to NY: the Knicks switch to orange', () => {
    const colors = scorebugColors(DAL, NY);
    expect(colors.changed).toBe('away-alternate');
    expect(colors.home.background).toBe(DAL.color);
    expect(colors.away.background).toBe(NY.alternateColor);
  });

  it('an alternate that vanishes into the dark panel is passed over for the other team’s', () => {
    // Same red; both alternates black. Neither will do, so the away red is lightened.
    const colors = scorebugColors(CHI, HOU);
    expect(colors.changed).toBe('away-variant');
    expect(colors.home.background).toBe(CHI.color);
    expect(deltaE76(colors.away.background, CHI.color)).toBeGreaterThanOrEqual(CLOSE_DELTA_E);
    expect(deltaE76(colors.away.background, PANEL_COLOR)).toBeGreaterThanOrEqual(CLOSE_DELTA_E);
    // The home side's alternate is used when only it stands out.
    const homeAlt = scorebugColors({ color: '1d428a', alternateColor: 'ffc72c' }, { color: '1d428a' });
    expect(homeAlt.changed).toBe('home-alternate');
    expect(homeAlt.home.background).toBe('ffc72c');
    expect(homeAlt.away.background).toBe('1d428a');
  });

  it('without alternate colours (today’s older snapshots, other sources) it lightens or darkens the away colour', () => {
    for (const [home, away] of [
      [{ color: NY.color }, { color: DAL.color }],
      [{ color: 'f4f4f4' }, { color: 'ffffff' }],
      [{ color: '000000' }, { color: '0a0a0a' }],
    ] as const) {
      const colors = scorebugColors(home, away);
      expect(colors.changed, JSON.stringify([home, away])).toBe('away-variant');
      expect(colors.home.background).toBe(home.color);
      expect(colors.away.background).not.toBe(away.color);
      expect(deltaE76(colors.away.background, home.color)).toBeGreaterThanOrEqual(CLOSE_DELTA_E);
    }
  });

  it('falls back to the stylesheet defaults for missing or malformed colours', () => {
    const colors = scorebugColors({ color: null }, { color: 'not-a-colour' });
    expect(colors.home.background).toBe(DEFAULT_COLORS.home);
    expect(colors.away.background).toBe(DEFAULT_COLORS.away);
    expect(colors.changed).toBeNull();
    expect(scorebugColors(undefined, null).home.background).toBe(DEFAULT_COLORS.home);
    // A missing colour still takes part in the rule: a blue like the default's turns the away side.
    expect(scorebugColors({ color: '3355aa' }, { color: null }).changed).toBeNull();
    expect(scorebugColors({ color: null }, { color: '3456a9' }).changed).not.toBeNull();
  });
});

describe('helpers', () => {
  it('parseHex accepts rrggbb with or without #, nothing else', () => {
    expect(parseHex('1D428A')).toBe('1d428a');
    expect(parseHex('#0064b1')).toBe('0064b1');
    for (const bad of ['', '1d428', 'fff', 'zzzzzz', null, undefined, 0x1d428a])
      expect(parseHex(bad)).toBeNull();
  });

  it('mix moves towards the target', () => {
    expect(mix('000000', 'ffffff', 0.5)).toBe('808080');
    expect(mix('1d428a', 'ffffff', 0)).toBe('1d428a');
    expect(mix('1d428a', '000000', 1)).toBe('000000');
  });

  it('textOn picks the readable text colour', () => {
    expect(textOn('ffffff')).toBe('#111111');
    expect(textOn('000000')).toBe('#ffffff');
    expect(textOn('1d428a')).toBe('#ffffff');
    expect(textOn('fdb927')).toBe('#111111');
  });
});
