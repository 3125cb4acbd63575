import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobsDropped } from '../../src/core/metrics.js';
import type { GameEvent } from '../../src/model/events.js';
import { createEventProducer } from '../../workers/producer.js';
import { EVENTS_QUEUE, bullPrefix, fromJobId, toJobId } from '../../workers/queues.js';
import { getTestRedis } from '../support/redis.js';
import { GameScript } from '../support/events.js';
import { freePort } from '../support/free-port.js';
import { RedisProcess, haveRedisServer } from '../support/redis-process.js';
import { waitFor } from '../support/wait-for.js';

function manyEvents(n: number): GameEvent[] {
  const g = new GameScript(`4019${Math.floor(Math.random() * 1e6)}`).started();
  while (g.events.length < n) g.scores(g.events.length % 2 ? 'home' : 'away', 2);
  return g.events.slice(0, n);
}

describe('job ids', () => {
  it('maps event ids reversibly to ids BullMQ accepts', () => {
    for (const id of ['mens:401585607:play.added:40158560712', 'womens:1:play.updated:2:ab%3A', '123']) {
      const jobId = toJobId(id);
      expect(jobId).not.toContain(':');
      expect(`${parseInt(jobId, 10)}`).not.toBe(jobId);
      expect(fromJobId(jobId)).toBe(id);
    }
  });
});

const shared = await getTestRedis();

describe.skipIf(!shared)('producer on the shared Redis', () => {
  afterAll(async () => shared?.cleanup());

  it('queues each event once, also when a restarted producer adds it again', async () => {
    const redis = shared!;
    const events = manyEvents(40);
    const first = createEventProducer({ redisUrl: redis.url, prefix: redis.prefix });
    for (const e of events) first.add(e);
    await first.flush();
    await first.close();
    const second = createEventProducer({ redisUrl: redis.url, prefix: redis.prefix });
    for (const e of events) second.add(e); // a restart replaying the same events
    await second.flush();
    expect(second.stats()).toMatchObject({ buffered: 0, dropped: 0, enqueued: 40 });
    await second.close();

    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(EVENTS_QUEUE, { connection, prefix: bullPrefix(redis.prefix, EVENTS_QUEUE) });
    try {
      const waiting = await queue.getWaiting(0, 1000);
      expect(waiting).toHaveLength(40);
      expect(waiting.map((j) => fromJobId(j.id!)).sort()).toEqual(events.map((e) => e.id).sort());
      expect((waiting[0]?.data as GameEvent).league).toBe('mens');
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});

const canSpawn = await haveRedisServer();

describe.skipIf(!canSpawn)('producer while Redis restarts (own redis-server child)', () => {
  let server: RedisProcess;
  const seen = new Set<string>();
  let worker: Worker | undefined;
  let connection: Redis | undefined;

  beforeAll(async () => {
    server = new RedisProcess(await freePort());
    await server.start();
    connection = new Redis(server.url, { maxRetriesPerRequest: null });
    connection.on('error', () => undefined);
    worker = new Worker(
      EVENTS_QUEUE,
      async (job) => {
        seen.add((job.data as GameEvent).id);
      },
      { connection, prefix: 'restart', concurrency: 8 },
    );
    worker.on('error', () => undefined);
    await worker.waitUntilReady();
  });
  afterAll(async () => {
    await worker?.close(true).catch(() => undefined);
    connection?.disconnect();
    await server.stop();
  });
  afterEach(() => seen.clear());

  it('buffers while Redis is down and loses nothing inside the bound', async () => {
    const logged: string[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void logged.push((JSON.parse(line) as { msg: string }).msg) },
    );
    const producer = createEventProducer({
      redisUrl: server.url,
      prefix: 'restart:',
      retryDelayMs: 100,
      logger,
    });
    try {
      const events = manyEvents(300);
      for (const e of events.slice(0, 100)) producer.add(e);
      await producer.flush();
      // Jobs in Redis when it dies are Redis's loss, not the producer's: let the worker take them.
      await waitFor(() => seen.size === 100, 20_000, 'first 100 consumed');

      await server.stop();
      for (const e of events.slice(100, 200)) producer.add(e); // mid-stream, Redis gone
      await waitFor(() => producer.stats().buffering, 20_000, 'buffering');
      for (const e of events.slice(200)) producer.add(e);
      expect(producer.stats().buffered).toBe(200);

      await server.start();
      await producer.flush();
      expect(producer.stats()).toMatchObject({ buffered: 0, dropped: 0, buffering: false });
      await waitFor(() => seen.size === 300, 30_000, 'all 300 consumed');
      expect([...seen].sort()).toEqual(events.map((e) => e.id).sort());
      // Logged once when buffering started and once when the buffer drained.
      expect(logged.filter((m) => m.includes('buffering'))).toHaveLength(1);
      expect(logged.filter((m) => m.includes('drained'))).toHaveLength(1);
    } finally {
      await producer.close();
    }
  });

  it('beyond the bound drops the oldest, counts them in the metric, and delivers the rest', async () => {
    const before = (await jobsDropped.get()).values[0]?.value ?? 0;
    const producer = createEventProducer({
      redisUrl: server.url,
      prefix: 'restart:',
      bufferLimit: 50,
      retryDelayMs: 100,
    });
    try {
      await server.stop();
      const events = manyEvents(80);
      for (const e of events) producer.add(e);
      expect(producer.stats()).toMatchObject({ buffered: 50, dropped: 30 });
      expect(((await jobsDropped.get()).values[0]?.value ?? 0) - before).toBe(30);
      await server.start();
      await producer.flush();
      expect(producer.stats()).toMatchObject({ buffered: 0, dropped: 30, enqueued: 50 });
      await waitFor(() => seen.size >= 50, 30_000, '50 consumed');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(seen.size).toBe(50);
      // The newest are kept (the oldest may be the one batch already in flight when Redis died).
      for (const e of events.slice(31)) expect(seen.has(e.id), e.id).toBe(true);
    } finally {
      await producer.close();
    }
  });
});
