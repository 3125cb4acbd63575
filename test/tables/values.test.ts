import { expect, it } from 'vitest';
import { OPERATIONS } from '../../src/espn/operations.js';
import { parseOperation, type Row } from '../../src/tables/index.js';
import { HAVE_FIXTURES, listFixtures, describeRecorded } from '../support/fixtures.js';
import { fixturesOf } from './helpers.js';

/**
 * The value rules of docs/tables.md ("Usable values", "Lists"), each checked on every recorded
 * payload against the value read here straight from the raw JSON.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const rowsOf = (op: string, raw: unknown, table?: string) =>
  parseOperation(op, raw, { flavour: 'rows', ...(table ? { table } : {}) }) as Row[];

/** The number a display text shows, read here independently: digits with at most one point. */
function shown(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[2] === '' && !m[3])) return null;
  return parseFloat(`${m[1]}${m[2] || '0'}.${m[3] || '0'}`);
}

const hrefs = (logos: unknown): string | null => {
  const list = (Array.isArray(logos) ? logos : []).map((l: Json) => l?.href).filter(Boolean);
  return list.length ? list.join('|') : null;
};

describeRecorded(!HAVE_FIXTURES)('numeric columns fall back to the number displayValue shows', () => {
  it('the strict reading: "32" and "50.6" are numbers, "45-89" is not', () => {
    expect([shown('32'), shown('50.6'), shown('.683'), shown('45-89'), shown('W2'), shown('-')]).toEqual([
      32,
      50.6,
      0.683,
      null,
      null,
      null,
    ]);
  });

  for (const { name, raw, fixture } of fixturesOf('summary')) {
    const op = `${fixture.league}_summary`;
    const p = raw as Json;
    it(`${name}: leaders.value, main_stat and summary`, () => {
      const leaders = (p.leaders ?? []).flatMap((t: Json) =>
        (t.leaders ?? []).flatMap((c: Json) => c.leaders),
      );
      const rows = rowsOf(op, raw, 'leaders');
      expect(rows).toHaveLength(leaders.length);
      rows.forEach((row, i) => {
        const l = leaders[i];
        expect(row.value).toBe(l.value ?? shown(l.displayValue));
        expect(row.display_value).toBe(l.displayValue);
        const main = l.mainStat ?? { value: l.displayValue, label: l.statistics[0].abbreviation };
        expect(JSON.parse(String(row.main_stat))).toEqual(main);
        expect(row.summary).toBe(l.summary ?? null);
      });
      // The recorded leaders send a plain number as their display value: none is left null.
      expect(rows.filter((r) => r.value === null)).toEqual([]);
    });

    it(`${name}: boxscore_team.stat_value`, () => {
      const stats = (p.boxscore?.teams ?? []).flatMap((t: Json) => t.statistics);
      const rows = rowsOf(op, raw, 'boxscore_team');
      expect(rows).toHaveLength(stats.length);
      rows.forEach((row, i) => {
        const s = stats[i];
        const n = s.value ?? shown(s.displayValue);
        expect(row.stat_value, s.name).toBe(n === null ? null : String(n));
        expect(row.stat_display_value).toBe(s.displayValue ?? null);
        if (/^\d+-\d+$/.test(s.displayValue) && s.value === undefined) expect(row.stat_value).toBeNull();
      });
    });
  }

  it('the recorded summary that sends mainStat: the rebuilt object would equal it for every leader', () => {
    const all = fixturesOf('summary').flatMap(({ raw }) =>
      ((raw as Json).leaders ?? []).flatMap((t: Json) => (t.leaders ?? []).flatMap((c: Json) => c.leaders)),
    );
    const sent = all.filter((l: Json) => l.mainStat);
    expect(sent.length).toBeGreaterThan(0);
    for (const l of sent) {
      expect(l.mainStat).toEqual({ value: l.displayValue, label: l.statistics[0].abbreviation });
    }
  });

  for (const { name, raw } of fixturesOf('standings')) {
    it(`${name}: the standings' double columns`, () => {
      const entries: Json[] = [];
      const visit = (g: Json) => {
        entries.push(...(g.standings?.entries ?? []));
        for (const c of g.children ?? []) visit(c);
      };
      visit(raw as Json);
      const rows = rowsOf('mens_standings', raw);
      expect(rows).toHaveLength(entries.length);
      rows.forEach((row, i) => {
        const stat = (n: string) => entries[i]?.stats.find((s: Json) => s.name === n);
        for (const [column, upstream] of [
          ['wins', 'wins'],
          ['games_behind', 'gamesBehind'],
          ['avg_points_for', 'avgPointsFor'],
        ] as const) {
          const s = stat(upstream);
          expect(row[column]).toBe(s ? (s.value ?? shown(s.displayValue)) : null);
        }
      });
    });
  }
});

