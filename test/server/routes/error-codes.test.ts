import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectUpgrade } from '../../../src/server/auth.js';
import {
  HTTP_ERROR_CODES,
  HTTP_ERRORS,
  isHttpErrorCode,
  sendError,
  streamQueryErrorCode,
  type HttpErrorCode,
  type RouteHandler,
} from '../../../src/server/http-types.js';
import { overlayRoute } from '../../../src/server/overlay-page.js';
import { BusUnavailableError } from '../../../src/core/errors.js';

import { waitFor } from '../../support/wait-for.js';
import { startApi, type ApiHarness } from './helpers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const TOKEN = 'tok-errors';
const ALLOWED_ORIGIN = 'http://allowed.example';

/**
 * These lines are the compile-time half of the test: `npm run typecheck` fails if `sendError` or
 * `rejectUpgrade` ever accept a code outside `HTTP_ERRORS` again (the old lower-case spellings
 * included), or a status the code does not go with. The function is never called.
 */
export function refusedAtCompileTime(res: ServerResponse, socket: Duplex): void {
  // @ts-expect-error: not a code of the list
  sendError(res, 404, 'not_found', 'the old spelling');
  // @ts-expect-error: not a code of the list
  sendError(res, 500, 'internal_error', 'the old spelling');
  // @ts-expect-error: any string is refused, not only misspellings
  sendError(res, 400, String('INVALID_PARAMS'), 'a computed string');
  // @ts-expect-error: NOT_FOUND goes with 404
  sendError(res, 400, 'NOT_FOUND', 'the wrong status');
  // @ts-expect-error: not a code of the list
  rejectUpgrade(socket, 401, 'UNAUTHORIZED', 'upper case is not how the protocol spells it');
}

describe('HTTP error codes: the list', () => {
  it('has one status per code, every code documented with that status in docs/errors.md', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
    const start = doc.indexOf('## HTTP errors');
    expect(start).toBeGreaterThanOrEqual(0);
    const end = doc.indexOf('\n## ', start + 1);
    const section = doc.slice(start, end < 0 ? undefined : end);
    const documented = new Map<string, number>();
    for (const m of section.matchAll(/^\| (\d{3})\s+\| `([A-Za-z_]+)`/gm))
      documented.set(m[2] ?? '', Number(m[1]));
    expect(Object.fromEntries(documented)).toEqual(HTTP_ERRORS);
  });

  it('narrows a stream protocol code to the ones an SSE query can get', () => {
    expect(streamQueryErrorCode('unknown_league')).toBe('unknown_league');
    expect(streamQueryErrorCode('invalid_since')).toBe('invalid_since');
    // A subscription error that a query cannot cause is still a refused query.
    expect(streamQueryErrorCode('duplicate_subscription')).toBe('invalid_message');
    expect(isHttpErrorCode('not_found')).toBe(false);
    expect(isHttpErrorCode('NOT_FOUND')).toBe(true);
  });
});

