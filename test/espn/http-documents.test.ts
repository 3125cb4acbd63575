import { createServer, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import { upstreamRequests } from '../../src/core/metrics.js';
import { createUpstreamHttp, type UpstreamHttp } from '../../src/espn/http.js';

/**
 * Documents at URLs the upstream hands out (FastCast checkpoints on ESPN's CDN): another origin
 * than the site API's, fetched through the same exchange as the operations, over real sockets.
 */

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function listen(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A CDN that answers each request with the next of `answers` (the last one repeats). */
async function cdn(
  answers: Array<{ status: number; body?: unknown }>,
): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const url = await listen((req, res) => {
    const answer = answers[Math.min(seen.length, answers.length - 1)]!;
    seen.push(req.headers);
    if (answer.body === undefined) {
      res.writeHead(answer.status).end();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(JSON.stringify(answer.body)));
  });
  return { url, seen };
}

async function client(): Promise<UpstreamHttp> {
  // The site API's origin: never asked for anything here.
  const site = await listen((_req, res) => res.writeHead(500).end());
  const http = createUpstreamHttp({
    upstream: site,
    userAgent: 'courtside/test (+https://example.org)',
    timeoutMs: 2_000,
    retries: 2,
    retryBaseMs: 1,
    retryMaxMs: 5,
    maxRetryAfterMs: 1_000,
    concurrency: 2,
    cache: true,
    cacheMaxEntries: 10,
    cacheMaxBytes: 1_000_000,
    now: Date.now,
    logger: silentLogger,
  });
  open.unshift(http);
  return http;
}

const requestsNamed = async (name: string): Promise<number> =>
  (await upstreamRequests.get()).values
    .filter((v) => v.labels.operation === name)
    .reduce((n, v) => n + v.value, 0);

describe('documents the upstream points at', () => {
  it('are fetched from their own origin, decoded, with the headers given, and never cached', async () => {
    const doc = { header: { id: '401' }, plays: [{ id: '1', text: 'Jump ball' }] };
    const { url, seen } = await cdn([{ status: 200, body: doc }]);
    const http = await client();
    const before = await requestsNamed('fastcast_checkpoint');
    const request = {
      name: 'fastcast_checkpoint',
      url: `${url}/topic/gp-basketball-nba-401/checkpoint?m=7`,
      headers: { 'User-Agent': 'Mozilla/5.0 Chrome/126.0', Origin: 'https://www.espn.com' },
    };
    const first = await http.getDocument(request);
    expect(first.body).toEqual(doc);
    expect(first.bytes).toBe(JSON.stringify(doc).length);
    expect(await http.getDocument(request)).toEqual(first);
    // Two calls, two downloads: a checkpoint is the document of one moment.
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({
      'user-agent': 'Mozilla/5.0 Chrome/126.0',
      origin: 'https://www.espn.com',
      'accept-encoding': 'gzip, deflate, br',
    });
    expect((await requestsNamed('fastcast_checkpoint')) - before).toBe(2);
  });

  it('are retried after a 5xx like an operation, and a 404 is not retried', async () => {
    const flaky = await cdn([{ status: 503 }, { status: 200, body: { ok: true } }]);
    const http = await client();
    expect((await http.getDocument({ name: 'doc', url: `${flaky.url}/a` })).body).toEqual({ ok: true });
    expect(flaky.seen).toHaveLength(2);
    // Without headers of its own, the document is asked for with the client's named agent.
    expect(flaky.seen[1]!['user-agent']).toBe('courtside/test (+https://example.org)');

    const gone = await cdn([{ status: 404 }]);
    await expect(http.getDocument({ name: 'doc', url: `${gone.url}/b` })).rejects.toMatchObject({
      code: 'UPSTREAM_NOT_FOUND',
    });
    expect(gone.seen).toHaveLength(1);
  });

  it('refuses a URL that is not http(s) before any request', async () => {
    const http = await client();
    for (const url of [
      'ftp://cdn.example/x',
      'not a url',
      '/relative/cp',
      'javascript:alert(1)',
      'file:///etc/passwd',
    ])
      await expect(http.getDocument({ name: 'doc', url })).rejects.toMatchObject({
        code: 'UPSTREAM_PAYLOAD',
      });
  });
});
