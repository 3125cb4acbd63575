import type { Reporter, TestModule } from 'vitest/node';
import { FIXTURES_HINT, NO_FIXTURES_REASON, SKIPPED_FOR_RECORDINGS } from './fixtures.js';

/**
 * One line at the end of a run for the tests skipped for want of recorded ESPN payloads (a
 * fresh clone has none): how many, where they were looked for and how to get them, instead of
 * the reason once per file. The tests mark such skips with `describeRecorded`/`itRecorded`.
 */
export default class SkipSummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let skipped = 0;
    for (const module of modules) {
      for (const test of module.children.allTests('skipped')) {
        if (test.meta().skippedFor === SKIPPED_FOR_RECORDINGS) skipped += 1;
      }
    }
    if (skipped === 0) return;
    process.stdout.write(`\n${skipped} tests skipped: ${NO_FIXTURES_REASON}; ${FIXTURES_HINT}\n`);
  }
}