describe(`HTTP error codes: every route`, () => {
  let api: ApiHarness;
  const seen = new Set<string>();
  const boom: RouteHandler = (_req, _res, url) => {
    if (url.pathname !== '/boom') return false;
    throw new Error('a bug in a handler');
  };
  // What a route that reads Redis throws while Redis restarts (the real one: test/reliability/redis-restart.test.ts).
  const redisDown: RouteHandler = (_req, _res, url) => {
    if (url.pathname !== '/redis-down') return false;
    throw new BusUnavailableError('loadGame', { cause: new Error('Connection is closed.') });
  };

  beforeAll(async () => {
    api = await startApi({
      tokens: [TOKEN],
      origins: [ALLOWED_ORIGIN],
      // One stream at a time, so the test can reach the limit with a single open stream.
      limits: { maxConnections: 1 },
      routes: [overlayRoute(), boom, redisDown],
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const url = (path: string): string => `${api.url}${path}${path.includes('?') ? '&' : '?'}token=${TOKEN}`;

  /** Checks an HTTP error answer: JSON, not cached, a code of the list with its status. */
  async function codeOf(res: Response): Promise<string> {
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(HTTP_ERROR_CODES).toContain(error.code);
    expect(res.status).toBe(HTTP_ERRORS[error.code as HttpErrorCode]);
    expect(error.message.length).toBeGreaterThan(0);
    seen.add(error.code);
    return error.code;
  }

  /** A raw request, for what fetch cannot send: a malformed target, a WebSocket upgrade. */
  function raw(head: string): Promise<{ status: number; body: string }> {
    const port = Number(new URL(api.url).port);
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n`));
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        const [top = '', body = ''] = data.split('\r\n\r\n');
        resolve({ status: Number(top.split(' ')[1]), body });
      });
    });
  }

  async function rawCodeOf(head: string): Promise<string> {
    const { status, body } = await raw(head);
    const { error } = JSON.parse(body) as { error: { code: string } };
    expect(HTTP_ERROR_CODES).toContain(error.code);
    expect(status).toBe(HTTP_ERRORS[error.code as HttpErrorCode]);
    seen.add(error.code);
    return error.code;
  }

  const upgrade = (path: string, extra: string[] = []): string =>
    [
      `GET ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      ...extra,
    ].join('\r\n');

  it('server: malformed target, token, unknown path, plain GET of the WebSocket path, a throwing handler', async () => {
    expect(await rawCodeOf('GET http://[/ HTTP/1.1\r\nHost: x\r\nConnection: close')).toBe('BAD_REQUEST');
    expect(await codeOf(await fetch(`${api.url}/v1/games/live`))).toBe('unauthorized');
    expect(await codeOf(await fetch(url('/nope')))).toBe('NOT_FOUND');
    expect(await codeOf(await fetch(url('/v1/stream')))).toBe('UPGRADE_REQUIRED');
    expect(await codeOf(await fetch(url('/boom')))).toBe('INTERNAL');
    const down = await fetch(url('/redis-down'));
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await codeOf(down)).toBe('REDIS_UNAVAILABLE');
  });

  it('per-client limits: the HTTP API, the streams of an address, its subscribes', async () => {
    const limited = await startApi({
      viewerLimits: {
        rateLimit: { rate: 0.01, burst: 1 },
        streamConnectionsPerAddress: 1,
        subscribeRateLimit: { rate: 0.01, burst: 1 },
      },
    });
    try {
      await fetch(`${limited.url}/v1/games/live`);
      expect(await codeOf(await fetch(`${limited.url}/v1/games/live`))).toBe('RATE_LIMITED');
      const open = new AbortController();
      expect((await fetch(`${limited.url}/v1/stream/sse`, { signal: open.signal })).status).toBe(200);
      expect(await codeOf(await fetch(`${limited.url}/v1/stream/sse`))).toBe('too_many_streams');
      open.abort();
      await waitFor(async () => {
        const res = await fetch(`${limited.url}/v1/stream/sse`);
        if (res.status === 200) await res.body?.cancel();
        return res.status === 429 && (await codeOf(res)) === 'subscribe_rate_limited';
      }, 10_000);
    } finally {
      await limited.close();
    }
  });

  it('WebSocket upgrade refusals', async () => {
    expect(await rawCodeOf(upgrade(`/v1/elsewhere?token=${TOKEN}`))).toBe('NOT_FOUND');
    expect(await rawCodeOf(upgrade('/v1/stream'))).toBe('unauthorized');
    expect(await rawCodeOf(upgrade(`/v1/stream?token=${TOKEN}`, ['Origin: http://evil.example']))).toBe(
      'forbidden_origin',
    );
  });

  it('SSE: method, origin, each subscribe error of a query, the connection limit', async () => {
    expect(await codeOf(await fetch(url('/v1/stream/sse'), { method: 'POST' }))).toBe('METHOD_NOT_ALLOWED');
    expect(
      await codeOf(await fetch(url('/v1/stream/sse'), { headers: { origin: 'http://evil.example' } })),
    ).toBe('forbidden_origin');
    const many = Array.from({ length: 101 }, (_, i) => `g${i}`).join(',');
    for (const [query, code] of [
      ['leagues=nba', 'unknown_league'],
      ['types=nope.happened', 'unknown_event_type'],
      ['since=yesterday', 'invalid_since'],
      ['snapshot=maybe', 'invalid_message'],
      [`games=${many}`, 'too_many_filters'],
    ]) {
      expect(await codeOf(await fetch(url(`/v1/stream/sse?${query}`)))).toBe(code);
    }
    const open = new AbortController();
    const stream = await fetch(url('/v1/stream/sse'), { signal: open.signal });
    expect(stream.status).toBe(200);
    try {
      expect(await codeOf(await fetch(url('/v1/stream/sse')))).toBe('too_many_connections');
      expect(await rawCodeOf(upgrade(`/v1/stream?token=${TOKEN}`))).toBe('too_many_connections');
    } finally {
      open.abort();
    }
  });

  it('ops: method, unknown operation, parameters, the upstream failures', async () => {
    expect(await codeOf(await fetch(url('/v1/ops/mens_news'), { method: 'POST' }))).toBe(
      'METHOD_NOT_ALLOWED',
    );
    expect(await codeOf(await fetch(url('/v1/ops/mens_nope')))).toBe('UNKNOWN_OPERATION');
    expect(await codeOf(await fetch(url('/v1/ops/mens_news?limit=0')))).toBe('INVALID_PARAMS');
    expect(await codeOf(await fetch(url('/v1/ops/mens_summary?event_id=1&table=nope')))).toBe(
      'INVALID_PARAMS',
    );
    api.upstream.faults.failNext(1, { status: 503 });
    expect(await codeOf(await fetch(url('/v1/ops/mens_news')))).toBe('UPSTREAM_HTTP');
    api.upstream.faults.malformedNext(1);
    expect(await codeOf(await fetch(url('/v1/ops/mens_news')))).toBe('UPSTREAM_PAYLOAD');
    api.upstream.faults.hangNext(1);
    expect(await codeOf(await fetch(url('/v1/ops/mens_injuries')))).toBe('UPSTREAM_TIMEOUT');
    api.upstream.faults.failNext(1, { status: 404 });
    expect(await codeOf(await fetch(url('/v1/ops/mens_news')))).toBe('UPSTREAM_NOT_FOUND');
    // A daemon whose on-demand budget is one request, spent by the first call.
    const frugal = await startApi({ client: { onDemandRate: 1, onDemandBurst: 1, onDemandMaxWaitMs: 0 } });
    try {
      await fetch(`${frugal.url}/v1/ops/mens_news`);
      expect(await codeOf(await fetch(`${frugal.url}/v1/ops/mens_injuries`))).toBe('ON_DEMAND_BUDGET');
    } finally {
      await frugal.close();
    }
    // A daemon whose agent the edge blocks: the simulator's WAF answers 403 with HTML.
    const blocked = await startApi({ userAgent: 'MyApp/1.0' });
    try {
      expect(await codeOf(await fetch(`${blocked.url}/v1/ops/mens_news`))).toBe('UPSTREAM_BLOCKED');
    } finally {
      await blocked.close();
    }
  });

  it('games, health, metrics, openapi, the home page and the overlay', async () => {
    for (const path of ['/v1/games/live', '/healthz', '/metrics', '/openapi.json', '/', '/overlay/mens/1']) {
      expect(await codeOf(await fetch(url(path), { method: 'POST' })), path).toBe('METHOD_NOT_ALLOWED');
    }
    expect(await codeOf(await fetch(url('/v1/games/mens')))).toBe('NOT_FOUND');
    expect(await codeOf(await fetch(url('/v1/games/college/1')))).toBe('INVALID_PARAMS');
    expect(await codeOf(await fetch(url('/v1/games/mens/1')))).toBe('UNKNOWN_GAME');
    expect(await codeOf(await fetch(url('/overlay/nba/1')))).toBe('NOT_FOUND');
  });

  // Last in the file: it closes the simulator, and counts what the tests above saw.
  it('an unreachable upstream, and every code of the list was seen with its status', async () => {
    await api.upstream.close();
    expect(await codeOf(await fetch(url('/v1/ops/mens_news')))).toBe('UPSTREAM_NETWORK');
    // No code in the list is dead: each one is what some request above got.
    expect([...seen].sort()).toEqual([...HTTP_ERROR_CODES].sort());
  });
});
