import { Buffer } from 'node:buffer';
import { DataType, tableFromIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/espn/operations.js';
import { frameToArrow, frameToRows, type Frame } from '../../src/tables/frame.js';
import { parseOperation, tableToIpc, type Row } from '../../src/tables/index.js';
import type { Cell } from '../../src/tables/schema.js';
import { HAVE_FIXTURES, listFixtures, loadFixture, describeRecorded } from '../support/fixtures.js';
import { makePlay } from './helpers.js';

/** UTF-8 bytes as a string of one character per byte: text compared byte for byte, quickly. */
const byteString = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

/**
 * A column's cells as Arrow holds them: a text cell as its UTF-8 bytes (so a cell is compared
 * byte for byte, not after decoding), the others as `get` reads them.
 */
function arrowCells(table: Table, name: string): unknown[] {
  const column = table.getChild(name);
  if (!column) throw new Error(`no column ${name}`);
  const out: unknown[] = [];
  for (const data of column.data) {
    for (let i = 0; i < data.length; i++) {
      if (!data.getValid(i)) out.push(null);
      else if (DataType.isUtf8(data.type)) {
        const at = data.offset + i;
        out.push(byteString(data.values.subarray(data.valueOffsets[at], data.valueOffsets[at + 1])));
      } else out.push(column.get(out.length));
    }
  }
  return out;
}

/** The same cells from the rows flavour, text as the UTF-8 bytes Arrow must hold. */
function rowCells(rows: readonly Row[], name: string): unknown[] {
  return rows.map((r) => {
    const v = r[name] ?? null;
    return typeof v === 'string' ? byteString(Buffer.from(v, 'utf8')) : v;
  });
}

/** Asserts that an Arrow table and rows hold the same columns, in order, and the same cells. */
function expectSameCells(
  table: Table,
  rows: readonly Row[],
  columns: readonly string[],
  where: string,
): void {
  expect(
    table.schema.fields.map((f) => f.name),
    where,
  ).toEqual(columns);
  expect(table.numRows, where).toBe(rows.length);
  for (const r of rows) expect(Object.keys(r), where).toEqual(columns);
  for (const name of columns) {
    expect(arrowCells(table, name), `${where} ${name}`).toEqual(rowCells(rows, name));
  }
}

describeRecorded(!HAVE_FIXTURES)('Arrow and rows flavours on every recorded payload', () => {
  const cases = listFixtures()
    .map((f) => ({ ...f, operation: `${f.league}_${f.suffix}` }))
    .filter((f) => OPERATIONS.has(f.operation));

  it('covers the recorded summaries of both leagues', () => {
    const summaries = cases.filter((f) => f.suffix === 'summary');
    expect(summaries.filter((f) => f.league === 'mens').length).toBeGreaterThan(0);
    expect(summaries.filter((f) => f.league === 'womens').length).toBeGreaterThan(0);
  });

  it.each(cases.map((f) => [`${f.league}/${f.suffix}${f.qualifier ? `__${f.qualifier}` : ''}`, f] as const))(
    '%s: every cell of every table agrees',
    (_, f) => {
      const raw = loadFixture(`${f.league}/${f.file.split('/').pop() as string}`);
      const arrow = parseOperation(f.operation, raw) as Table | Record<string, Table>;
      const rows = parseOperation(f.operation, raw, { flavour: 'rows' }) as Row[] | Record<string, Row[]>;
      const pairs: [string, Table, Row[]][] = Array.isArray(rows)
        ? [['', arrow as Table, rows]]
        : Object.entries(rows).map(([name, r]) => [name, (arrow as Record<string, Table>)[name] as Table, r]);
      let cells = 0;
      for (const [name, table, tableRows] of pairs) {
        const columns = table.schema.fields.map((field) => field.name);
        expectSameCells(table, tableRows, columns, `${f.operation} ${name}`);
        cells += columns.length * tableRows.length;
      }
      if (f.suffix === 'summary' && !f.qualifier.includes('pre')) expect(cells).toBeGreaterThan(1000);
    },
  );
});

/** The Arrow and rows flavours of a frame given column by column. */
function bothFlavours(
  types: Frame['columns'][number]['type'][],
  data: Frame['data'] & object,
): [Table, Row[], string[]] {
  const names = types.map((_, j) => `c${j}`);
  const frame: Frame = {
    columns: types.map((type, j) => ({ name: names[j] as string, type })),
    length: data[0]?.length ?? 0,
    data,
  };
  return [frameToArrow(frame), frameToRows(frame), names];
}

describe('frameToArrow from column vectors', () => {
  it('writes text beyond ASCII in plain and list columns, with nulls between', () => {
    const [table, rows, names] = bothFlavours(
      ['character', 'integer', 'character', 'character', 'double', 'logical'],
      [
        ['Pöltl', null, 'Dončić', '🏀 and more', 'plain'],
        [1, null, -2147483648, 2147483647, 0],
        [
          [{ athlete: { id: '1' } }],
          null,
          'a string in a list column',
          { name: 'Jokić', tags: ['é', '"q"'] },
          [],
        ],
        [null, null, null, null, null],
        [1.5, null, -0, 1e300, Number.MIN_VALUE],
        [true, false, null, true, false],
      ],
    );
    expectSameCells(table, rows, names, 'mixed');
    expect(table.getChild('c2')?.get(3)).toBe('{"name":"Jokić","tags":["é","\\"q\\""]}');
    expect(table.getChild('c0')?.get(2)).toBe('Dončić');
  });

  it('keeps cells apart when lone surrogates of neighbouring cells would pair up', () => {
    // Joined, '\ud83c' + '\udfc0' is one character (🏀); each cell alone is a lone surrogate.
    const [table, rows, names] = bothFlavours(
      ['character', 'character'],
      [
        ['x\ud83c', '\udfc0y', 'é'],
        ['\ud83c', null, '\udfc0'],
      ],
    );
    expectSameCells(table, rows, names, 'surrogates');
    expect(table.getChild('c0')?.get(0)).toBe('x\ufffd');
  });

  // A table of a few rows has its lists made text by JSON.stringify, one of many rows has them
  // written by the JSON writer: both ways are checked.
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const lists: unknown[] = [
    cyclic,
    { when: new Date(0) },
    ['ok', 1, true, null],
    { name: 'Jokić', nested: [{ '2': 'b', '1': 'a' }], quote: '"\\\n' },
    'plain text',
    null,
    [],
  ];
  it.each([
    ['a few rows', 1],
    ['many rows', 6],
  ])(
    'writes lists in a table of %s as the rows flavour does: a cycle as null, a Date by JSON.stringify',
    (_, copies) => {
      const column = Array.from({ length: copies }, () => lists).flat();
      const numbers = column.map((_, i) => i);
      const [table, rows, names] = bothFlavours(['character', 'integer'], [column as Cell[], numbers]);
      expectSameCells(table, rows, names, 'lists');
      expect(rows.slice(0, 4).map((r) => r.c0)).toEqual([
        null,
        '{"when":"1970-01-01T00:00:00.000Z"}',
        '["ok",1,true,null]',
        '{"name":"Jokić","nested":[{"1":"a","2":"b"}],"quote":"\\"\\\\\\n"}',
      ]);
      expect(table.getChild('c0')?.nullCount).toBe(2 * copies);
    },
  );

  it('writes a cell not of its column type as null', () => {
    const data: unknown[][] = [
      [1, 'x'],
      ['1', 2],
      ['true', true],
    ];
    const [table] = bothFlavours(['character', 'integer', 'logical'], data as Cell[][]);
    expect(table.getChild('c0')?.toArray()).toEqual([null, 'x']);
    expect([...(table.getChild('c1') ?? [])]).toEqual([null, 2]);
    expect([...(table.getChild('c2') ?? [])]).toEqual([null, true]);
  });

  it('builds empty tables and tables without text', () => {
    const [empty] = bothFlavours(['character', 'double'], [[], []]);
    expect(empty.numRows).toBe(0);
    expect(tableFromIPC(tableToIpc(empty)).numRows).toBe(0);
    const [numbers, rows, names] = bothFlavours(['integer'], [[7, null, 9]]);
    expectSameCells(numbers, rows, names, 'numbers');
  });

  it('round-trips text beyond ASCII and lists through IPC', () => {
    const table = parseOperation(
      'mens_summary',
      {
        plays: [
          makePlay({ text: 'Jakob Pöltl makes layup' }),
          makePlay({ participants: [{ athlete: { id: '1' } }, { athlete: { id: 'ü' } }], text: null }),
        ],
      },
      { table: 'plays' },
    ) as Table;
    const back = tableFromIPC(tableToIpc(table));
    expect(back.getChild('text')?.toArray()).toEqual(['Jakob Pöltl makes layup', null]);
    expect(back.getChild('participants')?.get(1)).toBe('[{"athlete":{"id":"1"}},{"athlete":{"id":"ü"}}]');
  });

  it('gives every table its own buffers: a later parse does not change an earlier table', () => {
    const first = parseOperation(
      'mens_summary',
      { plays: [makePlay({ text: 'first' })] },
      { table: 'plays' },
    ) as Table;
    parseOperation(
      'mens_summary',
      { plays: [makePlay({ text: 'second, longer', homeScore: 99, scoringPlay: false })] },
      { table: 'plays' },
    );
    expect(first.getChild('text')?.get(0)).toBe('first');
    expect(first.getChild('participants')?.get(0)).toBe('[{"athlete":{"id":"4566434"}}]');
    expect(first.getChild('home_score')?.get(0)).toBe(2);
    expect(first.getChild('scoring_play')?.get(0)).toBe(true);
  });

  it('skips entries that are not objects in plays and win probability, as the rows flavour does', () => {
    const raw = {
      plays: [makePlay(), 7, null, makePlay({ id: 'z' }), 'x'],
      winprobability: [{ homeWinPercentage: 0.5, playId: '1' }, [], { homeWinPercentage: '0.25', playId: 2 }],
    };
    for (const name of ['plays', 'winprobability']) {
      const table = parseOperation('mens_summary', raw, { table: name }) as Table;
      const rows = parseOperation('mens_summary', raw, { table: name, flavour: 'rows' }) as Row[];
      expect(table.numRows).toBe(2);
      expect(table.batches[0]?.data.children.every((d) => d.length === 2)).toBe(true);
      expectSameCells(
        table,
        rows,
        table.schema.fields.map((f) => f.name),
        name,
      );
    }
  });

  it('lays a table out in one buffer, with a validity bitmap only where a column has nulls', () => {
    const [table, rows, names] = bothFlavours(
      ['integer', 'double', 'logical', 'character', 'character'],
      [
        [1, 2, 3],
        [0.5, null, 2.5],
        [true, false, null],
        ['a', 'b', 'c'],
        [null, 'é', [1, 'x']],
      ],
    );
    expectSameCells(table, rows, names, 'layout');
    const data = names.map((name) => table.getChild(name)?.data[0]);
    expect(data.map((d) => d?.nullBitmap !== undefined)).toEqual([false, true, true, false, true]);
    expect(data.map((d) => d?.nullCount)).toEqual([0, 1, 1, 0, 1]);
    const buffers = new Set(
      data.flatMap((d) => [d?.values.buffer, d?.valueOffsets?.buffer, d?.nullBitmap?.buffer]),
    );
    buffers.delete(undefined);
    expect(buffers.size).toBe(1);
  });
});
