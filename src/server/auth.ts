import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HTTP_ERRORS, HttpErrorCode } from './http-types.js';

/**
 * Bearer-token and origin checks, shared by HTTP requests, the WebSocket upgrade and SSE.
 * Tokens are compared as SHA-256 digests with `timingSafeEqual`, so neither a token's content nor
 * its length leaks through timing; every configured token is compared (no early exit).
 */
export interface Authenticator {
  /** True when no tokens are configured, or the request carries a valid one. */
  check(req: IncomingMessage, url: URL): boolean;
  readonly enabled: boolean;
}

/** What a request or upgrade without a valid token is told, wherever it is refused. */
export const UNAUTHORIZED_MESSAGE =
  'a valid bearer token is required (Authorization: Bearer <token> or ?token=)';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export function createAuthenticator(tokens: readonly string[] = []): Authenticator {
  const digests = tokens.filter((t) => t.length > 0).map(digest);
  return {
    enabled: digests.length > 0,
    check(req, url) {
      if (digests.length === 0) return true;
      const presented = presentedToken(req, url);
      if (presented === undefined) return false;
      const candidate = digest(presented);
      let ok = false;
      for (const d of digests) ok = timingSafeEqual(d, candidate) || ok;
      return ok;
    },
  };
}

/** The token a request presents (header first, then `?token=`), valid or not. */
export function presentedToken(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string') {
    const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (m?.[1]) return m[1];
  }
  const query = url.searchParams.get('token');
  return query !== null && query.length > 0 ? query : undefined;
}

/**
 * Browsers always send `Origin` on WebSocket and cross-origin requests; non-browser clients
 * (websocat, curl, servers) usually do not and are not what an origin list protects against,
 * so a request without `Origin` passes.
 */
export function originAllowed(req: IncomingMessage, origins: readonly string[]): boolean {
  if (origins.length === 0) return true;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origins.includes(origin);
}

/** Answers an upgrade request with a plain HTTP error and drops the socket (no WebSocket). */
export function rejectUpgrade<C extends HttpErrorCode>(
  socket: Duplex,
  status: (typeof HTTP_ERRORS)[C],
  code: C,
  message: string,
  headers: Record<string, string> = {},
): void {
  const reasons: Partial<Record<number, string>> = {
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    429: 'Too Many Requests',
    503: 'Service Unavailable',
  };
  const reason = reasons[status];
  const body = JSON.stringify({ error: { code, message } });
  const head = [
    `HTTP/1.1 ${status} ${reason ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...(status === 401 ? ['WWW-Authenticate: Bearer'] : []),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  // A peer that never reads must not hold the socket open: 1 s is ample for a few hundred bytes.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
