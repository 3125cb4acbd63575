import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Subscription } from 'rxjs';
import type { Engine } from '../../streams/engine.js';
import { createEngine } from '../../streams/engine.js';
import { createEventProducer } from '../../workers/producer.js';
import { createBus } from '../bus/index.js';
import { createProbes, type Probes } from './health-probes.js';
import type { Bus } from '../bus/types.js';
import { describeConfig, type Config } from './config.js';
import type { PushConfig } from './push-config.js';
import { createFastcastClient } from '../espn/fastcast-client.js';
import { createFastcastGames } from '../espn/fastcast-games.js';
import { fastcastClientOptions } from './fastcast-options.js';
import type { EnginePush, PollerStatus, PushFeedStatus } from '../../streams/engine-types.js';
import { DEFAULT_LEAGUES } from '../core/leagues.js';
import { createEspnClient, type EspnClient } from '../espn-client/client.js';
import { silentLogger, type Logger } from '../core/log.js';
import { eventLogCapped, instanceRole } from '../core/metrics.js';
import { polls, servesViewers } from '../core/role.js';
import {
  createApiRoutes,
  createHealthRoute,
  createMetricsRoute,
  createUpstreamTracker,
  describeUpstreamFailure,
  OFFLINE_HINT,
  type UpstreamHealth,
  type UpstreamTracker,
} from '../server/routes/index.js';
import type { RouteHandler } from '../server/http-types.js';
import { createDaemonServer, type DaemonServer } from '../server/server.js';
import { createFirstPaint } from '../server/overlay-first-paint.js';
import { createProbeServer } from '../server/probe-server.js';
import { overlayRoute } from '../server/overlay-page.js';
import { clientScriptRoute } from '../server/live-client-script.js';
import { alertMomentRules } from './moment-rules.js';
import type { RuleSettings } from '../../workers/rules-file.js';

/**
 * The daemon: one client, one bus, one engine, the job producer (with Redis), and one HTTP
 * server carrying the WebSocket gateway, SSE and the HTTP API. `close()` takes it down in the
 * order that loses nothing: pollers stop, queued jobs and the log are flushed, viewers are told
 * (1001 "going away"), leases are released, connections closed.
 */
export interface Daemon {
  /** `http://127.0.0.1:PORT` once started. */
  readonly url: string;
  readonly engine: Engine;
  readonly bus: Bus;
  readonly server: DaemonServer;
  readonly client: EspnClient;
  readonly instanceId: string;
  start(): Promise<void>;
  /** Idempotent; resolves within `closeTimeoutMs` whatever a component does. */
  close(): Promise<void>;
}

export interface DaemonOptions {
  logger?: Logger;
  /** Extra routes tried after the HTTP API's and the overlay page's. */
  routes?: RouteHandler[];
  /** Client overrides (tests shorten timeouts and retries). */
  client?: { timeoutMs?: number; retries?: number; cache?: boolean };
  instanceId?: string;
  closeTimeoutMs?: number;
  /** The lower thirds' rule settings when a page names none (default: every rule, its defaults). */
  momentRules?: RuleSettings;
  /**
   * Live games over FastCast, with the summary poll as reconciliation and safety net; absent or
   * null: polling only. `courtside serve` turns it on unless COURTSIDE_PUSH=off (push-config.ts).
   */
  push?: PushConfig | null;
  /** What push does, as said at start-up (push-plan.ts): shown on the home page. */
  pushNotice?: string;
}

// SIGTERM must end the process within 5 s (orchestrators kill after that); 4.5 s leaves room to exit.
const DEFAULT_CLOSE_TIMEOUT_MS = 4_500;

