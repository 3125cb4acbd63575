import { Agent } from 'undici';
import { UpstreamPayloadError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/log.js';
import { fastcastBytes } from '../core/metrics.js';
import { createExchange } from './http-exchange.js';

/**
 * FastCast's discovery: `GET /public/websockethost` answers where the socket is and a short-lived
 * token to open it with, so it is asked before each connection. It goes through the upstream
 * client's exchange (http-exchange.ts: the timeout, status classification, decoding and request
 * metrics every upstream call has) on FastCast's own agent, which carries FastCast's extra trust
 * anchors; it is not retried there, since the client's reconnect backoff is its retry.
 */
export interface DiscoveryAnswer {
  /** The socket's host (a name or an address). */
  readonly host: string;
  readonly port: number;
  readonly token: string;
}

export interface DiscoveryRequest {
  readonly url: string;
  readonly userAgent: string;
  readonly origin: string;
  readonly timeoutMs: number;
  /** Where the exchange notes an upstream anomaly (a block, an unknown status); default silent. */
  readonly logger?: Logger;
  /** Aborts the request when its caller closes. */
  readonly closing?: AbortSignal;
}

// The name discovery's requests carry in the upstream request metrics.
const DISCOVERY_OPERATION = 'fastcast_discovery';

/** Asks discovery; throws an `Upstream*Error` naming what failed. */
export async function discover(dispatcher: Agent, request: DiscoveryRequest): Promise<DiscoveryAnswer> {
  const { url } = request;
  const u = new URL(url);
  const lane = { dispatcher };
  const exchange = createExchange({
    userAgent: request.userAgent,
    timeoutMs: request.timeoutMs,
    now: Date.now,
    logger: request.logger ?? silentLogger,
    lanes: { live: lane, 'on-demand': lane },
    cache: undefined,
    closing: request.closing ?? new AbortController().signal,
  });
  const attempt = await exchange(
    {
      name: DISCOVERY_OPERATION,
      origin: u.origin,
      path: u.pathname + u.search,
      url,
      cache: null,
      headers: { 'User-Agent': request.userAgent, Origin: request.origin },
    },
    'live',
  );
  if (!attempt.ok) throw attempt.error;
  fastcastBytes.inc({ kind: 'discovery' }, attempt.bytes);
  const found = attempt.body;
  const v = (typeof found === 'object' && found !== null ? found : {}) as Record<string, unknown>;
  const host = typeof v.ip === 'string' ? v.ip : '';
  const port = Number(v.securePort);
  const token = typeof v.token === 'string' ? v.token : '';
  if (host === '' || !Number.isInteger(port) || token === '')
    throw new UpstreamPayloadError(url, 'discovery answer lacks ip, securePort or token');
  return { host, port, token };
}

export interface Discoverer {
  /** Asks discovery once (see `discover`). */
  discover(): Promise<DiscoveryAnswer>;
  /** Aborts a discovery in flight and closes the agent. */
  close(): Promise<void>;
}

/** Discovery as the client asks it again and again: one agent, trusting `trust` besides Node's roots. */
export function createDiscoverer(
  request: Omit<DiscoveryRequest, 'closing'>,
  trust: Array<string | Buffer> | undefined,
): Discoverer {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, ...(trust ? { connect: { ca: trust } } : {}) });
  const closing = new AbortController();
  return {
    discover: () => discover(dispatcher, { ...request, closing: closing.signal }),
    async close() {
      closing.abort();
      await dispatcher.close();
    },
  };
}
