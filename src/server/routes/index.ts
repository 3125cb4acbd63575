import type { SnapshotSource } from '../../model/events.js';
import type { Logger } from '../../core/log.js';
import type { InstanceRole } from '../../core/role.js';
import type { RouteHandler } from '../http-types.js';
import { createAsyncApiRoute } from './asyncapi.js';
import { createGamesRoute, type GameFeeds } from './games.js';
import { createHealthRoute, type HealthRouteOptions } from './health.js';
import { createHomeRoute } from './home.js';
import { createMetricsRoute } from './metrics.js';
import { createOpenApiRoute } from './openapi.js';
import { createOpsRoute, type OpsClient } from './ops.js';
import { createOverlayLiveRoute } from './overlay-live.js';
import type { UpstreamHealth } from './upstream-tracker.js';

export { createAsyncApiRoute } from './asyncapi.js';
export { createGamesRoute } from './games.js';
export { createHealthRoute, type HealthBody, type HealthRouteOptions } from './health.js';
export { createHomeRoute, HOME_DOCS, type HomeRouteOptions } from './home.js';
export { createMetricsRoute } from './metrics.js';
export { buildOpenApi, createOpenApiRoute } from './openapi.js';
export { createOpsRoute, FORMATS, type Format, type OpsClient } from './ops.js';
export { createOverlayLiveRoute, currentGame } from './overlay-live.js';
export { describeUpstreamFailure, OFFLINE_HINT } from './upstream-notice.js';
export {
  createUpstreamTracker,
  type UpstreamCheck,
  type UpstreamHealth,
  type UpstreamTracker,
} from './upstream-tracker.js';

/** Every HTTP API route, in the order the server should try them. */
export function createApiRoutes(options: {
  client: OpsClient;
  snapshots: SnapshotSource;
  health: HealthRouteOptions;
  /** The polls' view of the upstream, shown by `/v1/games/live` and the home page. */
  upstream?: { readonly url: string; health(): UpstreamHealth };
  /** How this instance follows each game: push, polling, standby (`/v1/games/live`, the home page). */
  feeds?: GameFeeds;
  auth?: boolean;
  logger?: Logger;
  beforeMetricsScrape?: () => Promise<void>;
  role?: InstanceRole;
  /** What push does, as said at start-up: shown on the home page. */
  pushNotice?: string;
}): RouteHandler[] {
  const upstream = {
    ...(options.upstream ? { upstream: options.upstream } : {}),
    ...(options.feeds ? { feeds: options.feeds } : {}),
  };
  return [
    createOpsRoute({
      client: options.client,
      auth: options.auth ?? false,
      ...(options.logger ? { logger: options.logger } : {}),
    }),
    createGamesRoute({ snapshots: options.snapshots, ...upstream }),
    createOverlayLiveRoute({ snapshots: options.snapshots }),
    createHealthRoute(options.health),
    createMetricsRoute(options.beforeMetricsScrape ? { beforeScrape: options.beforeMetricsScrape } : {}),
    createOpenApiRoute({ auth: options.auth ?? false }),
    createAsyncApiRoute({ auth: options.auth ?? false }),
    createHomeRoute({
      snapshots: options.snapshots,
      ...upstream,
      ...(options.role ? { role: options.role } : {}),
      ...(options.pushNotice !== undefined ? { pushNotice: options.pushNotice } : {}),
    }),
  ];
}
