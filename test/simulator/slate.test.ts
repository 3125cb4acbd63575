import { afterEach, describe, expect, it } from 'vitest';
import { upstreamOptionsFromFlags } from '../../src/cli/upstream.js';
import { parseSimulateSpec, saturdayOffsets, slateLeagues } from '../../src/simulator/slate.js';
import { TestClock, closeAll, start } from './helpers.js';

afterEach(closeAll);

const flags = { port: '0', host: '127.0.0.1', replay: [], seed: '3', speed: '1' };

describe('a Saturday slate (--simulate league=count,...)', () => {
  it('parses a number, or a count per league in the order given', () => {
    expect(parseSimulateSpec('8')).toBe(8);
    expect(parseSimulateSpec('mens-college=150, womens-college=100,mens=10')).toEqual([
      ['mens-college', 150],
      ['womens-college', 100],
      ['mens', 10],
    ]);
  });

  it('refuses a malformed spec, naming the flag, the part at fault and the expected form', () => {
    for (const [spec, part] of [
      ['nfl=3', '"nfl=3"'],
      ['mens-college=x', '"mens-college=x"'],
      ['mens-college=-1', '"mens-college=-1"'],
      ['mens-college', '"mens-college"'],
      ['mens=1=2', '"mens=1=2"'],
      ['mens=1,', '""'],
      ['2.5', '"2.5"'],
    ] as const) {
      expect(() => parseSimulateSpec(spec), spec).toThrow(`--simulate: ${part}`);
      expect(() => parseSimulateSpec(spec), spec).toThrow(
        /expected a number of games \(8\) or league=count pairs/,
      );
    }
    expect(() => parseSimulateSpec('mens=1,mens=2')).toThrow('--simulate: mens is given twice');
    expect(() => parseSimulateSpec(' ')).toThrow('--simulate: "" is empty');
  });

  it('maps the flag to per-league options, keeps the plain number working, refuses it beside --leagues', () => {
    expect(upstreamOptionsFromFlags({ ...flags, simulate: 'mens-college=2,womens=1' }).simulate).toEqual({
      games: 0,
      seed: 3,
      perLeague: [
        ['mens-college', 2],
        ['womens', 1],
      ],
    });
    expect(upstreamOptionsFromFlags({ ...flags, simulate: '3', leagues: 'womens-college' }).simulate).toEqual(
      {
        games: 3,
        seed: 3,
        leagues: ['womens-college'],
      },
    );
    expect(() => upstreamOptionsFromFlags({ ...flags, simulate: 'mens=2', leagues: 'mens' })).toThrow(
      /--leagues: not with --simulate league=count pairs/,
    );
    expect(() => upstreamOptionsFromFlags({ ...flags, simulate: 'mens=two' })).toThrow(
      /--simulate: "mens=two"/,
    );
  });

  it('interleaves the leagues by their share, so every wave has some of each', () => {
    const leagues = slateLeagues([
      ['mens-college', 150],
      ['womens-college', 100],
      ['mens', 10],
    ]);
    expect(leagues).toHaveLength(260);
    expect(leagues.filter((l) => l === 'mens-college')).toHaveLength(150);
    expect(leagues.filter((l) => l === 'womens-college')).toHaveLength(100);
    expect(leagues.filter((l) => l === 'mens')).toHaveLength(10);
    // The first 26 games (a tenth of the slate) hold about a tenth of each league.
    const first = leagues.slice(0, 26);
    expect(first.filter((l) => l === 'mens-college').length).toBeGreaterThanOrEqual(14);
    expect(first.filter((l) => l === 'womens-college').length).toBeGreaterThanOrEqual(9);
    expect(first.filter((l) => l === 'mens')).toHaveLength(1);
  });

  it('tips off in waves on the hour and half hour over ten hours, a few minutes late at most', () => {
    const offsets = saturdayOffsets(260, 5);
    expect(offsets[0]).toBe(0);
    const waves = new Set(offsets.map((t) => Math.floor(t / 1_800_000)));
    expect([...waves]).toEqual(Array.from({ length: 20 }, (_, i) => i));
    for (const t of offsets) expect(t % 1_800_000).toBeLessThanOrEqual(6 * 60_000);
    expect(offsets).toEqual(saturdayOffsets(260, 5));
    expect(saturdayOffsets(260, 6)).not.toEqual(offsets);
    // A small slate is one wave.
    expect(Math.max(...saturdayOffsets(8, 1))).toBeLessThan(30 * 60_000);
  });

  it('serves a per-league slate: each league its count, college games by their rules', async () => {
    const clock = new TestClock();
    const sim = await start({
      simulate: {
        games: 0,
        seed: 8,
        perLeague: [
          ['mens-college', 3],
          ['womens-college', 2],
          ['mens', 1],
        ],
      },
      clock,
    });
    const count = (league: string): number => sim.games.filter((g) => g.league === league).length;
    expect([count('mens-college'), count('womens-college'), count('mens')]).toEqual([3, 2, 1]);
    expect(new Set(sim.games.map((g) => g.id)).size).toBe(6);
    for (const g of sim.games) expect(g.startAt - sim.games[0]!.startAt).toBeLessThan(30 * 60_000);
    const men = sim.games.find((g) => g.league === 'mens-college')!;
    expect((men.final.format as { regulation: { periods: number } }).regulation.periods).toBe(2);
  });

  it('refuses a per-league slate with a bad count', async () => {
    await expect(
      start({ simulate: { games: 0, seed: 1, perLeague: [['mens', -2]] }, clock: new TestClock() }),
    ).rejects.toThrow(/simulate.perLeague: mens=-2 is invalid/);
  });
});
