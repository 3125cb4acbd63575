/**
 * Delays between retries of something that failed: doubling from `baseMs` up to `capMs`, each
 * drawn at random from the upper half of its step. The cap keeps recovery quick once the failure
 * ends; the jitter keeps many processes that failed together from retrying in lockstep, which
 * would hit a recovering Redis (or upstream) all at the same instant.
 */
export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  /** A number in [0, 1); `Math.random` unless a test fixes it. */
  random?: () => number;
}

/** The delay before retry number `attempt` (1 = the first retry). */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const random = options.random ?? Math.random;
  const step = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  return Math.round(step / 2 + (step / 2) * random());
}

/** A retry schedule that remembers how many failures in a row it has seen. */
export class Backoff {
  private failures = 0;

  constructor(private readonly options: BackoffOptions) {}

  /** The delay to wait after one more failure. */
  next(): number {
    this.failures += 1;
    return backoffDelay(this.failures, this.options);
  }

  /** A success: the next failure starts again from `baseMs`. */
  reset(): void {
    this.failures = 0;
  }

  get attempts(): number {
    return this.failures;
  }
}
