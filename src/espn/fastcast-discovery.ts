import type { Agent } from 'undici';
import { UpstreamHttpError, UpstreamNetworkError, UpstreamPayloadError } from '../core/errors.js';
import { fastcastBytes } from '../core/metrics.js';
import { readBody } from './http.js';

/**
 * FastCast's discovery: `GET /public/websockethost` answers where the socket is and a short-lived
 * token to open it with, so it is asked before each connection.
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
}

/** Asks discovery; throws an `Upstream*Error` naming what failed. */
export async function discover(dispatcher: Agent, request: DiscoveryRequest): Promise<DiscoveryAnswer> {
  const { url } = request;
  const u = new URL(url);
  let response;
  try {
    response = await dispatcher.request({
      origin: u.origin,
      path: u.pathname + u.search,
      method: 'GET',
      headers: {
        'User-Agent': request.userAgent,
        Accept: 'application/json',
        'Accept-Encoding': 'gzip, deflate, br',
        Origin: request.origin,
      },
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    });
  } catch (cause) {
    throw new UpstreamNetworkError(url, { cause });
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new UpstreamHttpError(response.statusCode, url);
  }
  const encoding = response.headers['content-encoding'];
  const { text, bytes } = await readBody(
    response.body,
    Array.isArray(encoding) ? encoding[0] : encoding,
    url,
  );
  fastcastBytes.inc({ kind: 'discovery' }, bytes);
  let found: unknown;
  try {
    found = JSON.parse(text);
  } catch (cause) {
    throw new UpstreamPayloadError(url, 'body is not JSON', { cause });
  }
  const v = (typeof found === 'object' && found !== null ? found : {}) as Record<string, unknown>;
  const host = typeof v.ip === 'string' ? v.ip : '';
  const port = Number(v.securePort);
  const token = typeof v.token === 'string' ? v.token : '';
  if (host === '' || !Number.isInteger(port) || token === '')
    throw new UpstreamPayloadError(url, 'discovery answer lacks ip, securePort or token');
  return { host, port, token };
}
