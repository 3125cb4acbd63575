import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamBlockedError, UpstreamHttpError, type CourtsideError } from '../../src/core/errors.js';
import { upstreamAnomalies } from '../../src/core/metrics.js';
import { DEFAULT_USER_AGENT } from '../../src/core/version.js';
import { createUpstreamHttp, type UpstreamHttp } from '../../src/espn/http.js';
import { buildRequest } from '../../src/espn/operations.js';
import { blockedUserAgentForm } from '../../src/espn/user-agent.js';

/**
 * How the transport reads what ESPN answers now: an edge block (403 with HTML), a 404, an empty
 * body, a status never seen before, a body that does not parse. Each against a real socket.
 */

const lines: Record<string, unknown>[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  }),
);

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function upstream(
  handler: RequestListener,
  userAgent = DEFAULT_USER_AGENT,
): Promise<{ http: UpstreamHttp; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const http = createUpstreamHttp({
    upstream: `http://127.0.0.1:${port}`,
    userAgent,
    timeoutMs: 2_000,
    retries: 3,
    retryBaseMs: 1,
    retryMaxMs: 5,
    maxRetryAfterMs: 1_000,
    concurrency: 2,
    cache: true,
    cacheMaxEntries: 10,
    cacheMaxBytes: 1_000_000,
    now: Date.now,
    logger,
  });
  open.push({
    close: async () => {
      await http.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return { http, hits: () => hits };
}

async function failure(promise: Promise<unknown>): Promise<CourtsideError> {
  try {
    await promise;
  } catch (error) {
    return error as CourtsideError;
  }
  throw new Error('expected a failure');
}

async function anomalies(kind: string): Promise<number> {
  const { values } = await upstreamAnomalies.get();
  return values.filter((v) => v.labels.kind === kind).reduce((n, v) => n + v.value, 0);
}

const html =
  (status: number, body: string): RequestListener =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(body);
  };

describe('what ESPN answers now, as the transport reads it', () => {
  it('a 403 with an HTML body is UPSTREAM_BLOCKED naming the agent and the accepted form, never retried', async () => {
    const before = await anomalies('blocked');
    const { http, hits } = await upstream(
      html(403, '<html><body>Request blocked.</body></html>'),
      'MyApp/1.0',
    );
    const error = await failure(http.get(buildRequest('mens_scoreboard')));
    expect(error).toBeInstanceOf(UpstreamBlockedError);
    expect(error).toBeInstanceOf(UpstreamHttpError);
    expect(error.code).toBe('UPSTREAM_BLOCKED');
    expect((error as UpstreamBlockedError).userAgent).toBe('MyApp/1.0');
    expect((error as UpstreamBlockedError).status).toBe(403);
    expect(error.message).toContain('"MyApp/1.0"');
    expect(error.message).toContain('Name/version (+https://');
    expect(hits()).toBe(1);
    expect(await anomalies('blocked')).toBe(before + 1);
  });

  it('a 403 with an empty body is a block too; a 403 with JSON is an ordinary UPSTREAM_HTTP', async () => {
    const empty = await upstream(html(403, ''));
    expect((await failure(empty.http.get(buildRequest('mens_news')))).code).toBe('UPSTREAM_BLOCKED');
    const json = await upstream((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end('{"code":403,"message":"Forbidden"}');
    });
    const error = await failure(json.http.get(buildRequest('mens_news')));
    expect(error.code).toBe('UPSTREAM_HTTP');
    expect((error as UpstreamHttpError).status).toBe(403);
  });

  it('a 404 and an empty 200 are UPSTREAM_NOT_FOUND, not retried and not cached', async () => {
    const missing = await upstream((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"code":404,"message":"Not Found"}');
    });
    const notFound = await failure(missing.http.get(buildRequest('mens_calendar')));
    expect(notFound.code).toBe('UPSTREAM_NOT_FOUND');
    expect((notFound as UpstreamHttpError).status).toBe(404);
    expect(notFound.message).toContain('/nba/calendar');
    expect(missing.hits()).toBe(1);

    const beforeEmpty = await anomalies('empty_body');
    const empty = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end();
    });
    const request = buildRequest('mens_team_injuries', { team_id: '13' });
    const first = await failure(empty.http.get(request));
    expect(first.code).toBe('UPSTREAM_NOT_FOUND');
    expect((first as UpstreamHttpError).status).toBe(200);
    expect(first.message).toContain('empty body');
    await failure(empty.http.get(request));
    expect(empty.hits()).toBe(2);
    expect(await anomalies('empty_body')).toBe(beforeEmpty + 2);
  });

  it('counts a status never seen before and a body that does not parse, logging each kind once', async () => {
    const unknownBefore = await anomalies('unknown_status');
    const teapot = await upstream((_req, res) => {
      res.writeHead(418);
      res.end('{}');
    });
    for (let i = 0; i < 3; i++)
      expect((await failure(teapot.http.get(buildRequest('mens_news')))).code).toBe('UPSTREAM_HTTP');
    expect(await anomalies('unknown_status')).toBe(unknownBefore + 3);

    const garbledBefore = await anomalies('unparsable_body');
    const garbled = await upstream(html(200, '<html>maintenance</html>'));
    for (let i = 0; i < 2; i++)
      expect((await failure(garbled.http.get(buildRequest('mens_draft')))).code).toBe('UPSTREAM_PAYLOAD');
    expect(await anomalies('unparsable_body')).toBe(garbledBefore + 2);

    const logged = (kind: string) => lines.filter((l) => l.kind === kind);
    expect(logged('unknown_status')).toHaveLength(1);
    // One line for the kind, whichever status came first (the 403 with JSON above is new as well).
    expect(logged('unknown_status')[0]).toMatchObject({ operation: 'mens_news', level: 40 });
    expect([403, 418]).toContain(logged('unknown_status')[0]?.detail);
    expect(logged('unparsable_body')).toHaveLength(1);
    expect(String(logged('unparsable_body')[0]?.msg)).toContain('courtside_upstream_anomalies_total');
  });
});

describe('the User-Agent forms the edge blocks', () => {
  it('knows the measured blocked forms and accepts Name/version (+https://...)', () => {
    for (const agent of [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0 Safari/537.36',
      'MyApp/1.0',
      'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
      'node-fetch',
      'Deno/2.1.4',
      'Wget/1.21.4',
      'PostmanRuntime/7.42.0',
      '',
      '   ',
    ]) {
      expect(blockedUserAgentForm(agent), agent).toBeDefined();
    }
    for (const agent of [DEFAULT_USER_AGENT, 'MyBot/2.3 (+https://example.org/bot)', 'x/1 (+http://a.b)']) {
      expect(blockedUserAgentForm(agent), agent).toBeUndefined();
    }
    // Forms nobody measured are not refused: courtside refuses only what is known to be blocked.
    expect(blockedUserAgentForm('node')).toBeUndefined();
  });
});
