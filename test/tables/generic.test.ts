import { describe, expect, it } from 'vitest';
import { flatten, genericFrame } from '../../src/tables/generic.js';
import { frameToArrow, frameToRows, parseOperation, type Row } from '../../src/tables/index.js';

describe('generic tables', () => {
  it('flattens nested objects with _, snake_cases names, stringifies lists', () => {
    expect(
      flatten({ teamName: 'A', team: { homeVenue: { fullName: 'X' } }, tags: [1, { a: 2 }], $ref: 'r' }),
    ).toEqual({
      team_name: 'A',
      team_home_venue_full_name: 'X',
      tags: [1, { a: 2 }],
      ref: 'r',
    });
    const [row] = frameToRows(genericFrame([{ tags: [1, { a: 2 }] }]));
    expect(row?.tags).toBe('[1,{"a":2}]');
  });

  it('infers one type per column across rows', () => {
    const frame = genericFrame([
      { i: 1, d: 1, s: 1, b: true, n: null, e: '' },
      { i: 2, d: 2.5, s: 'x', b: false, n: null, e: 'y' },
      { i: null, d: 3 },
    ]);
    expect(frame.columns).toEqual([
      { name: 'i', type: 'integer' },
      { name: 'd', type: 'double' },
      { name: 's', type: 'character' },
      { name: 'b', type: 'logical' },
      { name: 'n', type: 'character' },
      { name: 'e', type: 'character' },
    ]);
    expect(frameToRows(frame)).toEqual([
      { i: 1, d: 1, s: '1', b: true, n: null, e: null },
      { i: 2, d: 2.5, s: 'x', b: false, n: null, e: 'y' },
      { i: null, d: 3, s: null, b: null, n: null, e: null },
    ]);
    const table = frameToArrow(frame);
    expect(table.schema.fields.map((f) => String(f.type))).toEqual([
      'Int32',
      'Float64',
      'Utf8',
      'Bool',
      'Utf8',
      'Utf8',
    ]);
  });

  it('integers beyond Int32 make the column double', () => {
    expect(genericFrame([{ salary: 1 }, { salary: 2 ** 33 }]).columns).toEqual([
      { name: 'salary', type: 'double' },
    ]);
  });

  it('reads integer-like column names by name for Arrow', () => {
    const frame = genericFrame([{ b: 'x', 2024: 5 }]);
    expect(frame.exact).toBe(false);
    const table = frameToArrow(frame);
    expect(table.getChild('2024')?.get(0)).toBe(5);
    expect(table.getChild('b')?.get(0)).toBe('x');
  });

  it('conferences: one row per group; team and player entities: one row', () => {
    const groups = parseOperation(
      'mens_conferences',
      {
        groups: [
          { name: 'East', children: [{ name: 'Atlantic' }] },
          { name: 'West', children: [] },
        ],
      },
      { flavour: 'rows' },
    ) as Row[];
    expect(groups).toEqual([
      { name: 'East', children: '[{"name":"Atlantic"}]' },
      { name: 'West', children: '[]' },
    ]);
    expect(
      parseOperation('womens_team', { team: { id: '6', record: { items: [] } } }, { flavour: 'rows' }),
    ).toEqual([{ id: '6', record_items: '[]' }]);
    expect(
      parseOperation('mens_player_info', { athlete: { id: '1', isActive: true } }, { flavour: 'rows' }),
    ).toEqual([{ id: '1', is_active: true }]);
    expect(parseOperation('mens_team', { nope: 1 }, { flavour: 'rows' })).toEqual([]);
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
    const rows = parseOperation('mens_team_depthcharts', raw, { flavour: 'rows' }) as Row[];
    expect(rows.map((r) => [r.position_key, r.position_abbreviation, r.depth, r.athlete_id])).toEqual([
      ['pg', 'PG', 1, 'a'],
      ['pg', 'PG', 2, 'b'],
    ]);
  });

  it('payloads whose items are unknown: the longest list of objects', () => {
    const rows = parseOperation(
      'mens_team_history',
      { meta: [1, 2, 3], seasons2: [{ year: 2020 }, { year: 2021 }] },
      { flavour: 'rows' },
    );
    expect(rows).toEqual([{ year: 2020 }, { year: 2021 }]);
  });
});
