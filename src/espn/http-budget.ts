import { OnDemandBudgetError } from '../core/errors.js';
import { onDemandUpstreamRequests } from '../core/metrics.js';
import { TokenBucket, type BucketLimit } from '../core/token-bucket.js';
import { sleep } from './http-wait.js';

/** The on-demand lane's budget: requests a second it may send upstream, retries included. */

export interface BudgetStats {
  readonly rate: number;
  readonly burst: number;
  /** Tokens left now; negative while requests wait on credit. */
  readonly tokens: number;
}

export interface OnDemandBudget {
  /** Spends one token, waiting for it when that is short enough; else `OnDemandBudgetError`. */
  spend(url: string): Promise<void>;
  stats(): BudgetStats;
}

export function createOnDemandBudget(
  limit: BucketLimit,
  maxWaitMs: number,
  closing: AbortSignal,
): OnDemandBudget {
  // The budget paces real requests, so it runs on the wall clock whatever clock the cache is given.
  const bucket = new TokenBucket(limit, Date.now());
  return {
    async spend(url) {
      const grant = bucket.take(Date.now(), 1, maxWaitMs);
      if (!grant.ok) throw new OnDemandBudgetError(url, grant.retryAfterMs, limit.rate);
      if (grant.waitMs > 0) await sleep(grant.waitMs, closing);
      onDemandUpstreamRequests.inc();
    },
    stats: () => ({ ...limit, tokens: Math.round(bucket.level(Date.now()) * 100) / 100 }),
  };
}