describeRecorded(!HAVE_FIXTURES)('shot coordinates: sentinels are null', () => {
  for (const { name, raw, fixture } of fixturesOf('summary')) {
    it(`${name}: every play's coordinates, sentinels counted`, () => {
      const plays: Json[] = (raw as Json).plays ?? [];
      const rows = rowsOf(`${fixture.league}_summary`, raw, 'plays');
      expect(rows).toHaveLength(plays.length);
      let sentinels = 0;
      rows.forEach((row, i) => {
        for (const axis of ['x', 'y'] as const) {
          const v = plays[i]?.coordinate?.[axis];
          // ESPN's no-location values sit near -2^31/10.
          const sentinel = typeof v === 'number' && v < -200_000_000;
          if (sentinel) sentinels++;
          expect(row[`coordinate_${axis}`]).toBe(sentinel || v === undefined ? null : v);
        }
      });
      if (plays.length) expect(sentinels).toBeGreaterThan(0);
    });
  }
});

describeRecorded(!HAVE_FIXTURES)('lists: logo lists are |-joined URLs, every other list is JSON', () => {
  /** Every table of every recorded payload, with its rows. */
  const tables = listFixtures().flatMap((fixture) => {
    const op = `${fixture.league}_${fixture.suffix}`;
    if (!OPERATIONS.has(op)) return [];
    const raw = fixturesOf(fixture.suffix).find((f) => f.fixture.file === fixture.file)?.raw;
    const label = `${fixture.league}/${fixture.file.split('/').pop()}`;
    const result = parseOperation(op, raw, { flavour: 'rows' });
    return Array.isArray(result)
      ? [{ label, table: op, rows: result }]
      : Object.entries(result as Record<string, Row[]>).map(([t, rows]) => ({
          label,
          table: `${op}.${t}`,
          rows,
        }));
  });

  it('every logo column of every table holds URLs joined with |; no other column does', () => {
    let logoCells = 0;
    for (const { label, table, rows } of tables) {
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          if (typeof value !== 'string') continue;
          if (/(^|_)logos$/.test(column)) {
            logoCells++;
            for (const url of value.split('|'))
              expect(url, `${label} ${table}.${column}`).toMatch(/^https?:\/\/\S+$/);
          } else if (/^https?:\/\/[^|\s]+\|https?:\/\//.test(value)) {
            expect.fail(`${label} ${table}.${column} holds a |-joined list: ${value.slice(0, 80)}`);
          }
        }
      }
    }
    expect(logoCells).toBeGreaterThan(100);
  });

  it('every cell that holds a list or object is JSON that parses', () => {
    for (const { label, table, rows } of tables) {
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          if (typeof value === 'string' && /^[[{]/.test(value)) {
            expect(() => JSON.parse(value), `${label} ${table}.${column}`).not.toThrow();
          }
        }
      }
    }
  });

  it('logo columns equal the logos of the raw payload, in every table that has one', () => {
    for (const { raw, fixture } of fixturesOf('summary')) {
      const op = `${fixture.league}_summary`;
      const [header] = rowsOf(op, raw, 'header');
      expect(header?.league_logos).toBe(hrefs((raw as Json).header.league.logos));
      rowsOf(op, raw, 'injuries').forEach((row, i) =>
        expect(row.team_logos).toBe(hrefs((raw as Json).injuries[i].team.logos)),
      );
    }
    for (const { raw, fixture } of fixturesOf('team_roster')) {
      const athletes: Json[] = (raw as Json).athletes;
      rowsOf(`${fixture.league}_team_roster`, raw).forEach((row, i) =>
        expect(row.college_logos).toBe(hrefs(athletes[i]?.college?.logos)),
      );
    }
    for (const { raw, fixture } of fixturesOf('transactions')) {
      const items: Json[] = (raw as Json).transactions;
      rowsOf(`${fixture.league}_transactions`, raw).forEach((row, i) =>
        expect(row.team_logos).toBe(hrefs(items[i]?.team?.logos)),
      );
    }
    for (const { raw, fixture } of fixturesOf('team')) {
      expect(rowsOf(`${fixture.league}_team`, raw)[0]?.logos).toBe(hrefs((raw as Json).team.logos));
    }
  });
});
