import type { Registry } from 'prom-client';
import { registry as defaultRegistry, startProcessMetrics } from '../../core/metrics.js';
import { sendError, type RouteHandler } from '../http-types.js';
import { isRead } from './respond.js';

/** `GET /metrics`: the Prometheus text exposition of every metric in `src/core/metrics.ts`. */
export function createMetricsRoute(
  options: { registry?: Registry; beforeScrape?: () => Promise<void> } = {},
): RouteHandler {
  const registry = options.registry ?? defaultRegistry;
  if (registry === defaultRegistry) startProcessMetrics();
  return async (req, res, url) => {
    if (url.pathname !== '/metrics') return false;
    if (!isRead(req)) {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use GET', { headers: { allow: 'GET, HEAD' } });
      return true;
    }
    // Gauges read at scrape time (queue depth) are refreshed here, not on a timer.
    await options.beforeScrape?.().catch(() => undefined);
    const text = await registry.metrics();
    res.writeHead(200, {
      'content-type': registry.contentType,
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(text),
    });
    res.end(req.method === 'HEAD' ? undefined : text);
    return true;
  };
}
