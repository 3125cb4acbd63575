import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake platform can be told to do with one request instead of accepting it. */
export type Fault =
  | { kind: 'rate-limit'; retryAfterS: number }
  | { kind: 'unauthorized' }
  | { kind: 'not-found' }
  | { kind: 'server-error' }
  /** Accept, but only after `ms` (a slow platform). */
  | { kind: 'slow'; ms: number };

export interface FakeRequest {
  /** 0-based, in arrival order. */
  n: number;
  /** `performance.now()` at arrival. */
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  /** The rate-limit bucket as this request left it, when the fake has one (what headers report). */
  bucket?: BucketState;
}

/** A fixed-window bucket after a request: requests left in it and seconds until it refills. */
export interface BucketState {
  remaining: number;
  resetAfterS: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** A platform's own answers: a success, or its form of each fault. */
export interface PlatformAnswers {
  /** null: this request is not for a known endpoint (answered 404 the platform's way). */
  route(method: string, path: string): boolean;
  ok(req: FakeRequest): Reply;
  fault(fault: Exclude<Fault, { kind: 'slow' }>, req: FakeRequest): Reply;
}

export interface FakePlatform {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  requests: FakeRequest[];
  /** The requests answered 2xx. */
  delivered(): FakeRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback that answers the way one chat platform does. `script` picks a
 * fault (or none) per request; `limit` adds a real rate limit of its own, answered with the
 * platform's 429: a bucket of `count` requests that opens with the first request and refills
 * whole `windowMs` later, as Discord's `X-RateLimit-Remaining` / `Reset-After` describe it. The
 * bucket is counted at arrival, on one clock, and handed to `ok` so the headers report exactly
 * what the limiter enforces.
 */
export async function startFakePlatform(
  answers: PlatformAnswers,
  script: (req: FakeRequest) => Fault | null = () => null,
  limit?: { count: number; windowMs: number; retryAfterS?: number },
): Promise<FakePlatform> {
  const requests: FakeRequest[] = [];
  let opened = -Infinity;
  let used = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: FakeRequest = {
        n: requests.length,
        at: performance.now(),
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status: 0,
      };
      requests.push(request);
      const answer = (reply: Reply): void => {
        request.status = reply.status;
        res.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
      };
      if (!answers.route(request.method, request.path)) {
        answer(answers.fault({ kind: 'not-found' }, request));
        return;
      }
      const fault = script(request);
      if (fault && fault.kind !== 'slow') {
        answer(answers.fault(fault, request));
        return;
      }
      if (limit) {
        const now = performance.now();
        if (now >= opened + limit.windowMs) {
          opened = now;
          used = 0;
        }
        const resetAfterS = Math.max(0.001, (opened + limit.windowMs - now) / 1000);
        if (used >= limit.count) {
          answer(
            answers.fault({ kind: 'rate-limit', retryAfterS: limit.retryAfterS ?? resetAfterS }, request),
          );
          return;
        }
        used += 1;
        request.bucket = { remaining: limit.count - used, resetAfterS };
      }
      const delay = fault?.kind === 'slow' ? fault.ms : 0;
      setTimeout(() => answer(answers.ok(request)), delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    delivered: () => requests.filter((r) => r.status >= 200 && r.status < 300),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const JSON_TYPE = { 'content-type': 'application/json' };
