import { afterEach, describe, expect, it } from 'vitest';
import { gameDay } from '../../src/simulator/scoreboard.js';
import { TEAMS } from '../../src/simulator/team-catalog.js';
import { parseOperation, type Row } from '../../src/tables/index.js';
import { TestClock, closeAll, getJson, start } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
afterEach(closeAll);

const NCAAM = '/apis/site/v2/sports/basketball/mens-college-basketball';
const NCAAW = '/apis/site/v2/sports/basketball/womens-college-basketball';
const teamIds = (game: { final: { header?: unknown } }): string[] =>
  (game.final.header as any).competitions[0].competitors.map((c: any) => String(c.team.id));

describe('a full college Saturday of the simulator', () => {
  it('plays each team at most once a day in a league of 150 games, every team id unique', async () => {
    const sim = await start({
      simulate: {
        games: 0,
        seed: 4,
        perLeague: [
          ['mens-college', 150],
          ['womens-college', 150],
        ],
      },
      clock: new TestClock(),
    });
    for (const league of ['mens-college', 'womens-college'] as const) {
      const ids = TEAMS[league].map((t) => t.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThanOrEqual(300);
      const games = sim.games.filter((g) => g.league === league);
      expect(games).toHaveLength(150);
      const seen = new Set<string>();
      for (const g of games) {
        const [home, away] = teamIds(g);
        expect(home).not.toBe(away);
        for (const id of [home, away]) {
          const key = `${gameDay(g)}/${String(id)}`;
          expect(seen.has(key), `${league} ${key} twice`).toBe(false);
          seen.add(key);
        }
      }
      expect(seen.size).toBe(300);
    }
    // Synthetic teams have synthetic ids, generated names and a conference beyond the main ones.
    const synthetic = TEAMS['mens-college'].filter((t) => t.id.startsWith('9'));
    expect(synthetic.length).toBeGreaterThan(200);
    const names = synthetic.map((t) => `${t.location} ${t.name}`);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(synthetic.map((t) => t.abbreviation)).size).toBe(synthetic.length);
    for (const t of synthetic) expect(t.color).toMatch(/^[0-9a-f]{6}$/);
    const board = (await getJson(`${sim.url}${NCAAM}/scoreboard?groups=50&limit=300`)).body;
    const conferenceIds = new Set(
      board.events.flatMap((e: any) => e.competitions[0].competitors.map((c: any) => c.team.conferenceId)),
    );
    expect([...conferenceIds].some((id) => String(id).startsWith('9'))).toBe(true);
    // The women's Oklahoma State team is not named for the men's.
    expect(TEAMS['womens-college'].find((t) => t.id === '197')?.name).toBe('Cowgirls');
    expect(TEAMS['mens-college'].find((t) => t.id === '197')?.name).toBe('Cowboys');
  });

  it('marks some games as NCAA tournament games that the scoreboard table reads', async () => {
    const sim = await start({
      simulate: {
        games: 0,
        seed: 9,
        perLeague: [
          ['mens-college', 16],
          ['womens-college', 8],
        ],
      },
      clock: new TestClock(),
    });
    for (const [path, op, league, title] of [
      [NCAAM, 'mens_college_scoreboard', 'mens-college', "Men's"],
      [NCAAW, 'womens_college_scoreboard', 'womens-college', "Women's"],
    ] as const) {
      const raw = (await getJson(`${sim.url}${path}/scoreboard?groups=50&limit=300`)).body;
      const rows = parseOperation(op, raw, { flavour: 'rows' }) as Row[];
      const served = sim.games.filter((g) => g.league === league);
      expect(rows).toHaveLength(served.length);
      const tournament = rows.filter((r) => r.tournament_id !== null);
      expect(tournament).toHaveLength(served.length / 8);
      for (const row of rows) {
        const header = (served.find((g) => g.id === row.game_id)!.final.header as any) ?? {};
        if (row.tournament_id === null) {
          expect(row).toMatchObject({ season_type: 2, note: null });
          expect(header.gameNote).toBeUndefined();
          continue;
        }
        expect(row.tournament_id).toBe(league === 'mens-college' ? '22' : '23');
        expect(row.season_type).toBe(3);
        expect(String(row.note)).toMatch(
          new RegExp(`^${title} Basketball Championship - .+ - (First Round|Second Round|Sweet 16|Elite 8)$`),
        );
        expect(header.gameNote).toBe(row.note);
        expect(header.season.type).toBe(3);
      }
    }
  });
});
