import { CourtsideError, UpstreamBlockedError, UpstreamHttpError } from '../../core/errors.js';
import type { OpsClient } from './ops.js';

/**
 * Upstream reachability for `/healthz`: every call through the wrapped client records its
 * outcome, so health usually needs no request of its own; only when nothing has succeeded for a
 * while does it send one cheap probe (a GET of the upstream's root, any HTTP answer counts).
 *
 * Separately, the calls of the client wrapped with `{ health: true }` (the engine's polls) give
 * `health()`: whether the live data is current, which `/v1/games/live` and the home page show.
 * Only the polls count there: a caller's bad `/v1/ops` request (an upstream 404) says nothing
 * about the live games.
 */
export interface UpstreamCheck {
  url: string;
  reachable: boolean;
  lastSuccessAt: string | null;
  lastError: { at: string; code: string; message: string } | null;
  probe: { at: string; ok: boolean; status?: number; error?: string } | null;
  /**
   * Set while the upstream's edge blocks this process's User-Agent (a 403 with a non-JSON body):
   * since when, the agent sent and the message naming the accepted form. Cleared by a success.
   */
  blocked: { since: string; userAgent: string; message: string } | null;
}

/** What the polls say of the upstream, without a request of its own. */
export interface UpstreamHealth {
  /** True when the last poll got an answer, false when it failed, null before any poll ended. */
  ok: boolean | null;
  /** When `ok` took its current value (ISO time); null before any poll ended. */
  since: string | null;
  /** The latest failed poll (kept after a recovery); null when none failed. */
  lastError: { at: string; code: string; message: string } | null;
}

export interface UpstreamTracker {
  /** The upstream's base URL. */
  readonly url: string;
  /**
   * A client whose calls are recorded (only `call`: what the engine and the routes use). With
   * `health: true` its calls also decide `health()`.
   */
  wrap<C extends OpsClient>(client: C, options?: { health?: boolean }): Pick<C, 'call'>;
  /** `probe: false`: what the polls said, never a request of its own (a gateway polls nothing). */
  check(options?: { probe?: boolean }): Promise<UpstreamCheck>;
  health(): UpstreamHealth;
}

export interface UpstreamTrackerOptions {
  upstream: string;
  /** A success younger than this needs no probe. */
  freshMs?: number;
  probeTimeoutMs?: number;
  /** A probe result is reused this long, so a health check per second sends few requests. */
  probeCacheMs?: number;
  now?: () => number;
  /** Called when `health().ok` changes, the first outcome included, with the error of a failure. */
  onHealthChange?: (health: UpstreamHealth, error?: unknown) => void;
}

// The slowest scoreboard cadence is 5 minutes; twice that means the pollers have really stopped succeeding.
const DEFAULT_FRESH_MS = 10 * 60_000;
// A health check must answer fast for load balancers; an upstream slower than this counts as down.
const DEFAULT_PROBE_TIMEOUT_MS = 2_000;
// Load balancers poll health every few seconds; probing upstream at most every 10 s stays polite.
const DEFAULT_PROBE_CACHE_MS = 10_000;

export function createUpstreamTracker(options: UpstreamTrackerOptions): UpstreamTracker {
  const now = options.now ?? Date.now;
  const freshMs = options.freshMs ?? DEFAULT_FRESH_MS;
  const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const probeCacheMs = options.probeCacheMs ?? DEFAULT_PROBE_CACHE_MS;
  let lastSuccess: number | undefined;
  let lastError: UpstreamCheck['lastError'] = null;
  let lastProbe: { at: number; result: NonNullable<UpstreamCheck['probe']> } | undefined;
  let probing: Promise<NonNullable<UpstreamCheck['probe']>> | undefined;
  let health: UpstreamHealth = { ok: null, since: null, lastError: null };
  let blocked: UpstreamCheck['blocked'] = null;

  const iso = (): string => new Date(now()).toISOString();
  const setHealth = (ok: boolean, error?: unknown): void => {
    const changed = health.ok !== ok;
    health = {
      ok,
      since: changed ? iso() : health.since,
      lastError:
        error instanceof CourtsideError
          ? { at: iso(), code: error.code, message: error.message }
          : health.lastError,
    };
    if (!changed) return;
    try {
      options.onHealthChange?.(health, error);
    } catch {
      // A listener's failure must not fail the poll that reported the change.
    }
  };

  const record = (err: unknown): void => {
    if (err instanceof UpstreamBlockedError) {
      blocked = {
        since: blocked?.since ?? new Date(now()).toISOString(),
        userAgent: err.userAgent,
        message: err.message,
      };
    }
    if (err instanceof UpstreamHttpError) {
      // The upstream answered: it is reachable even if it refused this request.
      lastSuccess = now();
    }
    if (err instanceof CourtsideError && err.code.startsWith('UPSTREAM')) {
      lastError = { at: new Date(now()).toISOString(), code: err.code, message: err.message };
    }
  };

  async function probe(): Promise<NonNullable<UpstreamCheck['probe']>> {
    const at = new Date(now()).toISOString();
    try {
      const response = await fetch(`${options.upstream}/`, {
        method: 'GET',
        signal: AbortSignal.timeout(probeTimeoutMs),
        headers: { accept: 'application/json' },
      });
      await response.body?.cancel().catch(() => undefined);
      return { at, ok: true, status: response.status };
    } catch (err) {
      // fetch says only "fetch failed"; the cause names the real problem (ECONNREFUSED, DNS, timeout).
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
      return { at, ok: false, error: cause instanceof Error ? cause.message : String(cause) };
    }
  }

  return {
    url: options.upstream,
    wrap<C extends OpsClient>(client: C, wrapOptions: { health?: boolean } = {}): Pick<C, 'call'> {
      const call: OpsClient['call'] = async (operation, params, callOptions) => {
        try {
          const result = await client.call(operation, params, callOptions);
          lastSuccess = now();
          blocked = null;
          if (wrapOptions.health) setHealth(true);
          return result;
        } catch (err) {
          record(err);
          // A call abandoned on purpose (shutdown) says nothing about the upstream.
          const upstreamFault = err instanceof CourtsideError && err.code.startsWith('UPSTREAM');
          if (wrapOptions.health && upstreamFault && callOptions?.signal?.aborted !== true)
            setHealth(false, err);
          throw err;
        }
      };
      // A new object, not a proxy: the client is frozen, and callers only need `call`.
      return { call: call as C['call'] };
    },
    async check({ probe: mayProbe = true } = {}) {
      const fresh = lastSuccess !== undefined && now() - lastSuccess < freshMs;
      let probeResult: UpstreamCheck['probe'] = null;
      if (!fresh && mayProbe) {
        if (lastProbe && now() - lastProbe.at < probeCacheMs) {
          probeResult = lastProbe.result;
        } else {
          probing ??= probe().finally(() => (probing = undefined));
          const result = await probing;
          lastProbe = { at: now(), result };
          probeResult = result;
        }
      }
      return {
        url: options.upstream,
        reachable: fresh || probeResult?.ok === true,
        lastSuccessAt: lastSuccess === undefined ? null : new Date(lastSuccess).toISOString(),
        lastError,
        probe: probeResult,
        blocked,
      };
    },
    health() {
      return { ...health };
    },
  };
}
