import { expect } from 'vitest';
import type { SoakResult } from './soak.js';

/**
 * The end-of-run assertions, shared by the short and the long soak. `maxRssGrowth` is the
 * issue's 10% for a run long enough to judge it (see soak.test.ts for the short one).
 */
export function assertSoak(r: SoakResult, expectedErrorMsgs: RegExp[] = [], maxRssGrowth = 0.1): void {
  console.log(
    `[soak] ${JSON.stringify({ ...r, errorLines: r.errorLines.length, rssGrowth: r.rssGrowth.map((g) => g.toFixed(3)) })}`,
  );
  expect(r.failures).toEqual([]);
  expect(r.logEvents).toBeGreaterThan(0);
  expect(r.lost).toBe(0);
  expect(r.duplicates).toBe(0);
  expect(r.extra).toBe(0);
  expect(r.alertDuplicates).toBe(0);
  expect(r.badSignatures).toBe(0);
  for (const g of r.rssGrowth) expect(g).toBeLessThan(maxRssGrowth);
  const unexpected = r.errorLines.filter((l) => !expectedErrorMsgs.some((re) => re.test(String(l.msg))));
  expect(unexpected).toEqual([]);
}