export function createDaemon(config: Config, options: DaemonOptions = {}): Daemon {
  const logger = options.logger ?? silentLogger;
  const instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;

  const upstream = createUpstream(config, options, logger);
  const { client } = upstream;
  const bus = createDaemonBus(config, logger);

  const engine = createEngine({
    client: upstream.pollingClient,
    leagues: config.leagues,
    bus,
    instanceId,
    intervals: { summaryMs: config.summaryIntervalMs },
    liveBudget: config.liveBudget,
    // The server is made below, and asked only once games are polled.
    watched: (_league, gameId) => server.watches?.(gameId) ?? false,
    finishedGameTtlMs: config.finishedGameTtlS * 1_000,
    previousDayUntil: config.previousDayUntil,
    ...(options.push ? { push: enginePush(options.push, client, logger) } : {}),
    // The engine names itself in its logs (component: engine).
    logger,
  });

  // A gateway's engine is never started: it only reads game state from the shared log for snapshots.
  const polling = polls(config.role);
  instanceRole.reset();
  instanceRole.set({ role: config.role }, 1);

  const producer =
    config.redisUrl && polling
      ? createEventProducer({
          redisUrl: config.redisUrl,
          prefix: config.prefix,
          logger: logger.child({ component: 'producer' }),
        })
      : undefined;

  const probes = createProbes(config, { bus, engine, client, tracker: upstream.tracker }, logger);
  const server = createHttpServer(config, options, { bus, engine, upstream, probes }, logger);

  let events: Subscription | undefined;
  let closing: Promise<void> | undefined;
  let started = false;

  async function start(): Promise<void> {
    if (started) return;
    started = true;
    logger.info({ config: describeConfig(config), instanceId }, 'starting courtside');
    await server.start();
    events = engine.events$.subscribe({
      next: (event) => {
        logger.debug({ event }, `${event.league} ${event.gameId} ${event.type}`);
        producer?.add(event);
      },
      // The engine's stream should not fail; if it does, say so rather than die.
      error: (err: unknown) => logger.error({ err }, 'engine event stream failed'),
    });
    if (polling) engine.start();
  }

  async function shutdown(): Promise<void> {
    const step = async (name: string, work: () => Promise<void> | void): Promise<void> => {
      try {
        await work();
      } catch (err) {
        logger.warn({ err, step: name }, 'shutdown step failed');
      }
    };
    // Pollers first (the engine releases its leases as it stops them), so nothing new arrives.
    await step('engine', () => engine.close());
    events?.unsubscribe();
    await step('producer', () => producer?.close());
    // Viewers get 1001 after the last events were fanned out.
    await step('server', () => server.close());
    await step('bus', () => bus.close());
    await step('client', () => client.close());
    await step('redis ping', () => probes.pinger?.close());
    await step('queue depth', () => probes.depth?.close());
  }

  return {
    get url() {
      return server.url;
    },
    engine,
    bus,
    server,
    client,
    instanceId,
    start,
    close() {
      closing ??= closeWithin(closeTimeoutMs, shutdown, logger);
      return closing;
    },
  };
}

/** The ESPN client, and the tracker that watches its calls for the upstream's health. */
interface Upstream {
  client: EspnClient;
  tracker: UpstreamTracker;
  /** The engine's polls: they decide the upstream health that /v1/games/live and / show. */
  pollingClient: Pick<EspnClient, 'call'>;
  /** The routes' calls: they count for reachability only. */
  trackedClient: Pick<EspnClient, 'call'>;
}

function createUpstream(config: Config, options: DaemonOptions, logger: Logger): Upstream {
  const client = createEspnClient({
    upstream: config.upstream,
    ...(config.userAgent !== undefined
      ? { userAgent: config.userAgent, forceUserAgent: config.forceUserAgent }
      : {}),
    onDemandRate: config.onDemandRate,
    onDemandBurst: config.onDemandBurst,
    logger: logger.child({ component: 'client' }),
    ...options.client,
  });
  const tracker = createUpstreamTracker({
    upstream: config.upstream,
    onHealthChange: firstOutcomeNotice(config.upstream, logger),
  });
  return {
    client,
    tracker,
    pollingClient: tracker.wrap(client, { health: true }),
    trackedClient: tracker.wrap(client),
  };
}

function createDaemonBus(config: Config, logger: Logger): Bus {
  return createBus({
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    prefix: config.prefix,
    // The log is one stream for every league, so it keeps the per-league figure for each league
    // polled, and never less than for the two default ones (other instances may poll those).
    retention: config.retention * Math.max(config.leagues.length, DEFAULT_LEAGUES.length),
    retentionMs: config.retentionHours * 3_600_000,
    onCapped: (events) => eventLogCapped.inc(events),
    logger: logger.child({ component: 'bus' }),
    waitReplicas: config.waitReplicas,
  });
}

