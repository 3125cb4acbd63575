import type { SnapshotSource } from '../../model/events.js';
import type { Logger } from '../../core/log.js';
import type { RouteHandler } from '../http-types.js';
import { createGamesRoute } from './games.js';
import { createHealthRoute, type HealthRouteOptions } from './health.js';
import { createMetricsRoute } from './metrics.js';
import { createOpenApiRoute } from './openapi.js';
import { createOpsRoute, type OpsClient } from './ops.js';

export { createGamesRoute } from './games.js';
export { createHealthRoute, type HealthBody, type HealthRouteOptions } from './health.js';
export { createMetricsRoute } from './metrics.js';
export { buildOpenApi, createOpenApiRoute } from './openapi.js';
export { createOpsRoute, FORMATS, SUMMARY_TABLES, type Format, type OpsClient } from './ops.js';
export { createUpstreamTracker, type UpstreamCheck, type UpstreamTracker } from './upstream-tracker.js';

/** Every HTTP API route, in the order the server should try them. */
export function createApiRoutes(options: {
  client: OpsClient;
  snapshots: SnapshotSource;
  health: HealthRouteOptions;
  auth?: boolean;
  logger?: Logger;
  beforeMetricsScrape?: () => Promise<void>;
}): RouteHandler[] {
  return [
    createOpsRoute({
      client: options.client,
      auth: options.auth ?? false,
      ...(options.logger ? { logger: options.logger } : {}),
    }),
    createGamesRoute({ snapshots: options.snapshots }),
    createHealthRoute(options.health),
    createMetricsRoute(options.beforeMetricsScrape ? { beforeScrape: options.beforeMetricsScrape } : {}),
    createOpenApiRoute({ auth: options.auth ?? false }),
  ];
}
