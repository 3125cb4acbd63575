import { TokenBucket, type BucketLimit, type Take } from '../core/token-bucket.js';

/**
 * Token buckets per viewer, created on first use and forgotten once full again (a full bucket is
 * what a new one would be), so memory follows the viewers active in the last few seconds, not every
 * address ever seen.
 */
export class ViewerBuckets {
  readonly #buckets = new Map<string, TokenBucket>();
  #sweptAt: number;

  constructor(
    private readonly now: () => number,
    // Sweeping costs a pass over the map; every 10 s bounds it to one pass per 10 s of traffic.
    private readonly sweepMs = 10_000,
  ) {
    this.#sweptAt = now();
  }

  /** Takes `cost` from the bucket of `key`, of limit `limit`. */
  take(key: string, limit: BucketLimit, cost = 1, maxWaitMs = 0): Take & { remaining: number } {
    const now = this.now();
    if (now - this.#sweptAt >= this.sweepMs) this.#sweep(now);
    let bucket = this.#buckets.get(key);
    if (!bucket || bucket.limit !== limit) {
      bucket = new TokenBucket(limit, now);
      this.#buckets.set(key, bucket);
    }
    const take = bucket.take(now, cost, maxWaitMs);
    return { ...take, remaining: Math.max(0, Math.floor(bucket.level(now))) };
  }

  #sweep(now: number): void {
    this.#sweptAt = now;
    for (const [key, bucket] of this.#buckets) if (bucket.full(now)) this.#buckets.delete(key);
  }
}

/** Open streams per address, for the per-address connection cap. */
export class AddressCounts {
  readonly #counts = new Map<string, number>();

  count(address: string): number {
    return this.#counts.get(address) ?? 0;
  }

  /** Counts one more stream of `address`; the returned function (idempotent) counts it gone. */
  open(address: string): () => void {
    this.#counts.set(address, this.count(address) + 1);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      const left = this.count(address) - 1;
      if (left > 0) this.#counts.set(address, left);
      else this.#counts.delete(address);
    };
  }
}

/**
 * The draft IETF rate-limit fields (draft-ietf-httpapi-ratelimit-headers): the policy as a quota of
 * `q` units a window of `w` seconds (a bucket of `burst` refilled in `burst / rate` seconds), and
 * what is left of it, `r`, with `t` the seconds until the bucket is full again.
 */
export function rateLimitHeaders(
  name: string,
  limit: BucketLimit,
  remaining: number,
): { 'ratelimit-policy': string; ratelimit: string } {
  const window = Math.max(1, Math.ceil(limit.burst / limit.rate));
  const untilFull = Math.max(0, Math.ceil((limit.burst - remaining) / limit.rate));
  return {
    'ratelimit-policy': `"${name}";q=${limit.burst};w=${window}`,
    ratelimit: `"${name}";r=${remaining};t=${untilFull}`,
  };
}
