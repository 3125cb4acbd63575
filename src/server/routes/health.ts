import type { InstanceRole } from '../../core/role.js';
import { VERSION } from '../../core/version.js';
import { sendError, sendJson, type RouteHandler } from '../http-types.js';
import { isRead } from './respond.js';
import type { UpstreamCheck } from './upstream-tracker.js';

/**
 * `GET /healthz`: 200 when the upstream is reachable and does not block this process's User-Agent,
 * and Redis (when configured) answers a ping; 503 otherwise. The JSON body says which part failed
 * (`upstream.blocked` names the agent and the accepted form) and what each poller is doing.
 * A gateway never polls, so only Redis (where its events come from) decides its health: an ESPN
 * outage must not make a load balancer drop every gateway at once.
 */
export interface HealthRouteOptions {
  upstream: { check(options?: { probe?: boolean }): Promise<UpstreamCheck> };
  /** Resolves with the round trip in ms; rejects when Redis does not answer. Absent: no Redis. */
  redisPing?: () => Promise<number>;
  /** The engine's poller states, reported as they are. */
  pollers?: () => readonly unknown[];
  /** The live lane of upstream requests, and the interval its polls keep. Absent: not reported. */
  liveLane?: { stats(): LiveLaneStats; intervalMs: number };
  now?: () => number;
  /** The instance's role, reported in the body; `gateway` ignores the upstream for the status. */
  role?: InstanceRole;
}

/** What the health route needs of the client's live lane. */
export interface LiveLaneStats {
  readonly slots: number;
  readonly inFlight: number;
  readonly waiting: number;
  readonly longestWait: { readonly ms: number } | null;
}

export interface LiveLaneHealth {
  slots: number;
  inFlight: number;
  waiting: number;
  /** The longest a live request waited for a slot in the last minute. */
  longestWaitMs: number;
  intervalMs: number;
  /** True when that wait was longer than the polls' interval: a poll came late because of it. */
  late: boolean;
}

export interface HealthBody {
  status: 'ok' | 'unhealthy';
  role?: InstanceRole;
  version: string;
  uptimeSeconds: number;
  upstream: UpstreamCheck;
  redis: { configured: false } | { configured: true; ok: boolean; latencyMs?: number; error?: string };
  pollers: readonly unknown[];
  liveLane?: LiveLaneHealth;
}

export function createHealthRoute(options: HealthRouteOptions): RouteHandler {
  const now = options.now ?? Date.now;
  const startedAt = now();
  return async (req, res, url) => {
    if (url.pathname !== '/healthz') return false;
    if (!isRead(req)) {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use GET', { headers: { allow: 'GET, HEAD' } });
      return true;
    }
    // A gateway's health does not depend on ESPN, so it does not ask ESPN either.
    const [upstream, redis] = await Promise.all([
      options.upstream.check({ probe: options.role !== 'gateway' }),
      checkRedis(options.redisPing),
    ]);
    let pollers: readonly unknown[] = [];
    try {
      pollers = options.pollers?.() ?? [];
    } catch {
      pollers = [];
    }
    // A blocked agent gets no data however often it asks: the instance is not doing its job.
    const upstreamOk = options.role === 'gateway' || (upstream.reachable && upstream.blocked === null);
    const healthy = upstreamOk && (!redis.configured || redis.ok);
    const body: HealthBody = {
      status: healthy ? 'ok' : 'unhealthy',
      ...(options.role ? { role: options.role } : {}),
      version: VERSION,
      uptimeSeconds: Math.round((now() - startedAt) / 1000),
      upstream,
      redis,
      pollers,
      ...(options.liveLane ? { liveLane: liveLaneHealth(options.liveLane) } : {}),
    };
    sendJson(res, healthy ? 200 : 503, body, { 'cache-control': 'no-store' });
    return true;
  };
}

async function checkRedis(ping: HealthRouteOptions['redisPing']): Promise<HealthBody['redis']> {
  if (!ping) return { configured: false };
  try {
    return { configured: true, ok: true, latencyMs: await ping() };
  } catch (err) {
    return { configured: true, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

function liveLaneHealth({ stats, intervalMs }: NonNullable<HealthRouteOptions['liveLane']>): LiveLaneHealth {
  const lane = stats();
  const longestWaitMs = Math.round(lane.longestWait?.ms ?? 0);
  return {
    slots: lane.slots,
    inFlight: lane.inFlight,
    waiting: lane.waiting,
    longestWaitMs,
    intervalMs,
    late: longestWaitMs > intervalMs,
  };
}
