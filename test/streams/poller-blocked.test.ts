import { describe, expect, it } from 'vitest';
import { UpstreamBlockedError, UpstreamHttpError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/log.js';
import { createPollerBook, newStatus } from '../../streams/poller-status.js';

/** A blocked agent stays blocked: the pollers wait their longest backoff at once, not hammering the edge. */
describe('poller backoff on a blocked User-Agent', () => {
  it('waits the longest backoff from the first block, where other errors start from the base', () => {
    const book = createPollerBook({
      logger: silentLogger,
      now: () => 0,
      random: () => 0.5,
      backoffMaxMs: 60_000,
    });
    const blocked = newStatus('scoreboard', 'mens', null, 30_000);
    const block = new UpstreamBlockedError('http://upstream/x', 'MyApp/1.0', '"Name/version (+https://...)"');
    expect(book.failed(blocked, block, 3_000)).toBe(60_000);
    expect(blocked.lastError?.code).toBe('UPSTREAM_BLOCKED');
    expect(book.failed(blocked, block, 3_000)).toBe(60_000);

    const other = newStatus('scoreboard', 'mens', null, 30_000);
    expect(book.failed(other, new UpstreamHttpError(503, 'http://upstream/x'), 3_000)).toBeLessThan(60_000);
  });
});
