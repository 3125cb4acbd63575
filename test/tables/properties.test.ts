import type { Table } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/espn/operations.js';
import {
  columnsFor,
  parseOperation,
  parsePlays,
  parseScoreboard,
  parseWinprobability,
  type Row,
} from '../../src/tables/index.js';
import { SUMMARY_TABLE_NAMES, SUMMARY_TABLES, tableColumns } from '../../src/tables/schema.js';
import { generateFinishedSummary } from '../../src/simulator/synthetic-game.js';
import { HAVE_FIXTURES, finishedSummaries, loadFixture, itRecorded } from '../support/fixtures.js';

// Why these runs: enough cases to reach nested shapes, cheap enough for a loaded 2-core machine.
const RUNS = 60;

/** Payloads that are JSON but not the shape of any operation's items. */
const wrongShape = fc.oneof(
  fc.constantFrom(null, 0, 1.5, '', 'x', true, [], {}, [1, 2], [{}]),
  fc.dictionary(
    fc.constantFrom(
      'events',
      'plays',
      'winprobability',
      'articles',
      'athletes',
      'injuries',
      'sports',
      'children',
      'boxscore',
      'header',
      'gameInfo',
      'groups',
      'picks',
      'transactions',
      'team',
      'calendar',
      'sections',
      'items',
      'leagues',
      'eventDate',
      'depthchart',
      'athlete',
      'awards',
      'teamHistory',
      'stats',
      'categories',
    ),
    fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null)),
  ),
);

describe('parsers never throw on arbitrary JSON', () => {
  it('parseOperation, both flavours, every operation', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPERATION_NAMES),
        fc.jsonValue({ maxDepth: 4 }),
        fc.boolean(),
        (op, raw, rows) => {
          parseOperation(op, raw, { flavour: rows ? 'rows' : 'arrow' });
        },
      ),
      { numRuns: RUNS * 5 },
    );
  });

  it('the early parsers', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (raw) => {
        expect(Array.isArray(parsePlays(raw))).toBe(true);
        expect(Array.isArray(parseWinprobability(raw))).toBe(true);
        expect(Array.isArray(parseScoreboard(raw, 'womens'))).toBe(true);
      }),
      { numRuns: RUNS * 5 },
    );
  });

  function partsReplacedStillParse(base: Record<string, unknown>): void {
    const keys = Object.keys(base);
    fc.assert(
      fc.property(fc.subarray(keys, { minLength: 1 }), fc.jsonValue({ maxDepth: 3 }), (replace, value) => {
        const raw = { ...base };
        for (const k of replace) raw[k] = value;
        const tables = parseOperation('mens_summary', raw, { flavour: 'rows' }) as Record<string, Row[]>;
        expect(Object.keys(tables)).toEqual(SUMMARY_TABLE_NAMES);
      }),
      { numRuns: RUNS },
    );
  }

  it("the simulator's finished summary with random parts replaced still parses", () => {
    const generated = JSON.parse(JSON.stringify(generateFinishedSummary('mens', '900000001'))) as Record<
      string,
      unknown
    >;
    expect(Object.keys(generated)).toContain('plays');
    partsReplacedStillParse(generated);
  });

  itRecorded(!HAVE_FIXTURES)('a recorded summary with random parts replaced still parses', () => {
    const file = finishedSummaries()[0];
    partsReplacedStillParse(
      loadFixture<Record<string, unknown>>(`${file?.league}/${file?.file.split('/').pop()}`),
    );
  });
});

describe('empty or wrongly shaped payloads give empty tables with the right columns', () => {
  const fixed = OPERATION_NAMES.filter((op) => columnsFor(op) !== undefined);
  it('every single-table operation, both flavours', () => {
    fc.assert(
      fc.property(fc.constantFrom(...fixed), wrongShape, (op, raw) => {
        const rows = parseOperation(op, raw, { flavour: 'rows' }) as Row[];
        expect(rows).toEqual([]);
        const table = parseOperation(op, raw) as Table;
        expect(table.numRows).toBe(0);
        expect(table.schema.fields.map((f) => f.name)).toEqual(columnsFor(op));
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('every summary table', () => {
    fc.assert(
      fc.property(fc.constantFrom('mens_summary', 'womens_summary'), wrongShape, (op, raw) => {
        const tables = parseOperation(op, raw) as Record<string, Table>;
        const league = op.startsWith('mens') ? 'mens' : 'womens';
        for (const name of SUMMARY_TABLE_NAMES) {
          expect(tables[name]?.numRows).toBe(0);
          expect(tables[name]?.schema.fields.map((f) => f.name)).toEqual(
            tableColumns(SUMMARY_TABLES[name], league).map((c) => c.name),
          );
        }
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('every operation has declared columns: no operation is left out of the check above', () => {
    const single = OPERATION_NAMES.filter((op) => !op.endsWith('_summary'));
    expect(fixed).toEqual(single);
  });
});
