import { RecordBatch, Table, tableFromIPC, vectorFromArray, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import {
  columnsFor,
  frameToRows,
  operationCsv,
  parseFrames,
  parseOperation,
  tableToIpc,
  toCsv,
  type Frame,
  type Row,
} from '../../src/tables/index.js';
import { makeScoreboardEvent, makePlay } from './helpers.js';

describe('toCsv', () => {
  it('quotes per RFC 4180 and writes null as an empty field', () => {
    const csv = toCsv(
      [
        { a: 'plain', b: 1, c: true },
        { a: 'has, comma', b: null, c: false },
        { a: 'say "hi"\nthere', b: 2.5 },
      ],
      ['a', 'b', 'c'],
    );
    expect(csv).toBe('a,b,c\r\nplain,1,true\r\n"has, comma",,false\r\n"say ""hi""\nthere",2.5,\r\n');
  });

  it('quotes header names that need it', () => {
    expect(toCsv([], ['vs. div.', 'a,b'])).toBe('vs. div.,"a,b"\r\n');
  });
});

describe('tableToIpc', () => {
  it('round-trips an Arrow table through the IPC stream format with the same types and values', () => {
    const table = parseOperation(
      'mens_summary',
      { plays: [makePlay(), makePlay({ id: 'x', homeScore: null })] },
      { table: 'plays' },
    ) as Table;
    const bytes = tableToIpc(table);
    expect(bytes).toBeInstanceOf(Uint8Array);
    // Stream format starts with a message (continuation marker 0xFFFFFFFF), not the file magic "ARROW1".
    expect(Array.from(bytes.slice(0, 4))).toEqual([255, 255, 255, 255]);
    const back = tableFromIPC(bytes);
    expect(back.schema.fields.map((f) => [f.name, String(f.type), f.nullable])).toEqual(
      table.schema.fields.map((f) => [f.name, String(f.type), true]),
    );
    expect(back.numRows).toBe(2);
    expect(back.getChild('home_score')?.toArray()[0]).toBe(2);
    expect(back.getChild('home_score')?.get(1)).toBeNull();
    expect(back.getChild('scoring_play')?.get(0)).toBe(true);
    expect(back.getChild('id')?.get(1)).toBe('x');
  });

  it('builds tables and batches that behave like constructed ones', () => {
    const table = parseOperation(
      'mens_summary',
      { plays: [makePlay(), makePlay({ id: 'y' })] },
      { table: 'plays' },
    ) as Table;
    expect(table).toBeInstanceOf(Table);
    expect(Table.isTable(table)).toBe(true);
    expect(table.numRows).toBe(2);
    expect(table.batches).toHaveLength(1);
    expect(table.nullCount).toBe(table.data[0]?.nullCount);
    expect(table.get(1)?.toJSON()).toMatchObject({ id: 'y', home_score: 2 });
    const batch = table.batches[0];
    expect(batch).toBeInstanceOf(RecordBatch);
    expect(batch?.numRows).toBe(2);
    expect(batch?.metadata.size).toBe(0);
    expect(
      table
        .select(['id', 'home_score'])
        .toArray()
        .map((r) => r.toJSON()),
    ).toEqual([
      { id: '4017001', home_score: 2 },
      { id: 'y', home_score: 2 },
    ]);
    expect(table.slice(1).getChild('id')?.get(0)).toBe('y');
    const other = new Table({ id: vectorFromArray(['z'], new Utf8()) }) as unknown as Table;
    expect([...(table.select(['id']).concat(other).getChild('id') ?? [])]).toEqual(['4017001', 'y', 'z']);
    expect(tableFromIPC(tableToIpc(table)).numRows).toBe(2);
  });

  it('round-trips an empty table with its columns', () => {
    const table = parseOperation('womens_scoreboard', {}) as Table;
    const back = tableFromIPC(tableToIpc(table));
    expect(back.numRows).toBe(0);
    expect(back.schema.fields.map((f) => f.name)).toEqual(columnsFor('womens_scoreboard'));
  });
});

describe('frameToRows', () => {
  it('gives the rows flavour from a frame laid out in columns, lists as their JSON text', () => {
    const raw = {
      plays: [makePlay(), makePlay({ id: 'x', participants: [{ athlete: { id: 'é' } }], text: null })],
      header: { id: '1', competitions: [{ id: '1', competitors: [] }] },
    };
    const columns = parseFrames('mens_summary', raw, undefined, 'columns') as Record<string, Frame>;
    const rows = parseFrames('mens_summary', raw, undefined, 'rows') as Record<string, Frame>;
    // The column layout keeps a play's participants as the list itself, for the Arrow builder.
    const plays = columns.plays as Frame;
    const participants = plays.columns.findIndex((c) => c.name === 'participants');
    expect(plays.data?.[participants]?.[1]).toEqual([{ athlete: { id: 'é' } }]);
    for (const name of Object.keys(rows)) {
      expect(frameToRows(columns[name] as Frame), name).toEqual(frameToRows(rows[name] as Frame));
    }
    expect((frameToRows(columns.plays as Frame)[1] as Row).participants).toBe('[{"athlete":{"id":"é"}}]');
  });
});

describe('parseOperation options', () => {
  const raw = { events: [makeScoreboardEvent()] };
  it('defaults to Arrow; flavour rows and return_as_pandas give rows', () => {
    expect((parseOperation('mens_scoreboard', raw) as Table).numRows).toBe(1);
    const rows = parseOperation('mens_scoreboard', raw, { flavour: 'rows' }) as Row[];
    expect(rows[0]?.game_id).toBe('401000001');
    expect(parseOperation('mens_scoreboard', raw, { return_as_pandas: true })).toEqual(rows);
    expect((parseOperation('mens_scoreboard', raw, { return_as_pandas: false }) as Table).numRows).toBe(1);
  });

  it('summary gives its 14 tables, or one with table', () => {
    const all = parseOperation('mens_summary', {}, { flavour: 'rows' }) as Record<string, Row[]>;
    expect(Object.keys(all)).toHaveLength(14);
    expect(
      parseOperation('mens_summary', { plays: [makePlay()] }, { flavour: 'rows', table: 'plays' }),
    ).toHaveLength(1);
  });

  it('rejects unknown operations, flavours and tables by code', () => {
    expect(() => parseOperation('mens_nope', {})).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_OPERATION' }),
    );
    expect(() => parseOperation('mens_summary', {}, { flavour: 'pandas' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => parseOperation('mens_summary', {}, { table: 'nope' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => parseOperation('mens_news', {}, { table: 'plays' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });

  it('columnsFor: fixed tables only', () => {
    expect(columnsFor('mens_summary', 'plays')?.slice(0, 3)).toEqual(['id', 'sequence_number', 'text']);
    expect(columnsFor('mens_summary')).toBeUndefined();
    expect(columnsFor('mens_draft')).toContain('extra');
    expect(columnsFor('nope')).toBeUndefined();
    expect(columnsFor('mens_news')).toContain('byline');
    expect(columnsFor('womens_news')).not.toContain('byline');
    expect(columnsFor('womens_news')).toContain('links_web_self_dsi_href');
    expect(columnsFor('mens_summary', 'game_info')).toContain('venue_short_name');
    expect(columnsFor('womens_summary', 'game_info')).not.toContain('venue_short_name');
    expect(columnsFor('womens_summary', 'header')).toContain('game_note');
    expect(columnsFor('mens_summary', 'header')).not.toContain('game_note');
    expect(columnsFor('womens_summary', 'season_series')).toContain('round');
    expect(columnsFor('mens_standings')).toContain('vs. div.');
  });

  it('operationCsv writes one table with its columns', () => {
    const csv = operationCsv('mens_summary', { plays: [makePlay({ text: 'a, "b"' })] }, 'plays');
    const [header, line] = csv.split('\r\n');
    expect(header?.split(',')).toEqual(columnsFor('mens_summary', 'plays'));
    expect(line).toContain('"a, ""b"""');
    expect(() => operationCsv('mens_summary', {})).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});
