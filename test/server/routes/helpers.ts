import type { GameSnapshot, SnapshotSource } from '../../../src/model/events.js';
import { createMemoryBus } from '../../../src/bus/memory.js';
import {
  createEspnClient,
  type EspnClientOptions,
  type EspnClient,
} from '../../../src/espn-client/client.js';
import type { League } from '../../../src/core/leagues.js';
import type { OperationSpec } from '../../../src/espn/operations.js';
import { silentLogger } from '../../../src/core/log.js';
import type { RouteHandler } from '../../../src/server/http-types.js';
import {
  createApiRoutes,
  createUpstreamTracker,
  type UpstreamTracker,
} from '../../../src/server/routes/index.js';
import {
  createDaemonServer,
  type ViewerLimits,
  type DaemonServer,
  type GatewayLimits,
} from '../../../src/server/server.js';
import { startUpstream, type RunningUpstream } from '../../../src/simulator/index.js';
import { FIXTURES_DIR, HAVE_FIXTURES } from '../../support/fixtures.js';
import { rosterAthleteId } from '../../simulator/helpers.js';

/** Ids the recorded payloads (and the simulator's catalog) know. */
export const EVENT_IDS: Readonly<Record<League, string>> = {
  mens: '401585607',
  womens: '401736158',
  'mens-college': '401706886',
  'womens-college': '401724593',
};
export const TEAM_IDS: Readonly<Record<League, string>> = {
  mens: '13',
  womens: '6',
  'mens-college': '150',
  'womens-college': '259',
};
// The simulator answers the athlete operations for its own rosters; a real id only where recorded.
export const ATHLETE_ID = rosterAthleteId();

/** Valid parameters for an operation: its required path parameters, plus the summary's event. */
export function paramsFor(op: OperationSpec): Record<string, string> {
  const params: Record<string, string> = {};
  if (op.params.includes('team_id')) params.team_id = TEAM_IDS[op.league];
  if (op.params.includes('athlete_id')) params.athlete_id = ATHLETE_ID;
  if (op.params.includes('event_id')) params.event_id = EVENT_IDS[op.league];
  if (op.suffix === 'scoreboard') params.dates = op.league === 'mens' ? '20241201' : '20240622';
  return params;
}

export function query(params: Record<string, string>): string {
  const qs = new URLSearchParams(params).toString();
  return qs ? `?${qs}` : '';
}

/** A snapshot built from a few fields, the rest defaulted. */
export function snapshot(
  league: League,
  gameId: string,
  state: GameSnapshot['state'],
  score = { home: 0, away: 0 },
): GameSnapshot {
  const team = (id: string, abbreviation: string) => ({
    id,
    abbreviation,
    displayName: null,
    color: null,
    alternateColor: null,
    logo: null,
  });
  return {
    league,
    gameId,
    seq: 1,
    state,
    status: { name: null, detail: null, description: null },
    teams: { home: team('1', 'HOM'), away: team('2', 'AWY') },
    score,
    period: state === 'pre' ? null : 1,
    clock: null,
    date: null,
    scoreboard: null,
    recentPlays: [],
    winProbability: null,
    updatedAt: new Date(0).toISOString(),
  };
}

/** A snapshot source over a fixed list (the engine's own is exercised in the daemon test). */
export function fixedSnapshots(games: GameSnapshot[]): SnapshotSource {
  return {
    async snapshot(league, gameId) {
      return games.find((g) => g.league === league && g.gameId === gameId);
    },
    async list() {
      return games;
    },
  };
}

export interface ApiHarness {
  upstream: RunningUpstream;
  client: EspnClient;
  /** Records the routes' calls; `/v1/games/live` and `/` show its `health()`. */
  tracker: UpstreamTracker;
  server: DaemonServer;
  url: string;
  close(): Promise<void>;
}

/**
 * The simulator, a real client (no retries, short timeout, no cache), the server with the API
 * routes (then `routes`, tried after them, as the daemon adds the overlay).
 */
export async function startApi(
  options: {
    tokens?: string[];
    origins?: string[];
    limits?: Partial<GatewayLimits>;
    snapshots?: SnapshotSource;
    redisPing?: () => Promise<number>;
    routes?: RouteHandler[];
    /** Sent as given (forced), so a test can play a blocked agent. */
    userAgent?: string;
    /** Client options over the harness's (a test of the on-demand budget sets its own). */
    client?: EspnClientOptions;
    viewerLimits?: Partial<ViewerLimits>;
  } = {},
): Promise<ApiHarness> {
  const upstream = await startUpstream({
    ...(HAVE_FIXTURES ? { fixturesDir: FIXTURES_DIR } : {}),
    logger: silentLogger,
  });
  // No retries and a short timeout so fault tests answer quickly; no cache so every call is counted.
  const client = createEspnClient({
    upstream: upstream.url,
    retries: 0,
    timeoutMs: 1_500,
    cache: false,
    // The suites call every operation back to back; the budget has its own tests.
    onDemandRate: 10_000,
    onDemandBurst: 10_000,
    ...(options.userAgent !== undefined ? { userAgent: options.userAgent, forceUserAgent: true } : {}),
    ...options.client,
  });
  const tracker = createUpstreamTracker({ upstream: upstream.url });
  const tracked = tracker.wrap(client);
  const bus = createMemoryBus();
  const server = createDaemonServer({
    port: 0,
    host: '127.0.0.1',
    bus,
    snapshots: options.snapshots ?? fixedSnapshots([]),
    tokens: options.tokens ?? [],
    origins: options.origins ?? [],
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.viewerLimits ? { viewerLimits: options.viewerLimits } : {}),
    routes: [
      ...createApiRoutes({
        client: tracked,
        snapshots: options.snapshots ?? fixedSnapshots([]),
        health: {
          upstream: tracker,
          ...(options.redisPing ? { redisPing: options.redisPing } : {}),
          pollers: () => [],
        },
        upstream: tracker,
        auth: (options.tokens ?? []).length > 0,
      }),
      ...(options.routes ?? []),
    ],
    logger: silentLogger,
  });
  await server.start();
  return {
    upstream,
    client,
    tracker,
    server,
    url: server.url,
    async close() {
      await server.close();
      await bus.close();
      await client.close();
      await upstream.close();
    },
  };
}
