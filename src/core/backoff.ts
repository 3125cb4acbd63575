/**
 * Delays between retries of something that failed: exponential backoff with "equal jitter". Each
 * delay is drawn from the upper half of its step, so a retry never fires at once, and the other
 * half spreads processes that failed together, which would otherwise hit a recovering Redis or
 * upstream at the same instant. The cap keeps recovery quick once the failure ends.
 */
export interface BackoffOptions {
  /** Delay scale of the first retry, in ms. */
  readonly baseMs: number;
  /** Upper bound of any computed delay, in ms. */
  readonly maxMs: number;
  /** Source of randomness in [0, 1); injectable for tests. */
  readonly random?: () => number;
}

/**
 * Delay before retry number `attempt` (0 for the first retry): a uniform draw in
 * [base·2^attempt / 2, base·2^attempt], capped.
 */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const random = options.random ?? Math.random;
  // The exponent stops at 30: past it the cap has long applied, and 2^attempt would overflow.
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** A retry schedule that remembers how many failures in a row it has seen. */
export class Backoff {
  private failures = 0;

  constructor(private readonly options: BackoffOptions) {}

  /** The delay to wait after one more failure. */
  next(): number {
    this.failures += 1;
    return backoffDelay(this.failures - 1, this.options);
  }

  /** A success: the next failure starts again from `baseMs`. */
  reset(): void {
    this.failures = 0;
  }

  get attempts(): number {
    return this.failures;
  }
}