/**
 * The HTTP side: for an instance that serves viewers, the server with the streams, the HTTP API,
 * the overlay pages and the client library; for a poller, health and metrics only.
 */
function createHttpServer(
  config: Config,
  options: DaemonOptions,
  parts: { bus: Bus; engine: Engine; upstream: Upstream; probes: Probes },
  logger: Logger,
): DaemonServer {
  const { bus, engine, upstream, probes } = parts;
  if (!servesViewers(config.role))
    return createProbeServer({
      port: config.port,
      host: config.host,
      routes: [
        createHealthRoute(probes.health),
        createMetricsRoute({ beforeScrape: probes.beforeMetricsScrape }),
        ...(options.routes ?? []),
      ],
      tokens: config.tokens,
      logger: logger.child({ component: 'server' }),
    });
  return createDaemonServer({
    port: config.port,
    host: config.host,
    bus,
    snapshots: engine.snapshots,
    routes: [
      ...createApiRoutes({
        client: upstream.trackedClient,
        snapshots: engine.snapshots,
        health: probes.health,
        upstream: upstream.tracker,
        feeds: () => feedsOf(engine.status()),
        auth: config.tokens.length > 0,
        logger: logger.child({ component: 'http' }),
        beforeMetricsScrape: probes.beforeMetricsScrape,
        role: config.role,
        ...(options.pushNotice !== undefined ? { pushNotice: options.pushNotice } : {}),
      }),
      overlayRoute({
        moments: { rules: alertMomentRules(options.momentRules), bus },
        firstPaint: createFirstPaint(engine.snapshots, bus),
      }),
      clientScriptRoute(),
      ...(options.routes ?? []),
    ],
    tokens: config.tokens,
    origins: config.origins,
    viewerLimits: {
      rateLimit: config.rateLimit,
      tokenRateLimits: config.tokenRateLimits,
      trustedProxies: config.trustedProxies,
      streamConnectionsPerAddress: config.streamConnectionsPerAddress,
      subscribeRateLimit: config.subscribeRateLimit,
    },
    logger: logger.child({ component: 'server' }),
  });
}

/** Runs `shutdown`, resolving when it ends or after `timeoutMs`, whichever comes first. */
function closeWithin(timeoutMs: number, shutdown: () => Promise<void>, logger: Logger): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      logger.warn({ timeoutMs }, 'shutdown did not finish in time; giving up on the rest');
      resolve();
    }, timeoutMs);
    timer.unref();
    void shutdown().finally(() => {
      clearTimeout(timer);
      logger.info('courtside stopped');
      resolve();
    });
  });
}

/**
 * One line when the very first poll fails, naming what failed and how to run without the upstream:
 * a newcomer without network otherwise sees only the engine's per-poll warnings. Said once; a
 * failure after the upstream has answered is the per-poll warnings' to tell.
 */
function firstOutcomeNotice(
  upstream: string,
  logger: Logger,
): (health: UpstreamHealth, error?: unknown) => void {
  let told = false;
  return (health, error) => {
    if (told) return;
    told = true;
    if (health.ok !== false) return;
    logger.warn(
      { code: health.lastError?.code },
      `${describeUpstreamFailure(upstream, error)}. The pollers keep retrying; ${OFFLINE_HINT}`,
    );
  };
}

function enginePush(push: PushConfig, client: EspnClient, logger: Logger): EnginePush {
  return {
    reconcileMs: push.reconcileMs,
    connect: (listener) =>
      createFastcastGames(
        (topics) =>
          createFastcastClient(
            fastcastClientOptions(
              push,
              (request) => client.fetchDocument(request),
              logger.child({ component: 'fastcast' }),
            ),
            topics,
          ),
        listener,
      ),
  };
}

/** Each game's feed from the engine's statuses, by `league:gameId`. */
function feedsOf(statuses: readonly PollerStatus[]): Map<string, PushFeedStatus> {
  const out = new Map<string, PushFeedStatus>();
  for (const s of statuses) if (s.feed && s.gameId !== null) out.set(`${s.league}:${s.gameId}`, s.feed);
  return out;
}
