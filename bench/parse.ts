/**
 * Parsing benchmark: one recorded summary (already JSON-parsed) into all 14 tables, in both
 * flavours, against `parse_summary` of the sportsdataverse npm package (3.0.0) in the same run.
 * Prints one JSON line. Usage: `npm run bench:parse [-- <summary.json>]`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse_summary } from 'sportsdataverse/parsers';
import type { Table } from 'apache-arrow';
import { parseOperation, type Row } from '../src/tables/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = resolve(process.env.COURTSIDE_FIXTURES ?? join(root, '..', 'shared', 'fixtures', 'espn'));
const file = process.argv[2] ?? join(fixtures, 'mens', 'summary__401585607_final.json');
const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));

// Why these budgets: long enough to smooth JIT and GC noise, short enough for a shared 2-core machine.
const WARMUP_MS = 1000;
const MEASURE_MS = 9000;
// Why interleave: on a shared machine the load changes from second to second; timing the three
// parsers in alternating short slices exposes them to the same load, so the ratio stays fair.
const SLICE_MS = 50;

interface Timing {
  ms: number;
  /** CPU time of this process per call: the same ratio, less moved by other processes' load. */
  cpuMs: number;
  iterations: number;
}

function measureInterleaved(fns: readonly (() => unknown)[]): Timing[] {
  const totals = fns.map(() => ({ time: 0, cpu: 0, iterations: 0 }));
  const slice = (i: number, budget: number): void => {
    const fn = fns[i] as () => unknown;
    const total = totals[i] as { time: number; cpu: number; iterations: number };
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    let now = start;
    while (now - start < budget) {
      fn();
      total.iterations++;
      now = performance.now();
    }
    total.time += now - start;
    const cpu = process.cpuUsage(cpuStart);
    total.cpu += (cpu.user + cpu.system) / 1000;
  };
  const warmEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmEnd) for (let i = 0; i < fns.length; i++) slice(i, SLICE_MS / 5);
  for (const t of totals) Object.assign(t, { time: 0, cpu: 0, iterations: 0 });
  const end = performance.now() + MEASURE_MS;
  while (performance.now() < end) for (let i = 0; i < fns.length; i++) slice(i, SLICE_MS);
  return totals.map((t) => ({
    ms: t.time / t.iterations,
    cpuMs: t.cpu / t.iterations,
    iterations: t.iterations,
  }));
}

const rowsResult = parseOperation('mens_summary', raw, { flavour: 'rows' }) as Record<string, Row[]>;
const arrowResult = parseOperation('mens_summary', raw) as Record<string, Table>;
const sdvResult = parse_summary(raw) as Record<string, unknown[]>;
const rows = Object.values(rowsResult).reduce((n, t) => n + t.length, 0);
const arrowRows = Object.values(arrowResult).reduce((n, t) => n + t.numRows, 0);
const sdvRows = Object.values(sdvResult).reduce((n, t) => n + (Array.isArray(t) ? t.length : 0), 0);

const [sdv, rowsFlavour, arrowFlavour] = measureInterleaved([
  () => parse_summary(raw),
  () => parseOperation('mens_summary', raw, { flavour: 'rows' }),
  () => parseOperation('mens_summary', raw),
]) as [Timing, Timing, Timing];

const round = (n: number, digits = 3): number => Number(n.toFixed(digits));
console.log(
  JSON.stringify({
    bench: 'parse',
    summary: file.split('/').slice(-2).join('/'),
    tables: Object.keys(rowsResult).length,
    rows,
    arrow_rows: arrowRows,
    sportsdataverse_rows: sdvRows,
    rows_ms: round(rowsFlavour.ms),
    arrow_ms: round(arrowFlavour.ms),
    sportsdataverse_ms: round(sdv.ms),
    ratio_rows: round(sdv.ms / rowsFlavour.ms, 1),
    ratio_arrow: round(sdv.ms / arrowFlavour.ms, 1),
    cpu_ratio_rows: round(sdv.cpuMs / rowsFlavour.cpuMs, 1),
    cpu_ratio_arrow: round(sdv.cpuMs / arrowFlavour.cpuMs, 1),
    iterations: {
      rows: rowsFlavour.iterations,
      arrow: arrowFlavour.iterations,
      sportsdataverse: sdv.iterations,
    },
    node: process.version,
  }),
);
