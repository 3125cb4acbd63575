import { backoffDelay, type BackoffOptions } from '../core/backoff.js';
import type { Logger } from '../core/log.js';
import type { Attempt, FetchedDocument, Target } from './http-exchange.js';
import { sleep } from './http-wait.js';

/**
 * Retries of one upstream request: a retryable failure is sent again after its `Retry-After` or a
 * jittered backoff, until the retries are spent, the wait would be too long, or the client closes.
 * undici's RetryAgent was considered: it honours Retry-After but has no jitter and surfaces its own
 * `RequestRetryError`, so the loop is ours.
 */

export interface RetryOptions {
  readonly retries: number;
  /** A `Retry-After` longer than this ends the retries instead of stalling the caller. */
  readonly maxRetryAfterMs: number;
  readonly backoff: BackoffOptions;
  readonly logger: Logger;
  readonly closing: AbortSignal;
}

export async function withRetries(
  target: Target,
  attempt: () => Promise<Attempt>,
  options: RetryOptions,
): Promise<FetchedDocument> {
  for (let n = 0; ; n++) {
    const result = await attempt();
    if (result.ok) return { body: result.body, bytes: result.bytes };
    const delay = result.retryAfterMs ?? backoffDelay(n, options.backoff);
    const giveUp = !result.retry || n >= options.retries || delay > options.maxRetryAfterMs;
    if (giveUp || options.closing.aborted) throw result.error;
    options.logger.debug(
      { operation: target.name, code: result.error.code, attempt: n + 1, delay },
      'upstream retry',
    );
    await sleep(delay, options.closing);
  }
}
