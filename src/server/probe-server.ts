import { createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { silentLogger, type Logger } from '../core/log.js';
import { createAuthenticator, UNAUTHORIZED_MESSAGE } from './auth.js';
import { sendError, type RouteHandler } from './http-types.js';
import { listen, stopListening } from './listen.js';
import { answerFailedRequest } from './redis-unavailable.js';
import type { DaemonServer } from './server.js';

// A health check or a scrape in flight gets this long to finish when the process stops.
const CLOSE_TIMEOUT_MS = 2_000;

/**
 * The HTTP server of an instance that serves no viewers (`--role poller`): only the routes given
 * (health and metrics), behind the same bearer tokens, and no WebSocket or SSE, so it never reads
 * the shared log it writes.
 */
export function createProbeServer(options: {
  port?: number;
  host?: string;
  routes: RouteHandler[];
  tokens?: string[];
  logger?: Logger;
}): DaemonServer {
  const logger = options.logger ?? silentLogger;
  const auth = createAuthenticator(options.tokens ?? []);
  const server = createServer((req, res) => {
    void (async () => {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://localhost');
      } catch {
        sendError(res, 400, 'BAD_REQUEST', 'malformed request target');
        return;
      }
      if (!auth.check(req, url)) {
        sendError(res, 401, 'unauthorized', UNAUTHORIZED_MESSAGE, {
          headers: { 'www-authenticate': 'Bearer' },
        });
        return;
      }
      for (const route of options.routes) if (await route(req, res, url)) return;
      sendError(
        res,
        404,
        'NOT_FOUND',
        `no route for ${req.method ?? 'GET'} ${url.pathname} on a poller (it serves /healthz and /metrics)`,
      );
    })().catch((err: unknown) => answerFailedRequest(err, req, res, logger));
  });
  // Upgrades (WebSocket) are not answered by a poller: the socket is refused.
  server.on('upgrade', (_req, socket: Duplex) => {
    // A peer's reset would otherwise be an unhandled error: an upgrade's socket is ours alone.
    socket.on('error', () => socket.destroy());
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
  });
  let url = '';
  let closing: Promise<void> | undefined;
  return {
    get url() {
      return url;
    },
    async start() {
      url = await listen(server, options.port, options.host);
    },
    close() {
      closing ??= stopListening(server, CLOSE_TIMEOUT_MS);
      return closing;
    },
    stats() {
      return { wsConnections: 0, sseConnections: 0, subscriptions: 0, framesSent: 0, tailOffset: '0-0' };
    },
  };
}
