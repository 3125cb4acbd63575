import { Queue } from 'bullmq';
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GameEvent } from '../../src/model/events.js';
import type { ConfigFlags } from '../../src/daemon/config.js';
import { testDaemonConfig } from '../support/daemon-config.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { bullPrefix, createRedisConnection, EVENTS_QUEUE, toJobId } from '../../workers/queues.js';
import { finishedSummaries, HAVE_FIXTURES, loadFixture, describeRecorded } from '../support/fixtures.js';
import { getTestRedis, type TestRedis } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';

// A recorded NBA game spans about 2.5 h of wall clock; at 1000x it plays out in about 9 s.
const SPEED = 1_000;
// Resolved once per file; the Redis test is skipped, with the reason printed, when none answers.
const REDIS = await getTestRedis();
await REDIS?.cleanup();
const GAME = finishedSummaries().find((f) => f.league === 'mens' && !f.qualifier.includes('roundtrip'));

interface Final {
  header: { id: string; competitions: Array<{ competitors: Array<{ homeAway: string; score: string }> }> };
}

function finalScore(file: string): { home: number; away: number } {
  const final = loadFixture<Final>(file);
  const side = (s: string) =>
    Number(final.header.competitions[0]?.competitors.find((c) => c.homeAway === s)?.score);
  return { home: side('home'), away: side('away') };
}

/** Opens a WebSocket, subscribes to everything from the start of the log, and collects event frames until `game.ended`. */
function watchUntilEnd(url: string): {
  ws: WebSocket;
  events: GameEvent[];
  first: Promise<void>;
  ended: Promise<void>;
  closed: Promise<number>;
} {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`);
  const events: GameEvent[] = [];
  let onFirst: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (onFirst = resolve));
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  const ended = new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' })));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
      if (frame.type === 'error') reject(new Error(`error frame: ${JSON.stringify(frame)}`));
      if (frame.type !== 'event' || !frame.event) return;
      const event = frame.event;
      events.push(event);
      onFirst();
      if (event.type === 'game.ended') resolve();
    });
  });
  return { ws, events, first, ended, closed };
}

describeRecorded(!HAVE_FIXTURES || !GAME)(`createDaemon`, () => {
  let upstream: RunningUpstream | undefined;
  let daemon: Daemon | undefined;
  let redis: TestRedis | undefined;
  afterEach(async () => {
    await daemon?.close();
    await upstream?.close();
    await redis?.cleanup();
    daemon = undefined;
    upstream = undefined;
    redis = undefined;
  });

  async function playGame(extra: ConfigFlags = {}) {
    const file = GAME?.file ?? '';
    upstream = await startUpstream({ replay: [file], speed: SPEED, logger: silentLogger });
    daemon = createDaemon(testDaemonConfig(upstream.url, extra), { logger: silentLogger });
    await daemon.start();
    const watch = watchUntilEnd(daemon.url);
    await watch.first;
    // While the game is on, it is listed as live.
    const live = (await (await fetch(`${daemon.url}/v1/games/live`)).json()) as {
      games: Array<{ gameId: string; state: string }>;
    };
    await watch.ended;
    return { watch, live, score: finalScore(`${GAME?.league}/${GAME?.suffix}__${GAME?.qualifier}.json`) };
  }

  it('streams a replayed game to a WebSocket client until game.ended, and serves its state', async () => {
    const { watch, live, score } = await playGame();
    expect(live.games.map((g) => [g.gameId, g.state])).toEqual([[upstream?.games[0]?.id, 'in']]);
    const types = watch.events.map((e) => e.type);
    // Subscribed from the start of the log: the whole game, once.
    expect(types.filter((t) => t === 'game.started')).toHaveLength(1);
    expect(types.filter((t) => t === 'game.ended')).toHaveLength(1);
    expect(types.filter((t) => t === 'play.added').length).toBeGreaterThan(100);
    const scores = watch.events.filter((e) => e.type === 'score.changed');
    expect(scores.at(-1)?.data).toMatchObject({ score });
    const ended = watch.events.find((e) => e.type === 'game.ended');
    expect(ended?.data).toMatchObject({ score });
    // Offsets from the log increase strictly: nothing out of order, nothing twice.
    const offsets = watch.events.map((e) => e.offset ?? '');
    expect(new Set(offsets).size).toBe(offsets.length);

    const gameId = ended?.gameId ?? '';
    const res = await fetch(`${daemon?.url}/v1/games/mens/${gameId}`);
    expect(res.status).toBe(200);
    const snapshot = (await res.json()) as { state: string; score: unknown };
    expect(snapshot.score).toEqual(score);

    const health = await fetch(`${daemon?.url}/healthz`);
    const body = (await health.json()) as {
      status: string;
      upstream: { lastSuccessAt: string | null };
      pollers: unknown[];
    };
    expect(health.status).toBe(200);
    expect(body.upstream.lastSuccessAt).not.toBeNull();
    expect(body.pollers.length).toBeGreaterThan(0);

    await daemon?.close();
    expect(await watch.closed).toBe(1001);
    // Idempotent.
    await daemon?.close();
  });

  it.skipIf(!REDIS)('runs on Redis: the shared log, the job producer and a Redis health check', async () => {
    redis = await getTestRedis();
    if (!redis) throw new Error('Redis went away since the file started');
    const { watch } = await playGame({ redis: redis.url, prefix: redis.prefix });
    expect(daemon?.bus.kind).toBe('redis');
    expect(watch.events.some((e) => e.type === 'game.started')).toBe(true);
    const health = (await (await fetch(`${daemon?.url}/healthz`)).json()) as {
      redis: { configured: boolean; ok: boolean };
    };
    expect(health.redis).toMatchObject({ configured: true, ok: true });
    // Everything in the shared log reached the client (the last poll may still be landing).
    await waitFor(async () => (await daemon?.bus.bounds())?.last === watch.events.at(-1)?.offset, 10_000);
    // Every event became a job (the producer was fed from the engine), keyed by event id.
    const connection = createRedisConnection(redis.url);
    const queue = new Queue(EVENTS_QUEUE, { connection, prefix: bullPrefix(redis.prefix, EVENTS_QUEUE) });
    try {
      await waitFor(async () => (await queue.count()) >= watch.events.length, 10_000);
      const ended = watch.events.find((e) => e.type === 'game.ended');
      expect(await queue.getJob(toJobId(ended?.id ?? ''))).toBeDefined();
      // /metrics reads the queue's depth from Redis at scrape time.
      const metrics = await (await fetch(`${daemon?.url}/metrics`)).text();
      const depth = new RegExp(`courtside_queue_depth\\{queue="${EVENTS_QUEUE}"\\} ([0-9]+)`).exec(metrics);
      expect(Number(depth?.[1])).toBeGreaterThanOrEqual(watch.events.length);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it('closes within the time limit even when the upstream hangs', async () => {
    upstream = await startUpstream({ replay: [GAME?.file ?? ''], speed: SPEED, logger: silentLogger });
    upstream.faults.hangNext(1_000);
    daemon = createDaemon(testDaemonConfig(upstream.url), { logger: silentLogger, closeTimeoutMs: 3_000 });
    await daemon.start();
    const started = Date.now();
    await daemon.close();
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
