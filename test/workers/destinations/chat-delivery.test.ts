import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { parse as parseYaml } from 'yaml';
import { WEBHOOKS_QUEUE, bullPrefix, createRedisConnection, queueName } from '../../../workers/queues.js';
import { describe, expect, it } from 'vitest';
import { registry } from '../../../src/core/metrics.js';
import { webhooksFailed, webhooksRetry } from '../../../src/cli/webhooks.js';
import type { Alert } from '../../../workers/alerts/types.js';
import { chatRequest } from '../../../workers/destinations/index.js';
import type { ChatKind } from '../../../workers/destinations/schema.js';
import type { ChatSubscriber } from '../../../workers/rules-file.js';
import { openFailedDeliveries } from '../../../workers/webhooks/failed.js';
import { GameScript } from '../../support/events.js';
import { getTestRedis, redisPerTest, type TestRedis } from '../../support/redis.js';
import { waitFor } from '../../support/wait-for.js';
import {
  CHAT_KINDS,
  FAKE_SECRETS,
  messageKey,
  startFake,
  type FakePlatform,
  type Fault,
} from '../fakes/index.js';
import { ALERTING_RULES as RULES, alertingGame, startPipeline } from '../pipeline.js';

const redisAvailable = await getTestRedis();
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * A debug logger whose lines are kept, without the production logger's redaction paths: what it
 * holds is what the code itself put in its log lines.
 */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: pino({ level: 'debug' }, { write: (line: string) => lines.push(line) }), lines };
}

/** The messages the fake should have got, in the order the alerts fired. */
function expectedMessages(kind: ChatKind, sub: ChatSubscriber, alerts: readonly Alert[]): string[] {
  return alerts.map((alert) => {
    const req = chatRequest(sub, alert);
    return messageKey(kind, req.headers, req.body);
  });
}

function deliveredMessages(kind: ChatKind, fake: FakePlatform): string[] {
  return fake.delivered().map((r) => messageKey(kind, r.headers, r.body));
}

