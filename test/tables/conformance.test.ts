import type { Table } from 'apache-arrow';
import { expect, it } from 'vitest';
import { OPERATIONS } from '../../src/espn/operations.js';
import { columnsFor, parseFrames, parseOperation, type Frame, type Row } from '../../src/tables/index.js';
import {
  SUMMARY_TABLE_NAMES,
  SUMMARY_TABLES,
  tableColumns,
  type ColumnType,
} from '../../src/tables/schema.js';
import { HAVE_FIXTURES, listFixtures, describeRecorded } from '../support/fixtures.js';
import { fixturesOf } from './helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ARROW_TYPE: Record<ColumnType, string> = {
  character: 'Utf8',
  integer: 'Int32',
  double: 'Float64',
  logical: 'Bool',
};

function checkType(type: ColumnType, value: unknown, where: string): void {
  if (value === null) return;
  const ok =
    type === 'character'
      ? typeof value === 'string' && value !== '' && value !== 'undefined'
      : type === 'integer'
        ? Number.isInteger(value) && (value as number) >= -(2 ** 31) && (value as number) < 2 ** 31
        : type === 'double'
          ? typeof value === 'number' && Number.isFinite(value)
          : typeof value === 'boolean';
  if (!ok) expect.fail(`${where}: ${JSON.stringify(value)} is not ${type}`);
}

/** Rows flavour and Arrow flavour agree with the frame: columns in order, typed cells. */
function checkFrame(
  frame: Frame,
  rows: Row[],
  table: Table,
  expected: readonly string[] | undefined,
  where: string,
): void {
  const names = frame.columns.map((c) => c.name);
  if (expected) expect(names, where).toEqual(expected);
  expect(new Set(names).size, `${where}: unique column names`).toBe(names.length);
  expect(table.schema.fields.map((f) => f.name)).toEqual(names);
  expect(table.schema.fields.map((f) => String(f.type))).toEqual(
    frame.columns.map((c) => ARROW_TYPE[c.type]),
  );
  expect(table.schema.fields.every((f) => f.nullable)).toBe(true);
  expect(table.numRows).toBe(rows.length);
  for (const [i, row] of rows.entries()) {
    expect(Object.keys(row), `${where} row ${i}`).toEqual(names);
    for (const c of frame.columns) checkType(c.type, row[c.name], `${where} row ${i} ${c.name}`);
  }
  // Arrow cells equal the rows' cells.
  for (const c of frame.columns) {
    const vector = table.getChild(c.name);
    const values = rows.map((r) => r[c.name] ?? null);
    expect(
      vector?.toArray ? Array.from({ length: table.numRows }, (_, i) => vector.get(i) ?? null) : [],
      `${where} ${c.name}`,
    ).toEqual(values);
  }
}

function fixedColumns(operation: string, table?: string): readonly string[] | undefined {
  return columnsFor(operation, table);
}

describeRecorded(!HAVE_FIXTURES)('every recorded payload yields its tables', () => {
  for (const fixture of listFixtures()) {
    const operation = `${fixture.league}_${fixture.suffix}`;
    const label = `${fixture.league}/${fixture.suffix}${fixture.qualifier ? `__${fixture.qualifier}` : ''}`;
    it(`${label}: columns in order, values of the column's type, Arrow and rows agree`, () => {
      expect(OPERATIONS.has(operation)).toBe(true);
      const raw = fixturesOf(fixture.suffix).find((f) => f.fixture.file === fixture.file)?.raw;
      const frames = parseFrames(operation, raw);
      const rowsResult = parseOperation(operation, raw, { flavour: 'rows' });
      const arrowResult = parseOperation(operation, raw);
      if (fixture.suffix === 'summary') {
        const f = frames as Record<string, Frame>;
        expect(Object.keys(f)).toEqual(SUMMARY_TABLE_NAMES);
        for (const name of SUMMARY_TABLE_NAMES) {
          checkFrame(
            f[name] as Frame,
            (rowsResult as Record<string, Row[]>)[name] as Row[],
            (arrowResult as Record<string, Table>)[name] as Table,
            tableColumns(SUMMARY_TABLES[name], fixture.league).map((c) => c.name),
            `${label} ${name}`,
          );
        }
      } else {
        checkFrame(
          frames as Frame,
          rowsResult as Row[],
          arrowResult as Table,
          fixedColumns(operation),
          label,
        );
      }
    });
  }
});

