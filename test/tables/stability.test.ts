import type { Table } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/espn/operations.js';
import { columnsFor, parseOperation } from '../../src/tables/index.js';
import { SUMMARY_TABLE_NAMES } from '../../src/tables/schema.js';
import { HAVE_FIXTURES, listFixtures, describeRecorded } from '../support/fixtures.js';
import { fixturesOf } from './helpers.js';
import { createRandom } from '../../src/simulator/random.js';

/** The Arrow schema of every table of an operation's result: `table: [[name, Type], ...]`. */
function schemasOf(operation: string, raw: unknown): Record<string, [string, string][]> {
  const result = parseOperation(operation, raw);
  const tables: Record<string, Table> = operation.endsWith('_summary')
    ? (result as Record<string, Table>)
    : { '': result as Table };
  return Object.fromEntries(
    Object.entries(tables).map(([name, t]) => [
      name,
      t.schema.fields.map((f): [string, string] => [f.name, String(f.type)]),
    ]),
  );
}

/** Recorded payloads by operation (both leagues where both are recorded). */
function recordedByOperation(): Map<string, { name: string; raw: unknown }[]> {
  const out = new Map<string, { name: string; raw: unknown }[]>();
  for (const suffix of new Set(listFixtures().map((f) => f.suffix))) {
    for (const { fixture, name, raw } of fixturesOf(suffix)) {
      const op = `${fixture.league}_${suffix}`;
      out.set(op, [...(out.get(op) ?? []), { name, raw }]);
    }
  }
  return out;
}

/** A copy of `value` with each object key, at any depth, dropped with `drop`, or set to null with `nulls`. */
function thin(value: unknown, random: () => number, drop: number, nulls: number): unknown {
  if (Array.isArray(value)) return value.map((v) => thin(v, random, drop, nulls));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const r = random();
    if (r < drop) continue;
    out[key] = r < drop + nulls ? null : thin(v, random, drop, nulls);
  }
  return out;
}

describe('every operation has a declared table', () => {
  it('columnsFor names the columns of every operation (summary: of each of its 14 tables)', () => {
    expect(OPERATION_NAMES.length).toBeGreaterThan(44);
    for (const op of OPERATION_NAMES) {
      if (op.endsWith('_summary')) {
        for (const t of SUMMARY_TABLE_NAMES)
          expect(columnsFor(op, t)?.length, `${op} ${t}`).toBeGreaterThan(0);
      } else expect(columnsFor(op)?.length, op).toBeGreaterThan(0);
    }
  });
});

describeRecorded(!HAVE_FIXTURES)('Arrow schemas do not depend on the payload', () => {
  const recorded = recordedByOperation();

  for (const [op, payloads] of recorded) {
    it(`${op}: every recorded payload (${payloads.length}) gives the same schema, the declared one`, () => {
      const [first, ...rest] = payloads.map((p) => ({ name: p.name, schemas: schemasOf(op, p.raw) }));
      for (const other of rest)
        expect(other.schemas, `${other.name} against ${first?.name}`).toEqual(first?.schemas);
      for (const [table, fields] of Object.entries(first?.schemas ?? {})) {
        expect(
          fields.map(([name]) => name),
          `${op} ${table}`,
        ).toEqual(columnsFor(op, table === '' ? undefined : table));
      }
    });
  }

  // Why few runs per payload: each run parses a whole recorded payload (up to 1 MB) into Arrow.
  const RUNS = 12;
  for (const [op, payloads] of recorded) {
    for (const { name, raw } of payloads) {
      it(`${name}: random subsets of keys and nulls, at any depth, never change the schema`, () => {
        const expected = schemasOf(op, raw);
        fc.assert(
          fc.property(
            fc.integer(),
            fc.double({ min: 0, max: 0.6, noNaN: true }),
            fc.double({ min: 0, max: 0.4, noNaN: true }),
            (seed, drop, nulls) => {
              expect(schemasOf(op, thin(raw, createRandom(seed), drop, nulls))).toEqual(expected);
            },
          ),
          { numRuns: RUNS },
        );
      });
    }
  }
});
