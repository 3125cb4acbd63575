/**
 * A token bucket: `rate` tokens a second flow in, up to `burst` held. Used for the upstream budget
 * of on-demand requests and for the per-client limits of the HTTP API and the streams.
 *
 * `take` either takes tokens now, or, when the bucket would be in debt for no longer than `maxWaitMs`,
 * takes them on credit and says how long to wait before acting (callers that queue a little rather
 * than refuse); otherwise it takes nothing and says when the tokens will be there. Debt is bounded by
 * `rate × maxWaitMs`, so what waits on credit is bounded too.
 */
export interface BucketLimit {
  /** Tokens per second. */
  readonly rate: number;
  /** Tokens held at most (a full bucket allows this many at once). */
  readonly burst: number;
}

export type Take =
  /** Granted; act after `waitMs` (0: now). */
  | { readonly ok: true; readonly waitMs: number }
  /** Refused; the tokens will be there in `retryAfterMs`. */
  | { readonly ok: false; readonly retryAfterMs: number };

export class TokenBucket {
  #tokens: number;
  #at: number;

  constructor(
    readonly limit: BucketLimit,
    now: number,
  ) {
    this.#tokens = limit.burst;
    this.#at = now;
  }

  /** Tokens held at `now` (negative while in debt). */
  level(now: number): number {
    this.#refill(now);
    return this.#tokens;
  }

  take(now: number, cost = 1, maxWaitMs = 0): Take {
    this.#refill(now);
    if (this.#tokens >= cost) {
      this.#tokens -= cost;
      return { ok: true, waitMs: 0 };
    }
    const waitMs = this.limit.rate > 0 ? ((cost - this.#tokens) / this.limit.rate) * 1000 : Infinity;
    if (waitMs <= maxWaitMs) {
      this.#tokens -= cost;
      return { ok: true, waitMs: Math.ceil(waitMs) };
    }
    return { ok: false, retryAfterMs: Number.isFinite(waitMs) ? Math.ceil(waitMs) : 60_000 };
  }

  /** True when the bucket is full at `now`: it holds nothing worth keeping. */
  full(now: number): boolean {
    return this.level(now) >= this.limit.burst;
  }

  #refill(now: number): void {
    const elapsed = Math.max(0, now - this.#at);
    this.#at = now;
    this.#tokens = Math.min(this.limit.burst, this.#tokens + (elapsed / 1000) * this.limit.rate);
  }
}

/**
 * A refusal's wait as whole seconds, for a `Retry-After` header and the message beside it: rounded
 * up, so that a client retrying then finds the tokens there, and never 0, which asks for a retry at once.
 */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}