/** Values checked against the raw payloads, table by table. */
describeRecorded(!HAVE_FIXTURES)('values match the raw payloads', () => {
  const rowsOf = (operation: string, raw: unknown, table?: string) =>
    parseOperation(operation, raw, { flavour: 'rows', ...(table ? { table } : {}) }) as Row[];

  for (const { name, raw, fixture } of fixturesOf('summary')) {
    const op = `${fixture.league}_summary`;
    const p = raw as Json;
    it(`${name}: boxscore_player has one row per athlete, stats as upstream shows them`, () => {
      const rows = rowsOf(op, raw, 'boxscore_player');
      const athletes = (p.boxscore?.players ?? []).flatMap((t: Json) =>
        t.statistics.flatMap((s: Json) => s.athletes.map((a: Json) => ({ team: t.team, a, keys: s.keys }))),
      );
      expect(rows).toHaveLength(athletes.length);
      athletes.forEach(({ team, a, keys }: Json, i: number) => {
        const row = rows[i] as Row;
        expect(row.athlete_id).toBe(a.athlete.id);
        expect(row.team_id).toBe(team.id);
        expect(row.did_not_play).toBe(a.didNotPlay ?? null);
        const pts = keys.indexOf('points');
        expect(row.points).toBe(a.stats[pts] ?? null);
        if (a.stats.length === 0) expect(row.minutes).toBeNull();
      });
    });
    it(`${name}: boxscore_team, leaders, officials, season_series, standings count what the payload holds`, () => {
      const teamStats = (p.boxscore?.teams ?? []).reduce((n: number, t: Json) => n + t.statistics.length, 0);
      expect(rowsOf(op, raw, 'boxscore_team')).toHaveLength(teamStats);
      const leaders = (p.leaders ?? []).reduce(
        (n: number, t: Json) => n + (t.leaders ?? []).reduce((m: number, c: Json) => m + c.leaders.length, 0),
        0,
      );
      expect(rowsOf(op, raw, 'leaders')).toHaveLength(leaders);
      expect(rowsOf(op, raw, 'officials')).toHaveLength(p.gameInfo?.officials?.length ?? 0);
      expect(rowsOf(op, raw, 'season_series')).toHaveLength(p.seasonseries?.length ?? 0);
      const entries = (p.standings?.groups ?? []).reduce(
        (n: number, g: Json) => n + g.standings.entries.length,
        0,
      );
      expect(rowsOf(op, raw, 'standings')).toHaveLength(entries);
      expect(rowsOf(op, raw, 'injuries')).toHaveLength(p.injuries?.length ?? 0);
      expect(rowsOf(op, raw, 'news')).toHaveLength(p.news?.articles?.length ?? 0);
    });
    it(`${name}: header, game_info, format and article are single rows from their parts`, () => {
      const [header] = rowsOf(op, raw, 'header');
      expect(header?.id).toBe(p.header.id);
      expect(header?.season_year).toBe(p.header.season.year);
      expect(header?.season_type).toBe(p.header.season.type);
      if (fixture.league === 'womens') expect(header?.game_note).toBe(p.header.gameNote ?? null);
      else expect(Object.keys(header ?? {})).not.toContain('game_note');
      const info = rowsOf(op, raw, 'game_info');
      expect(info).toHaveLength(p.gameInfo ? 1 : 0);
      if (p.gameInfo) {
        expect(info[0]?.attendance).toBe(p.gameInfo.attendance ?? null);
        expect(info[0]?.venue_full_name).toBe(p.gameInfo.venue.fullName);
      }
      const [format] = rowsOf(op, raw, 'format');
      expect(format?.regulation_clock).toBe(fixture.league === 'mens' ? 720 : 600);
      expect(format?.overtime_clock).toBe(300);
      expect(rowsOf(op, raw, 'article')).toHaveLength(p.article ? 1 : 0);
    });
  }

  it('a league-only column holds null where the payload lacks it (season_series round)', () => {
    for (const { raw } of fixturesOf('summary').filter((f) => f.fixture.league === 'womens')) {
      for (const row of rowsOf('womens_summary', raw, 'season_series')) expect(row.round).toBeNull();
    }
  });

  for (const suffix of ['news', 'team_news', 'player_news']) {
    for (const { name, raw, fixture } of fixturesOf(suffix)) {
      it(`${name}: one row per article; men's byline, women's extra links`, () => {
        const rows = rowsOf(`${fixture.league}_${suffix}`, raw);
        const articles: Json[] = (raw as Json).articles;
        expect(rows).toHaveLength(articles.length);
        rows.forEach((row, i) => {
          expect(row.id).toBe(articles[i]?.id);
          expect(row.links_web_href).toBe(articles[i]?.links?.web?.href ?? null);
          if (fixture.league === 'mens') expect(row.byline).toBe(articles[i]?.byline ?? null);
          else expect(row.links_api_artwork_href).toBe(articles[i]?.links?.api?.artwork?.href ?? null);
        });
      });
    }
  }

  for (const { name, raw, fixture } of fixturesOf('teams_site')) {
    it(`${name}: one row per team, colours without #, logos pipe-delimited`, () => {
      const rows = rowsOf(`${fixture.league}_teams_site`, raw);
      const teams: Json[] = (raw as Json).sports[0].leagues[0].teams.map((t: Json) => t.team);
      expect(rows).toHaveLength(teams.length);
      rows.forEach((row, i) => {
        expect(row.team_id).toBe(teams[i]?.id);
        expect(String(row.team_color)).not.toMatch(/^#/);
        const logos = (teams[i]?.logos ?? []).map((l: Json) => l.href);
        expect(row.team_logos).toBe(logos.length ? logos.join('|') : null);
      });
    });
  }

  for (const { name, raw, fixture } of fixturesOf('team_roster')) {
    it(`${name}: one row per athlete, the league's roster columns`, () => {
      const rows = rowsOf(`${fixture.league}_team_roster`, raw);
      const athletes: Json[] = (raw as Json).athletes;
      expect(rows).toHaveLength(athletes.length);
      rows.forEach((row, i) => {
        expect(row.id).toBe(athletes[i]?.id);
        expect(row.age).toBe(athletes[i]?.age ?? null);
        expect(row.experience_years).toBe(athletes[i]?.experience?.years ?? null);
        if (fixture.league === 'mens')
          expect(row.contract_salary).toBe(athletes[i]?.contract?.salary ?? null);
      });
    });
  }

  for (const { name, raw, fixture } of fixturesOf('team_schedule')) {
    it(`${name}: one row per event, season_year an integer`, () => {
      const rows = rowsOf(`${fixture.league}_team_schedule`, raw);
      const events: Json[] = (raw as Json).events;
      expect(rows).toHaveLength(events.length);
      rows.forEach((row, i) => {
        expect(row.id).toBe(events[i]?.id);
        expect(row.season_year).toBe(events[i]?.season?.year);
        expect(row.season_type_type).toBe(events[i]?.seasonType?.type);
      });
    });
  }

  for (const { name, raw } of fixturesOf('standings')) {
    it(`${name}: one row per team entry, record summaries in the spaced columns`, () => {
      const rows = rowsOf('mens_standings', raw);
      const entries: Json[] = (raw as Json).children.flatMap((c: Json) => c.standings.entries);
      expect(rows).toHaveLength(entries.length);
      rows.forEach((row, i) => {
        const stats: Json[] = entries[i]?.stats ?? [];
        const stat = (n: string) => stats.find((s) => s.name === n);
        expect(row.team_id).toBe(entries[i]?.team.id);
        expect(row.wins).toBe(stat('wins')?.value ?? null);
        expect(row['vs. div.']).toBe(stat('vs. Div.')?.summary ?? null);
        expect(row['last ten games']).toBe(stat('Last Ten Games')?.summary ?? null);
      });
    });
  }

  for (const { name, raw, fixture } of fixturesOf('injuries')) {
    it(`${name}: one row per injured athlete`, () => {
      const rows = rowsOf(`${fixture.league}_injuries`, raw);
      const entries: Json[] = (raw as Json).injuries.flatMap((t: Json) => t.injuries);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.reduce((n, r) => n + JSON.parse(String(r.injuries)).length, 0)).toBe(entries.length);
      for (const row of rows) expect(row.id).toMatch(/^\d+$/);
    });
  }

  const ITEM_COUNTS: Record<string, (raw: Json) => number> = {
    conferences: (r) => r.groups.length,
    draft: (r) => r.picks.length,
    transactions: (r) => r.transactions.length,
    team: () => 1,
    player_info: () => 1,
    player_bio: () => 1,
    team_depthcharts: (r) =>
      r.depthchart.reduce(
        (n: number, c: Json) =>
          n + Object.values(c.positions as Json).reduce((m: number, s: Json) => m + s.athletes.length, 0),
        0,
      ),
  };
  for (const [suffix, count] of Object.entries(ITEM_COUNTS)) {
    for (const { name, raw, fixture } of fixturesOf(suffix)) {
      it(`${name}: one row per item of the payload`, () => {
        expect(rowsOf(`${fixture.league}_${suffix}`, raw)).toHaveLength(count(raw as Json));
      });
    }
  }
});