/** Every string value under the prefix: job data, failed reasons, stack traces. */
async function dumpRedis(url: string, prefix: string): Promise<string> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  const out: string[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const type = await client.type(key);
        if (type === 'string') out.push((await client.get(key)) ?? '');
        else if (type === 'hash') out.push(JSON.stringify(await client.hgetall(key)));
        else if (type === 'list') out.push(...(await client.lrange(key, 0, -1)));
        else if (type === 'zset') out.push(...(await client.zrange(key, 0, -1)));
        else if (type === 'set') out.push(...(await client.smembers(key)));
        else if (type === 'stream') out.push(JSON.stringify(await client.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
  return out.join('\n');
}

async function captureStdout(run: () => Promise<unknown>): Promise<string> {
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => (out.push(String(chunk)), true)) as typeof process.stdout.write;
  try {
    await run();
  } finally {
    process.stdout.write = write;
  }
  return out.join('');
}

describe.skipIf(!redisAvailable)('chat destinations (real Redis, fake platforms on loopback)', () => {
  let redis!: TestRedis;
  const closers = redisPerTest((r) => (redis = r));

  async function run(
    kind: ChatKind,
    script: (n: number) => Fault | null,
    rulesFile: Record<string, unknown> = {},
    options: { maxInlineWaitMs?: number; webhookWorkers?: number; logger?: Logger } = {},
  ) {
    const { fake, subscriber } = await startFake(kind, (req) => script(req.n));
    closers.push(fake.close);
    const pipeline = await startPipeline(
      redis,
      {
        ...RULES,
        timeoutMs: 2_000,
        ...rulesFile,
        subscribers: [{ id: `${kind}-bot`, minIntervalMs: 20, ...subscriber }],
      },
      options,
    );
    closers.push(pipeline.close);
    const game = alertingGame();
    for (const event of game.events) pipeline.producer.add(event);
    await waitFor(() => pipeline.alerts.length >= 8, 30_000, 'every alert');
    const sub = pipeline.config.subscribers[0] as ChatSubscriber;
    return { fake, pipeline, sub };
  }

  it.each(CHAT_KINDS)(
    '%s: a 429 in the platform form waits its retry time, uses no attempt; every alert once, in order',
    async (kind) => {
      // Two 429s for the first alert (1 s each), a slow answer later: one attempt is all it gets.
      const { fake, pipeline, sub } = await run(
        kind,
        (n) =>
          n === 0 || n === 1
            ? { kind: 'rate-limit', retryAfterS: 1 }
            : n === 4
              ? { kind: 'slow', ms: 400 }
              : null,
        { attempts: 1 },
      );
      await waitFor(
        () => fake.delivered().length >= 8,
        30_000,
        () => `8 deliveries, got ${fake.delivered().length}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(deliveredMessages(kind, fake)).toEqual(expectedMessages(kind, sub, pipeline.alerts));
      const [first, second, third] = fake.requests;
      expect([first?.status, second?.status, third?.status]).toEqual([429, 429, 200]);
      // The waits are the platform's: a second each (a little less for timer granularity).
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
      expect(third!.at - second!.at).toBeGreaterThanOrEqual(990);
      expect(fake.requests).toHaveLength(10);
    },
    60_000,
  );

  it.each(CHAT_KINDS)(
    '%s: a 5xx is retried with backoff and logged; each alert still posted once',
    async (kind) => {
      const { logger, lines } = capturingLogger();
      const { fake, pipeline, sub } = await run(
        kind,
        (n) => (n === 0 || n === 3 ? { kind: 'server-error' } : null),
        {
          attempts: 3,
          backoffMs: 50,
        },
        { logger },
      );
      await waitFor(() => fake.delivered().length >= 8, 30_000, 'deliveries');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fake.requests.filter((r) => r.status >= 500)).toHaveLength(2);
      expect(deliveredMessages(kind, fake).sort()).toEqual(
        expectedMessages(kind, sub, pipeline.alerts).sort(),
      );
      const failures = lines.filter((l) => l.includes('chat delivery failed; retrying with backoff'));
      expect(failures).toHaveLength(2);
      expect(failures[0]).toMatch(/answered 50\d/);
      for (const secret of FAKE_SECRETS) expect(lines.join('')).not.toContain(secret);
    },
  );

  it.each(CHAT_KINDS)(
    '%s: 401 and 404 go to the failed set at once with the platform message; `webhooks retry` delivers them',
    async (kind) => {
      let broken = true;
      const { logger, lines } = capturingLogger();
      const { fake } = await run(
        kind,
        (n) => (broken ? (n % 2 === 0 ? { kind: 'unauthorized' } : { kind: 'not-found' }) : null),
        {
          attempts: 8,
        },
        { logger },
      );
      const failed = openFailedDeliveries({ redisUrl: redis.url, prefix: redis.prefix });
      closers.push(failed.close);
      await waitFor(async () => (await failed.list()).length >= 8, 30_000, 'failed deliveries');
      const rows = await failed.list();
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
      expect(fake.requests).toHaveLength(8);
      const platform = {
        discord: [
          /answered 401: Invalid Webhook Token \(code 50027\)/,
          /answered 404: Unknown Webhook \(code 10015\)/,
        ],
        slack: [/answered 403: invalid_token/, /answered 404: no_service/],
        telegram: [/answered 401: Unauthorized/, /answered 404: Not Found/],
        ntfy: [/answered 401: unauthorized/, /answered 404: page not found/],
      }[kind];
      for (const pattern of platform) expect(rows.some((r) => pattern.test(r.lastError))).toBe(true);

      const flags = { redis: redis.url, prefix: redis.prefix };
      const listing = await captureStdout(() => webhooksFailed(flags, {}));
      expect(listing.split('\n').filter((l) => l.startsWith('w.'))).toHaveLength(8);
      broken = false;
      const retried = await captureStdout(() => webhooksRetry([], { ...flags, all: true }, {}));
      expect(retried).toContain('retried 8 deliveries');
      await waitFor(() => fake.delivered().length >= 8, 30_000, 'retried deliveries');
      // Each permanent error is logged once, with the platform's message.
      expect(lines.filter((l) => l.includes('chat delivery permanent; in the failed set'))).toHaveLength(8);
      // No secret in the failed list, anywhere in Redis, in the metrics or in a log line.
      const everything = [
        listing,
        await dumpRedis(redis.url, redis.prefix),
        await registry.metrics(),
        ...lines,
      ].join('\n');
      for (const secret of FAKE_SECRETS) expect(everything).not.toContain(secret);
      // ntfy topic URLs carry no secret (an access token goes in a header).
      if (kind !== 'ntfy') expect(listing).toContain('[redacted]');
    },
    60_000,
  );

  it('the SSRF guard refuses a chat destination on a private address unless allowed, at once, token redacted', async () => {
    const { logger, lines } = capturingLogger();
    const { fake } = await run(
      'telegram',
      () => null,
      { allowPrivateAddresses: false, attempts: 5 },
      { logger },
    );
    const failed = openFailedDeliveries({ redisUrl: redis.url, prefix: redis.prefix });
    closers.push(failed.close);
    await waitFor(async () => (await failed.list()).length >= 8, 30_000, 'refused deliveries');
    const rows = await failed.list();
    expect(fake.requests).toHaveLength(0);
    for (const row of rows) {
      expect(row).toMatchObject({ kind: 'telegram', attempts: 1 });
      expect(row.lastError).toMatch(/127\.0\.0\.1, a private or special-use address/);
      expect(row.lastError).toContain('bot[redacted]/sendMessage');
      expect(row.lastError).not.toContain(FAKE_SECRETS[0]);
    }
    const refused = lines.filter((l) => l.includes('chat delivery refused; in the failed set'));
    expect(refused).toHaveLength(8);
    expect(refused[0]).toContain('bot[redacted]/sendMessage');
    expect(lines.join('')).not.toContain(FAKE_SECRETS[0]);
  });

  it('a job run again after it posted (a crash after the answer) posts nothing', async () => {
    const { fake } = await run('ntfy', () => null);
    await waitFor(() => fake.delivered().length >= 8, 30_000, 'deliveries');
    const connection = createRedisConnection(redis.url);
    const name = queueName(WEBHOOKS_QUEUE, 'default');
    const queue = new Queue(name, { connection, prefix: bullPrefix(redis.prefix, name) });
    closers.push(async () => {
      await queue.close();
      connection.disconnect();
    });
    const [job] = await queue.getCompleted(0, 0);
    expect(job).toBeDefined();
    await job!.retry('completed');
    await waitFor(
      async () => (await job!.isCompleted()) && (await queue.getJobCounts('wait', 'active')).active === 0,
      10_000,
      'the rerun',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.requests).toHaveLength(8);
  });

  it('an answer slower than timeoutMs is a failed attempt, retried (the platform may then show it twice)', async () => {
    const { fake, pipeline, sub } = await run(
      'slack',
      (n) => (n === 0 ? { kind: 'slow', ms: 1_500 } : null),
      {
        attempts: 2,
        backoffMs: 50,
        timeoutMs: 500,
      },
    );
    await waitFor(() => fake.delivered().length >= 9, 30_000, 'deliveries');
    // The first request was accepted after the worker gave up on it: a chat has no idempotency key.
    const first = fake.requests[0]!;
    expect(fake.requests.filter((r) => r.body === first.body)).toHaveLength(2);
    expect(new Set(deliveredMessages('slack', fake))).toEqual(
      new Set(expectedMessages('slack', sub, pipeline.alerts)),
    );
  });

  it('a wait longer than the inline limit moves the job to the delayed set without using an attempt', async () => {
    const { fake, pipeline, sub } = await run(
      'telegram',
      (n) => (n === 0 ? { kind: 'rate-limit', retryAfterS: 2 } : null),
      { attempts: 1 },
      { maxInlineWaitMs: 200 },
    );
    await waitFor(() => fake.delivered().length >= 8, 30_000, 'deliveries');
    const retry = fake.requests.slice(1).find((r) => r.body === fake.requests[0]?.body);
    expect(retry?.status).toBe(200);
    expect(retry!.at - fake.requests[0]!.at).toBeGreaterThanOrEqual(1_990);
    expect(deliveredMessages('telegram', fake).sort()).toEqual(
      expectedMessages('telegram', sub, pipeline.alerts).sort(),
    );
  });

  it('discord: pacing by the bucket headers never trips the limit, across two workers, each alert once', async () => {
    // Three games at once: 24 alerts into a bucket of 5 per second. Every answer takes longer than
    // the spacing, so a worker's next slot comes while the other's request is still in flight:
    // pacing that learnt of the empty bucket only from the answer that says so would send into it.
    const { fake, subscriber } = await startFake('discord', () => ({ kind: 'slow', ms: 150 }), {
      count: 5,
      windowMs: 1_000,
    });
    closers.push(fake.close);
    const pipeline = await startPipeline(
      redis,
      { ...RULES, subscribers: [{ id: 'busy', minIntervalMs: 100, ...subscriber }] },
      { webhookWorkers: 2, alertWorkers: 2 },
    );
    closers.push(pipeline.close);
    const games = [alertingGame(), alertingGame(), alertingGame()];
    const longest = Math.max(...games.map((g) => g.events.length));
    for (let i = 0; i < longest; i++)
      for (const g of games) if (g.events[i]) pipeline.producer.add(g.events[i]!);
    await waitFor(() => pipeline.alerts.length >= 24, 30_000, 'every alert');
    await waitFor(() => fake.delivered().length >= 24, 30_000, 'deliveries');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The fake answers a request past its bucket with a 429: none means the limit was never hit.
    expect(fake.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(fake.requests).toHaveLength(24);
    const sub = pipeline.config.subscribers[0] as ChatSubscriber;
    expect(deliveredMessages('discord', fake).sort()).toEqual(
      expectedMessages('discord', sub, pipeline.alerts).sort(),
    );
  }, 60_000);

  it("examples/discord-bot.yaml as committed: one team's final scores, and nothing else, to a Discord channel", async () => {
    const { fake, subscriber } = await startFake('discord');
    closers.push(fake.close);
    const file = parseYaml(readFileSync(join(ROOT, 'examples', 'discord-bot.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    // startPipeline allows private addresses: the fake listens on loopback.
    const pipeline = await startPipeline(redis, file, {
      env: { DISCORD_WEBHOOK_URL: String(subscriber.url) },
    });
    closers.push(pipeline.close);
    const lakers = alertingGame();
    const other = new GameScript(`40${Math.floor(Math.random() * 1e7)}`, 'mens', Date.now(), {
      home: { id: '18', abbreviation: 'NY' },
      away: { id: '14', abbreviation: 'MIA' },
    });
    other.started();
    other.scores('home', 2);
    other.scores('away', 3);
    other.ended();
    for (const event of [...lakers.events, ...other.events]) pipeline.producer.add(event);
    await waitFor(() => pipeline.alerts.length >= 2, 30_000, 'both final scores');
    expect(pipeline.alerts.map((a) => a.rule)).toEqual(['final_score', 'final_score']);
    await waitFor(() => fake.delivered().length >= 1, 30_000, 'the Lakers final');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fake.requests).toHaveLength(1);
    const posted = JSON.parse(fake.requests[0]!.body) as {
      content: string;
      embeds: Array<{ title: string }>;
    };
    expect(posted.content).toMatch(/^🏁 Final: BOS \d+ - LAL \d+$/);
    expect(posted.embeds[0]!.title).toContain('LAL');
  });
});
