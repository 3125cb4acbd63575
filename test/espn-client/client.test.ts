import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Table } from 'apache-arrow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEspnClient, type EspnClientOptions, type EspnClient } from '../../src/espn-client/client.js';
import { OPERATIONS, OPERATION_NAMES, type OperationSpec } from '../../src/espn/operations.js';
import type { CourtsideError } from '../../src/core/errors.js';
import {
  InvalidConfigError,
  InvalidParamsError,
  UnknownOperationError,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamPayloadError,
  UpstreamTimeoutError,
} from '../../src/core/errors.js';
import { upstreamCacheHits, upstreamRequests } from '../../src/core/metrics.js';
import { parseOperation } from '../../src/tables/index.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { DEFAULT_USER_AGENT } from '../../src/core/version.js';
import { rosterAthleteId } from '../simulator/helpers.js';
import { FIXTURES_DIR, HAVE_FIXTURES, listFixtures, loadFixture, itRecorded } from '../support/fixtures.js';

let upstream: RunningUpstream;
const TEAM_IDS = { mens: '13', womens: '6', 'mens-college': '150', 'womens-college': '259' } as const;
// ESPN's path segments, written out here rather than read from the code under test.
const ESPN_SEGMENT = {
  mens: 'nba',
  womens: 'wnba',
  'mens-college': 'mens-college-basketball',
  'womens-college': 'womens-college-basketball',
} as const;
const clients: EspnClient[] = [];

