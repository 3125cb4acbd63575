import type { Dispatcher } from 'undici';
import type { ClientOptions } from 'ws';
import { UpstreamHttpError, UpstreamNetworkError, UpstreamPayloadError } from '../core/errors.js';
import { fastcastBytes } from '../core/metrics.js';
import { socketPath } from './fastcast-frames.js';
import { fastcastServerIdentity } from './fastcast-tls.js';
import { readBody } from './http.js';

/**
 * The first two steps of every FastCast connection, shared by the push client and `courtside
 * doctor`: discovery (`GET /public/websockethost`: an address, a port and a short-lived token)
 * and the socket's options (headers, handshake timeout, TLS with the widened name check).
 */

export interface DiscoveryRequest {
  /** Discovery URL; `http://` gives a `ws://` socket, `https://` a `wss://` one. */
  readonly discoveryUrl: string;
  readonly userAgent: string;
  readonly origin: string;
  readonly timeoutMs: number;
  readonly dispatcher: Dispatcher;
}

/** What discovery answered, and the socket URL it makes. */
export interface Discovered {
  /** The address to connect to (an IP, as ESPN's discovery gives it). */
  readonly host: string;
  readonly port: number;
  readonly token: string;
  /** `ws[s]://host:port/...?TrafficManager-Token=...` with the token as `socketPath` writes it. */
  readonly socketUrl: string;
}

/** Asks discovery; throws `UpstreamNetworkError`, `UpstreamHttpError` or `UpstreamPayloadError`. */
export async function discoverFastcast(request: DiscoveryRequest): Promise<Discovered> {
  const url = request.discoveryUrl;
  const u = new URL(url);
  let response;
  try {
    response = await request.dispatcher.request({
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
  let found: Record<string, unknown>;
  try {
    found = JSON.parse(text) as Record<string, unknown>;
  } catch (cause) {
    throw new UpstreamPayloadError(url, 'body is not JSON', { cause });
  }
  const host = typeof found?.ip === 'string' ? found.ip : '';
  const port = Number(found?.securePort);
  const token = typeof found?.token === 'string' ? found.token : '';
  if (host === '' || !Number.isInteger(port) || token === '')
    throw new UpstreamPayloadError(url, 'discovery answer lacks ip, securePort or token');
  const scheme = u.protocol === 'https:' ? 'wss' : 'ws';
  const socketUrl = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${socketPath(token)}`;
  return { host, port, token, socketUrl };
}

export interface SocketOptionsRequest {
  readonly userAgent: string;
  readonly origin: string;
  readonly timeoutMs: number;
  /** The address connected to (discovery's `ip`). */
  readonly address: string;
  /** The discovery URL's host, the other name the certificate may carry. */
  readonly serviceHost: string;
  /** Trust anchors when not Node's own (fastcast-tls.ts `fastcastTrust`). */
  readonly trust?: Array<string | Buffer> | undefined;
  /** Called when the certificate names the service host rather than the address. */
  readonly onServiceHost: () => void;
}

/**
 * The socket's options. `ws` writes Upgrade, Host, Sec-WebSocket-Key and Sec-WebSocket-Version
 * with exactly the capitals FastCast requires; permessage-deflate is not offered. Over TLS the
 * chain is verified as always (rejectUnauthorized stays on), the name check widened to the
 * discovery host (fastcast-tls.ts). No SNI is sent for an IP, as `ws` and browsers do (SNI
 * carries host names only): clients sending none are the ones that were seen served a
 * certificate naming ESPN's service host, and asking that IP for the discovery host by name
 * could select another certificate or draw an `unrecognized_name` refusal.
 */
export function fastcastSocketOptions(secure: boolean, request: SocketOptionsRequest): ClientOptions {
  const base: ClientOptions = {
    headers: { 'User-Agent': request.userAgent, Origin: request.origin },
    perMessageDeflate: false,
    handshakeTimeout: request.timeoutMs,
  };
  if (!secure) return base;
  const check = fastcastServerIdentity(request.address, request.serviceHost, request.onServiceHost);
  return {
    ...base,
    rejectUnauthorized: true,
    ...(request.trust ? { ca: request.trust } : {}),
    // `ws` hands this to tls.connect as is; its typings describe an older, boolean form.
    checkServerIdentity: check as unknown as ClientOptions['checkServerIdentity'],
  };
}

/** The discovery URL's host as the name check wants it (URL keeps an IPv6 host in brackets). */
export function serviceHostOf(discoveryUrl: string): string {
  return new URL(discoveryUrl).hostname.replace(/^\[(.*)\]$/, '$1');
}
