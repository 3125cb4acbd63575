import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, getOperation } from '../../src/espn/operations.js';
import {
  ATHLETE_GENERATORS,
  LEAGUE_GENERATORS,
  TEAM_GENERATORS,
} from '../../src/simulator/generated-payloads.js';
import { TEAMS } from '../../src/simulator/team-catalog.js';
import { columnsFor, parseOperation, type Row } from '../../src/tables/index.js';
import { HAVE_FIXTURES, loadFixture, itRecorded } from '../support/fixtures.js';
import { fixturesOf } from './helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const rowsOf = (op: string, raw: unknown) => parseOperation(op, raw, { flavour: 'rows' }) as Row[];

/** The simulator's generated payload of an operation (for its first team and first athlete). */
function simulated(op: string): unknown {
  const { league, suffix } = getOperation(op);
  const team = TEAMS[league][0];
  if (!team) throw new Error(`no simulated team in ${league}`);
  const byLeague = LEAGUE_GENERATORS[suffix];
  if (byLeague) return byLeague(league, {});
  const byTeam = TEAM_GENERATORS[suffix];
  if (byTeam) return byTeam(league, team, {});
  return ATHLETE_GENERATORS[suffix]?.(league, { team, index: 0 }, {});
}

// Operations whose table is declared from the simulator's payload: every one gives rows from it.
const DECLARED = [
  'calendar',
  'transactions',
  'team_transactions',
  'conferences',
  'statistics_league',
  'draft',
  'team',
  'team_record',
  'team_depthcharts',
  'team_history',
  'team_leaders',
  'player_info',
  'player_bio',
];

describe("operation tables on the simulator's payloads", () => {
  const ops = OPERATION_NAMES.filter((op) => !op.endsWith('_summary'));
  for (const op of ops) {
    it(`${op}: rows with exactly the declared columns`, () => {
      const rows = rowsOf(op, simulated(op));
      if (DECLARED.includes(getOperation(op).suffix)) expect(rows.length, op).toBeGreaterThan(0);
      for (const row of rows) expect(Object.keys(row)).toEqual(columnsFor(op));
    });
  }

  it("team record: wins and losses read from the split's stats", () => {
    const rows = rowsOf('mens_team_record', simulated('mens_team_record'));
    expect(rows.map((r) => [r.type, r.summary, r.wins, r.losses])).toEqual([
      ['total', '41-41', 41, 41],
      ['home', '22-19', 22, 19],
      ['road', '19-22', 19, 22],
    ]);
  });

  it('team history: one row per season, the season an integer', () => {
    const rows = rowsOf('womens_team_history', simulated('womens_team_history'));
    expect(rows.map((r) => [r.season, r.record, r.extra])).toEqual([
      [2024, '45-37', null],
      [2023, '38-44', null],
    ]);
  });

  it('athlete: measures typed as in the roster; the team object beyond team_id goes to extra', () => {
    const [row] = rowsOf('mens_player_info', simulated('mens_player_info'));
    expect(typeof row?.height).toBe('number');
    expect(typeof row?.weight).toBe('number');
    expect(row?.team_id).toBe(TEAMS.mens[0]?.id);
    expect(Object.keys(JSON.parse(String(row?.extra)))).toEqual(['team']);
  });
});

describe('declared tables: extra and missing keys', () => {
  it('keys beyond the columns go to extra (nested ones keep their path); missing ones are null', () => {
    const [row] = rowsOf('mens_transactions', {
      transactions: [
        {
          date: '2025-01-01T00:00Z',
          newKey: 1,
          nothing: null,
          team: { id: '1', color: '#00ff00', logos: [{ href: 'a' }, { href: 'b' }], venue: { id: '9' } },
        },
      ],
    });
    expect(row).toMatchObject({
      date: '2025-01-01T00:00Z',
      description: null,
      team_id: '1',
      team_color: '00ff00',
      team_logos: 'a|b',
      team_links: null,
    });
    expect(JSON.parse(String(row?.extra))).toEqual({ newKey: 1, team: { venue: { id: '9' } } });
  });

  it('the key order of the payload changes neither the columns nor the values', () => {
    const pick = {
      pick: 1,
      overall: 1,
      round: 1,
      traded: false,
      teamId: '3',
      athlete: { id: '9', displayName: 'A' },
    };
    const reversed = Object.fromEntries(Object.entries(pick).reverse());
    expect(rowsOf('mens_draft', { picks: [reversed] })).toEqual(rowsOf('mens_draft', { picks: [pick] }));
  });

  it('conferences: one row per group, its divisions one JSON list', () => {
    const rows = rowsOf('mens_conferences', {
      groups: [
        { abbreviation: 'East', children: [{ name: 'Atlantic' }], name: 'Eastern' },
        { name: 'West', children: [], uid: 'g:2' },
      ],
    });
    expect(rows).toEqual([
      { name: 'Eastern', abbreviation: 'East', children: '[{"name":"Atlantic"}]', extra: null },
      { name: 'West', abbreviation: null, children: '[]', extra: '{"uid":"g:2"}' },
    ]);
  });

  it('depth charts: one row per athlete per position, with the depth', () => {
    const raw = {
      depthchart: [
        {
          id: '1',
          name: 'Depth Chart',
          positions: { pg: { position: { abbreviation: 'PG' }, athletes: [{ id: 'a' }, { id: 'b' }] } },
        },
      ],
    };
    const rows = rowsOf('mens_team_depthcharts', raw);
    expect(rows.map((r) => [r.position_key, r.position_abbreviation, r.depth, r.athlete_id])).toEqual([
      ['pg', 'PG', 1, 'a'],
      ['pg', 'PG', 2, 'b'],
    ]);
  });

  it('single entities: one row when the payload holds one, none otherwise', () => {
    expect(rowsOf('womens_team', { team: { id: '6', record: { items: [] } } })).toMatchObject([
      { id: '6', record_items: '[]', extra: null },
    ]);
    expect(rowsOf('mens_team', { nope: 1 })).toEqual([]);
    expect(rowsOf('mens_player_info', { athlete: { id: '1', active: true } })).toMatchObject([
      { id: '1', active: true },
    ]);
    expect(rowsOf('mens_player_bio', { events: null })).toEqual([]);
  });

  itRecorded(!HAVE_FIXTURES)('the recorded team: its franchise beyond franchise_id is kept in extra', () => {
    const raw = loadFixture<Json>('mens/team__13.json');
    const [row] = rowsOf('mens_team', raw);
    expect(row?.franchise_id).toBe(raw.team.franchise.id);
    const { id: _id, ...rest } = raw.team.franchise;
    expect(JSON.parse(String(row?.extra))).toEqual({ franchise: rest });
  });

  for (const { name, raw, fixture } of HAVE_FIXTURES ? fixturesOf('team') : []) {
    it(`${name}: its record splits, read as the team record, give one row each with wins and losses`, () => {
      const items: Json[] = (raw as Json).team.record.items;
      const rows = rowsOf(`${fixture.league}_team_record`, raw);
      expect(rows).toHaveLength(items.length);
      rows.forEach((row, i) => {
        const stat = (n: string) => items[i]?.stats.find((s: Json) => s.name === n)?.value ?? null;
        expect([row.type, row.summary, row.wins, row.losses]).toEqual([
          items[i]?.type,
          items[i]?.summary,
          stat('wins'),
          stat('losses'),
        ]);
        expect(Object.keys(row)).toEqual(columnsFor(`${fixture.league}_team_record`));
      });
    });
  }
});