/** A client on the simulator with test-sized timings; closed after the file. */
function client(options: EspnClientOptions = {}): EspnClient {
  const c = createEspnClient({
    upstream: upstream.url,
    timeoutMs: 5_000,
    retries: 3,
    // Backoff of a few ms: the retry logic runs for real without slowing the suite.
    retryBaseMs: 5,
    retryMaxMs: 20,
    ...options,
  });
  clients.push(c);
  return c;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

async function counterValue(
  counter: typeof upstreamRequests | typeof upstreamCacheHits,
  labels: Record<string, string>,
): Promise<number> {
  const { values } = await counter.get();
  return values
    .filter((v) => Object.entries(labels).every(([k, l]) => (v.labels as Record<string, unknown>)[k] === l))
    .reduce((sum, v) => sum + v.value, 0);
}

/** Parameters naming a recording by its key (event, date, team or athlete), as the simulator resolves them. */
function paramsForKey(op: OperationSpec, key: string): Record<string, string> | undefined {
  if (!key) return undefined;
  if (op.pathParams.includes('team_id')) return { team_id: key };
  if (op.pathParams.includes('athlete_id')) return { athlete_id: key };
  if (op.suffix === 'summary') return { event_id: key };
  if (op.suffix === 'scoreboard') return { dates: key };
  return undefined;
}

beforeAll(async () => {
  upstream = await startUpstream(HAVE_FIXTURES ? { fixturesDir: FIXTURES_DIR } : {});
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await upstream.close();
});

beforeEach(() => {
  upstream.faults.clear();
  upstream.requests.clear();
});

describe('the raw form of every operation', () => {
  itRecorded(!HAVE_FIXTURES)('returns each recorded payload as recorded', async () => {
    const c = client({ cache: false });
    const fixtures = listFixtures();
    expect(fixtures.length).toBeGreaterThan(20);
    for (const fixture of fixtures) {
      const op = OPERATIONS.get(`${fixture.league}_${fixture.suffix}`);
      expect(op, `${fixture.file} names an operation`).toBeDefined();
      if (!op) continue;
      const key = fixture.qualifier.split('_')[0] ?? '';
      const params = paramsForKey(op, key);
      if (op.suffix === 'player_info') {
        // Served as recorded only by the legacy simulator: ESPN's /athletes/{id} answers 404 since 2026-09.
        const error = await rejection(c.call(op.name, params ?? {}, { returnParsed: false }));
        expect((error as CourtsideError).code).toBe('UPSTREAM_NOT_FOUND');
        continue;
      }
      // Recordings the request could resolve to: same key, or any when the call names no key.
      const candidates = listFixtures()
        .filter((f) => f.league === fixture.league && f.suffix === fixture.suffix)
        .filter((f) => !params || (f.qualifier.split('_')[0] ?? '') === key)
        .map((f) => loadFixture(`${f.league}/${f.file.split('/').pop() ?? ''}`));
      const raw = await c.call(op.name, params ?? {}, { returnParsed: false });
      expect(candidates, `${op.name} ${JSON.stringify(params)}`).toContainEqual(raw);
    }
  });

  it('answers every operation with JSON, one request each, with the User-Agent', async () => {
    const c = client({ cache: false });
    for (const name of OPERATION_NAMES) {
      const op = OPERATIONS.get(name) as OperationSpec;
      // A team of the league and an athlete of the simulator's own rosters: other ids are refused.
      const params = Object.fromEntries(
        op.pathParams.map((p) => [p, p === 'team_id' ? TEAM_IDS[op.league] : rosterAthleteId()]),
      );
      upstream.requests.clear();
      if (op.suffix === 'summary') {
        // Without an event id ESPN answers nothing useful: refused before any request.
        const error = await rejection(c[name](params, { returnParsed: false }));
        expect(error, name).toBeInstanceOf(InvalidParamsError);
        expect((error as InvalidParamsError).param).toBe('event_id');
        expect(upstream.requests.count(), name).toBe(0);
        continue;
      }
      if (op.suffix === 'player_info') {
        // ESPN's /athletes/{id} answers 404 since 2026-09, and the simulator plays that ESPN.
        const error = await rejection(c[name](params, { returnParsed: false }));
        expect((error as CourtsideError).code, name).toBe('UPSTREAM_NOT_FOUND');
        expect((error as UpstreamHttpError).status).toBe(404);
      } else {
        const raw = await c[name](params, { returnParsed: false });
        expect(raw, name).toBeTypeOf('object');
        expect(raw).not.toBeNull();
      }
      // The calendar's 404 is answered from the scoreboard: a second request, to the scoreboard.
      expect(upstream.requests.count(), name).toBe(op.suffix === 'calendar' ? 2 : 1);
      const request = upstream.requests.entries[0];
      expect(request?.path).toBe(
        op.path
          .replace('{league}', ESPN_SEGMENT[op.league])
          .replace(/\{\w+\}/, params[op.pathParams[0] ?? ''] ?? ''),
      );
      // No parameters beyond the path: no query string at all, but for the college team lists,
      // which ask for all of Division I's ~360 teams (ESPN answers 50 without a limit).
      const collegeTeams = op.suffix === 'teams_site' && op.league.endsWith('-college');
      expect(request?.query).toEqual(collegeTeams ? { limit: '500' } : {});
      expect(request?.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
    }
    expect(DEFAULT_USER_AGENT).toMatch(/^courtside\/\d+\.\d+\.\d+ \(\+https:\/\/\S+\)$/);
  });

  it('sends query parameters under their upstream names', async () => {
    await client({ cache: false }).mens_scoreboard(
      { dates: '20241201', season_type: 2, limit: 5 },
      { returnParsed: false },
    );
    expect(upstream.requests.entries[0]?.query).toEqual({ dates: '20241201', seasontype: '2', limit: '5' });
  });

  it('accepts return_parsed as an alias and a configured User-Agent', async () => {
    const c = client({ cache: false, userAgent: 'courtside-test/1 (+https://example.org/contact)' });
    const raw = await c.call('mens_draft', {}, { return_parsed: false });
    expect(raw).toBeTypeOf('object');
    expect(upstream.requests.entries[0]?.headers['user-agent']).toBe(
      'courtside-test/1 (+https://example.org/contact)',
    );
  });
});

describe('validation before any I/O', () => {
  it('makes no upstream request for invalid or unknown calls', async () => {
    const c = client();
    const bad = await rejection(c.mens_scoreboard({ dates: '20240230' }));
    expect(bad).toBeInstanceOf(InvalidParamsError);
    expect((bad as InvalidParamsError).param).toBe('dates');
    expect(await rejection(c.mens_summary({ event_id: '1', extra: 'x' }))).toBeInstanceOf(InvalidParamsError);
    expect(await rejection(c.mens_team({}))).toBeInstanceOf(InvalidParamsError);
    expect(await rejection(c.call('womens_standings'))).toBeInstanceOf(UnknownOperationError);
    for (const options of [{ table: 'nope' }, { flavour: 'pandas' as 'rows' }]) {
      const error = await rejection(c.mens_summary({ event_id: '401585607' }, options));
      expect((error as CourtsideError).code).toBe('INVALID_OPTIONS');
    }
    expect(await rejection(c.mens_news({}, { table: 'plays' }))).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(await rejection(c.call('womens_player_info', { athlete_id: '1' }))).toBeInstanceOf(
      UnknownOperationError,
    );
    expect(upstream.requests.count()).toBe(0);
  });

  it('refuses bad client options, naming the field', () => {
    for (const [options, field] of [
      [{ upstream: 'ftp://example.org' }, 'upstream'],
      [{ upstream: 'not a url' }, 'upstream'],
      [{ upstream: 'http://example.org/?to=elsewhere' }, 'upstream'],
      [{ timeoutMs: 0 }, 'timeoutMs'],
      [{ retries: -1 }, 'retries'],
      [{ concurrency: 1.5 }, 'concurrency'],
      [{ cacheMaxBytes: 0 }, 'cacheMaxBytes'],
      [{ userAgent: 'a\r\nx-injected: 1' }, 'userAgent'],
    ] as const) {
      expect(() => createEspnClient(options), field).toThrow(InvalidConfigError);
      try {
        createEspnClient(options);
      } catch (error) {
        expect((error as InvalidConfigError).field).toBe(field);
      }
    }
  });
});

describe('retries', () => {
  it('retries 5xx and succeeds', async () => {
    upstream.faults.failNext(2, { status: 503 });
    const raw = await client({ cache: false }).mens_draft({}, { returnParsed: false });
    expect(raw).toBeTypeOf('object');
    expect(upstream.requests.count()).toBe(3);
    expect(upstream.requests.entries.map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it('gives up after the configured retries with UpstreamHttpError(status, url)', async () => {
    upstream.faults.failNext(5, { status: 500 });
    const error = await rejection(
      client({ cache: false, retries: 2 }).mens_news({}, { returnParsed: false }),
    );
    expect(error).toBeInstanceOf(UpstreamHttpError);
    expect((error as UpstreamHttpError).code).toBe('UPSTREAM_HTTP');
    expect((error as UpstreamHttpError).status).toBe(500);
    expect((error as UpstreamHttpError).url).toBe(`${upstream.url}/apis/site/v2/sports/basketball/nba/news`);
    expect(upstream.requests.count()).toBe(3);
  });

  it('does not retry a 4xx other than 429', async () => {
    upstream.faults.failNext(1, { status: 404 });
    const error = await rejection(client({ cache: false }).mens_draft({}, { returnParsed: false }));
    expect((error as UpstreamHttpError).status).toBe(404);
    expect(upstream.requests.count()).toBe(1);
  });

  it('honours Retry-After on 429', async () => {
    upstream.faults.failNext(1, { status: 429, retryAfter: 1 });
    // The computed backoff is a few ms; only Retry-After can make the gap reach a second.
    await client({ cache: false }).mens_injuries({}, { returnParsed: false });
    const [first, second] = upstream.requests.entries;
    expect(first?.status).toBe(429);
    expect(second?.status).toBe(200);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('stops when Retry-After asks for longer than maxRetryAfterMs', async () => {
    upstream.faults.failNext(1, { status: 503, retryAfter: 30 });
    const error = await rejection(
      client({ cache: false, maxRetryAfterMs: 1_000 }).mens_transactions({}, { returnParsed: false }),
    );
    expect((error as UpstreamHttpError).status).toBe(503);
    expect(upstream.requests.count()).toBe(1);
  });

  it('times out a hanging request with UpstreamTimeoutError, and retries it', async () => {
    upstream.faults.hangNext(1);
    const error = await rejection(
      client({ cache: false, timeoutMs: 300, retries: 0 }).mens_draft({}, { returnParsed: false }),
    );
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    expect((error as UpstreamTimeoutError).code).toBe('UPSTREAM_TIMEOUT');
    expect((error as UpstreamTimeoutError).timeoutMs).toBe(300);

    upstream.requests.clear();
    upstream.faults.hangNext(1);
    const raw = await client({ cache: false, timeoutMs: 300, retries: 1 }).mens_draft(
      {},
      { returnParsed: false },
    );
    expect(raw).toBeTypeOf('object');
    expect(upstream.requests.count()).toBe(2);
  });

  it('fails with UpstreamNetworkError after retrying a refused connection', async () => {
    const port = await closedPort();
    const before = await counterValue(upstreamRequests, { operation: 'mens_calendar', status: 'network' });
    const c = client({ upstream: `http://127.0.0.1:${port}`, retries: 2 });
    const error = await rejection(c.mens_calendar({}, { returnParsed: false }));
    expect(error).toBeInstanceOf(UpstreamNetworkError);
    expect((error as CourtsideError).code).toBe('UPSTREAM_NETWORK');
    const after = await counterValue(upstreamRequests, { operation: 'mens_calendar', status: 'network' });
    expect(after - before).toBe(3);
  });

  it('reports a body that is not JSON as UpstreamPayloadError', async () => {
    upstream.faults.malformedNext(1);
    const error = await rejection(client({ cache: false }).mens_draft({}, { returnParsed: false }));
    expect(error).toBeInstanceOf(UpstreamPayloadError);
    expect((error as CourtsideError).code).toBe('UPSTREAM_PAYLOAD');
  });
});

describe('sharing and caching', () => {
  it('single-flight: concurrent identical calls share one upstream request', async () => {
    upstream.faults.set({ latency: 200 });
    const c = client({ cache: false });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => c.mens_scoreboard({ dates: '20241201' }, { returnParsed: false })),
    );
    expect(upstream.requests.count()).toBe(1);
    for (const r of results) expect(r).toBe(results[0]);
    // A different request is not joined.
    await Promise.all([
      c.mens_scoreboard({ dates: '20241201' }, { returnParsed: false }),
      c.womens_scoreboard({ dates: '20240601' }, { returnParsed: false }),
    ]);
    expect(upstream.requests.count()).toBe(3);
  });

  it('a caller that aborts stops waiting while the shared request completes for others', async () => {
    upstream.faults.set({ latency: 300 });
    const c = client({ cache: false });
    const controller = new AbortController();
    const aborted = c.mens_scoreboard({}, { returnParsed: false, signal: controller.signal });
    const other = c.mens_scoreboard({}, { returnParsed: false });
    controller.abort();
    expect(await rejection(aborted)).toMatchObject({ name: 'AbortError' });
    expect(await other).toBeTypeOf('object');
    expect(upstream.requests.count()).toBe(1);
  });

  it('serves within the TTL, then revalidates with If-None-Match and reuses the body on 304', async () => {
    let now = 1_000_000;
    const c = client({ now: () => now });
    const ttl = OPERATIONS.get('mens_scoreboard')?.ttlMs ?? 0;
    const hitsBefore = await counterValue(upstreamCacheHits, { operation: 'mens_scoreboard', kind: 'ttl' });
    const first = await c.mens_scoreboard({ dates: '20241201' }, { returnParsed: false });
    now += ttl - 1;
    const second = await c.mens_scoreboard({ dates: '20241201' }, { returnParsed: false });
    expect(second).toBe(first);
    expect(upstream.requests.count()).toBe(1);
    expect(await counterValue(upstreamCacheHits, { operation: 'mens_scoreboard', kind: 'ttl' })).toBe(
      hitsBefore + 1,
    );

    now += 2;
    const third = await c.mens_scoreboard({ dates: '20241201' }, { returnParsed: false });
    expect(third).toBe(first);
    expect(upstream.requests.count()).toBe(2);
    const [initial, revalidation] = upstream.requests.entries;
    expect(initial?.headers['if-none-match']).toBeUndefined();
    expect(revalidation?.headers['if-none-match']).toBeTruthy();
    expect(revalidation?.status).toBe(304);

    // The 304 renewed the entry: fresh again for a full TTL.
    now += ttl - 1;
    await c.mens_scoreboard({ dates: '20241201' }, { returnParsed: false });
    expect(upstream.requests.count()).toBe(2);
  });

  it('fresh: true skips the TTL but still sends the conditional request', async () => {
    const c = client();
    await c.womens_news({}, { returnParsed: false });
    const again = await c.womens_news({}, { returnParsed: false, fresh: true });
    expect(again).toBeTypeOf('object');
    expect(upstream.requests.count()).toBe(2);
    expect(upstream.requests.entries[1]?.headers['if-none-match']).toBeTruthy();
    expect(upstream.requests.entries[1]?.status).toBe(304);
  });

  it('forgets a response nobody used for a minute: the next call is not conditional', async () => {
    let now = 1_000_000;
    const c = client({ now: () => now });
    // Scoreboards: a TTL of 5 s, so they are kept for the idle minute (news, 5 min, for 10).
    const scoreboard = (league: 'mens' | 'womens') =>
      c.call(`${league}_scoreboard`, {}, { returnParsed: false, fresh: true });
    await scoreboard('womens');
    now += 30_000;
    await scoreboard('mens'); // another response stored: the cache sweeps; the women's is 30 s old
    await scoreboard('womens');
    now += 61_000;
    await scoreboard('mens');
    await scoreboard('womens');
    const womens = upstream.requests.entries.filter((e) => e.path.includes('/wnba/'));
    expect(womens.map((e) => [e.status, Boolean(e.headers['if-none-match'])])).toEqual([
      [200, false],
      [304, true],
      [200, false],
    ]);
  });

  it('keeps at most `concurrency` requests in flight to the host', async () => {
    upstream.faults.set({ latency: 300 });
    const c = client({ cache: false, concurrency: 2 });
    await Promise.all(
      ['1', '2', '3', '4', '5', '6'].map((team_id) => c.mens_team({ team_id }, { returnParsed: false })),
    );
    const arrivals = upstream.requests.entries.map((r) => r.at).sort((a, b) => a - b);
    expect(arrivals).toHaveLength(6);
    // Two at a time, each held 300 ms: the third can only arrive once one of the first two is done.
    expect((arrivals[2] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(250);
    expect((arrivals[4] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(550);
  });

  it('cache: false sends every call upstream without validators', async () => {
    const c = client({ cache: false });
    await c.mens_draft({}, { returnParsed: false });
    await c.mens_draft({}, { returnParsed: false });
    expect(upstream.requests.count()).toBe(2);
    expect(upstream.requests.entries[1]?.headers['if-none-match']).toBeUndefined();
  });
});

describe('lifecycle', () => {
  it('close is idempotent and later calls fail without a request', async () => {
    const c = createEspnClient({ upstream: upstream.url });
    await c.mens_calendar({}, { returnParsed: false });
    await Promise.all([c.close(), c.close()]);
    await c.close();
    upstream.requests.clear();
    expect(await rejection(c.mens_calendar({}, { returnParsed: false }))).toBeInstanceOf(
      UpstreamNetworkError,
    );
    expect(upstream.requests.count()).toBe(0);
  });

  it('has one method per operation', () => {
    const c = client();
    for (const name of OPERATION_NAMES) expect(typeof c[name]).toBe('function');
    expect(c.upstream).toBe(upstream.url);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An upstream of the test's own making: `handler` answers; the client has no cache, no retries. */
async function withUpstream(handler: RequestListener, use: (c: EspnClient) => Promise<void>): Promise<void> {
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await use(client({ upstream: `http://127.0.0.1:${port}`, cache: false, retries: 0 }));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('compressed bodies', () => {
  it('inflates gzip and br bodies and refuses a corrupt one', async () => {
    const body = JSON.stringify({ events: [{ id: '1' }] });
    const handler: RequestListener = (req, res) => {
      const coding = req.url?.includes('dates=20240102') ? 'br' : 'gzip';
      const data = req.url?.includes('dates=20240103')
        ? Buffer.from('not gzip at all')
        : coding === 'gzip'
          ? gzipSync(body)
          : brotliCompressSync(body);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
      res.end(data);
    };
    await withUpstream(handler, async (c) => {
      for (const dates of ['20240101', '20240102']) {
        expect(await c.mens_scoreboard({ dates }, { returnParsed: false })).toEqual(JSON.parse(body));
      }
      const error = await rejection(c.mens_scoreboard({ dates: '20240103' }, { returnParsed: false }));
      expect(error).toBeInstanceOf(UpstreamPayloadError);
    });
  });
});

describe('bodies that arrive in pieces', () => {
  it('decodes a UTF-8 character split across two chunks', async () => {
    // Two-, three- and four-byte characters, each cut in the middle by a chunk boundary.
    const body = JSON.stringify({ athletes: ['Luka Dončić', 'Nikola Jokić', '€ 1', '🏀 Müller'] });
    const bytes = Buffer.from(body);
    const cuts: number[] = [];
    for (let i = 1; i < bytes.length; i++) if (((bytes[i] as number) & 0xc0) === 0x80) cuts.push(i);
    expect(cuts.length).toBeGreaterThan(5);
    const handler: RequestListener = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
      let from = 0;
      const next = (): void => {
        const to = cuts.shift() ?? bytes.length;
        res.write(bytes.subarray(from, to));
        from = to;
        // A pause between writes, so each piece reaches the client as a chunk of its own.
        if (from < bytes.length) setTimeout(next, 2);
        else res.end();
      };
      next();
    };
    await withUpstream(handler, async (c) => {
      expect(await c.mens_scoreboard({ dates: '20240101' }, { returnParsed: false })).toEqual(
        JSON.parse(body),
      );
    });
  });
});

describe('the tabular form (default)', () => {
  it('parses with parseOperation: Arrow by default, rows on request', async () => {
    const c = client();
    const raw = (await c.mens_scoreboard({ dates: '20241201' }, { returnParsed: false })) as {
      events: Array<{ id: string }>;
    };
    expect(raw.events.length).toBeGreaterThan(0);
    const table = (await c.mens_scoreboard({ dates: '20241201' })) as Table;
    expect(table).toBeInstanceOf(Table);
    expect(table.numRows).toBe(raw.events.length);
    const rows = (await c.mens_scoreboard({ dates: '20241201' }, { flavour: 'rows' })) as {
      game_id: string;
    }[];
    expect(rows.map((r) => r.game_id)).toEqual(raw.events.map((e) => e.id));
    expect(rows.map((r) => r.game_id)).toEqual(table.getChild('game_id')?.toArray());
    const pandas = await c.call('mens_scoreboard', { dates: '20241201' }, { return_as_pandas: true });
    expect(pandas).toEqual(rows);
    // One upstream request: the parsed forms share the cached payload.
    expect(upstream.requests.count()).toBe(1);
  });

  itRecorded(!HAVE_FIXTURES)("a recorded game's plays, as rows of the plays table", async () => {
    const c = client();
    const plays = (await c.mens_summary(
      { event_id: '401585607' },
      { flavour: 'rows', table: 'plays' },
    )) as unknown[];
    expect(plays).toHaveLength(
      loadFixture<{ plays: unknown[] }>('mens/summary__401585607_final.json').plays.length,
    );
  });
});

describe('an empty body, read as an empty list', () => {
  it('gives zero rows and an empty Arrow table for every operation whose rule is an empty list', () => {
    const lists = [...OPERATIONS.values()].filter((op) => op.whenMissing === 'empty-list');
    expect(lists.map((op) => op.suffix)).toContain('team_injuries');
    for (const op of lists) {
      expect(parseOperation(op.name, {}, { flavour: 'rows' }), op.name).toEqual([]);
      expect((parseOperation(op.name, {}) as Table).numRows, op.name).toBe(0);
    }
  });
});
