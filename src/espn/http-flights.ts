import { OnDemandBudgetError } from '../core/errors.js';
import { limitRefusals, upstreamCacheHits } from '../core/metrics.js';
import type { Lane } from './lane.js';
import type { BuiltRequest } from './operations.js';
import type { ResponseCache } from './response-cache.js';
import { waitFor } from './http-wait.js';

/**
 * What stands before an operation's exchange: its TTL cache, then an identical request already in
 * flight (single-flight), and, when the on-demand budget is spent, an expired cache entry.
 */

export interface GetOptions {
  /** Skip the TTL, still sending the held validators. */
  readonly fresh?: boolean;
  /** Stops this caller waiting; a request shared with other callers carries on. */
  readonly signal?: AbortSignal;
  /** Which lane sends the request; default `live`. */
  readonly lane?: Lane;
  /**
   * Told when an on-demand call is answered from an expired cache entry because the budget is
   * spent, with the entry's age in ms.
   */
  readonly onStale?: (ageMs: number) => void;
}

export interface FlightOptions {
  readonly cache: ResponseCache | undefined;
  readonly now: () => number;
  /** Sends the request upstream (with its retries), for the body. */
  readonly send: (request: BuiltRequest, lane: Lane) => Promise<unknown>;
}

export function createCachedGet(
  options: FlightOptions,
): (request: BuiltRequest, getOptions?: GetOptions) => Promise<unknown> {
  const { cache } = options;
  const flights = new Map<string, Promise<unknown>>();
  return async function get(request, getOptions = {}) {
    const key = request.pathAndQuery;
    const operation = request.operation.name;
    if (cache && !getOptions.fresh) {
      const hit = cache.fresh(key, request.operation.ttlMs, options.now());
      if (hit) {
        upstreamCacheHits.inc({ operation, kind: 'ttl' });
        return hit.body;
      }
    }
    const lane = getOptions.lane ?? 'live';
    // An on-demand caller may join a live request; a live one never waits on an on-demand one.
    const joinable = lane === 'live' ? [lane] : (['on-demand', 'live'] as const);
    let flight = joinable.map((l) => flights.get(`${l} ${key}`)).find((f) => f !== undefined);
    if (flight) {
      upstreamCacheHits.inc({ operation, kind: 'inflight' });
    } else {
      const flightKey = `${lane} ${key}`;
      flight = options.send(request, lane).finally(() => flights.delete(flightKey));
      // Every caller may have stopped waiting (signal); the outcome is then nobody's to handle.
      flight.catch(() => undefined);
      flights.set(flightKey, flight);
    }
    const answer = waitFor(flight, getOptions.signal);
    if (lane !== 'on-demand') return answer;
    return answer.catch((error: unknown) => {
      // Better an answer a little old than none: the budget protects the upstream, not the data.
      const held = error instanceof OnDemandBudgetError ? cache?.held(key) : undefined;
      if (!held) {
        if (error instanceof OnDemandBudgetError) limitRefusals.inc({ limit: 'on_demand_budget' });
        throw error;
      }
      upstreamCacheHits.inc({ operation, kind: 'stale' });
      getOptions.onStale?.(options.now() - held.storedAt);
      return held.body;
    });
  };
}
