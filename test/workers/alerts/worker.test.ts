import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { alertsStale } from '../../../src/core/metrics.js';
import type { Alert, GameRuleState } from '../../../workers/alerts/types.js';
import { EVENTS_QUEUE, bullPrefix, queueName } from '../../../workers/queues.js';
import { getTestRedis, redisPerTest, type TestRedis } from '../../support/redis.js';
import { GameScript } from '../../support/events.js';
import { SECRET, expectedAlertIds, startPipeline } from '../pipeline.js';
import { startReceiver } from '../../support/receiver.js';
import { waitFor } from '../../support/wait-for.js';

const available = await getTestRedis();

/** A long back-and-forth game: many lead changes and runs, so any reordering would show. */
function seesawGame(start = Date.now() - 60_000): GameScript {
  const g = new GameScript(`40${Math.floor(Math.random() * 1e7)}`, 'mens', start);
  g.started().winprob(0.6);
  for (let period = 1; period <= 5; period++) {
    if (period > 1) g.toPeriod(period, period > 4 ? '5:00' : '12:00');
    for (let i = 0; i < 12; i++) {
      const side = (i + period) % 3 === 0 ? 'home' : 'away';
      g.at(`${period > 4 ? 4 - Math.floor(i / 3) : 11 - i}:${String(59 - i).padStart(2, '0')}`);
      g.scores(side, 1 + (i % 3), { athlete: side === 'home' ? '1966' : '3917376' });
      if (i % 4 === 0) g.winprob(side === 'home' ? 0.55 : 0.2, 0.5);
    }
  }
  return g.ended();
}

describe.skipIf(!available)('alert worker (real Redis)', () => {
  let redis!: TestRedis;
  const closers = redisPerTest((r) => (redis = r));

  it('two workers with 4-way concurrency evaluate each game in seq order and alert once', async () => {
    const rulesFile = {
      rules: {
        lead_change: { fromPeriod: 1 },
        run: { points: 5 },
        final_score: {},
        player_points: { thresholds: [20, 40] },
      },
    };
    const pipeline = await startPipeline(redis, rulesFile, { alertWorkers: 2, concurrency: 4 });
    closers.push(pipeline.close);
    const games = [seesawGame(), seesawGame()];
    const expected = games.flatMap((g) => expectedAlertIds(g, rulesFile)).sort();
    expect(expected.length).toBeGreaterThan(20);
    // Interleave the two games, as the engine would.
    const a = games[0]!.events;
    const b = games[1]!.events;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i]) pipeline.producer.add(a[i]!);
      if (b[i]) pipeline.producer.add(b[i]!);
    }
    await waitFor(() => pipeline.alerts.length >= expected.length, 60_000, 'all alerts');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pipeline.alerts.map((x) => x.id).sort()).toEqual(expected);

    // The inspection list holds them too (newest first).
    const client = new Redis(redis.url);
    try {
      const listed = (await client.lrange(`${redis.prefix}bot:default:alerts`, 0, -1)).map(
        (s) => (JSON.parse(s) as Alert).id,
      );
      expect(listed.sort()).toEqual(expected);
    } finally {
      client.disconnect();
    }
  });

  it('never fires an alert twice, even when its game is evaluated again from scratch', async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const rulesFile = { subscribers: [{ id: 'r', url: receiver.url, secret: SECRET }] };
    const game = seesawGame();
    const expected = expectedAlertIds(game, rulesFile);
    const first = await startPipeline(redis, rulesFile);
    for (const event of game.events) first.producer.add(event);
    await waitFor(
      () => first.alerts.length >= expected.length && receiver.accepted().length >= expected.length,
      60_000,
      'first pass',
    );
    await first.close();

    // Lose the rule state and the queue's job ids: a worker restart with an empty slate.
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    for (const name of [EVENTS_QUEUE, queueName(EVENTS_QUEUE, 'default')]) {
      const queue = new Queue(name, { connection: client, prefix: bullPrefix(redis.prefix, name) });
      await queue.obliterate({ force: true });
      await queue.close();
    }
    await client.del(`${redis.prefix}bot:default:alerts:state:mens:${game.gameId}`);
    client.disconnect();

    const second = await startPipeline(redis, rulesFile);
    closers.push(second.close);
    for (const event of game.events) second.producer.add(event);
    await second.producer.flush();
    // Wait until the game's state is rebuilt to its last event, then check nothing fired again.
    const probe = new Redis(redis.url);
    try {
      await waitFor(
        async () => {
          const raw = await probe.get(`${redis.prefix}bot:default:alerts:state:mens:${game.gameId}`);
          return raw !== null && (JSON.parse(raw) as GameRuleState).lastSeq === game.events.length;
        },
        60_000,
        'second pass',
      );
    } finally {
      probe.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.alerts).toHaveLength(0);
    expect(receiver.accepted()).toHaveLength(expected.length);
  });

  it('does not deliver an alert again after Redis lost every key, fired marks included', async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const rulesFile = { subscribers: [{ id: 'r', url: receiver.url, secret: SECRET }] };
    const game = seesawGame();
    const expected = expectedAlertIds(game, rulesFile);
    const pipeline = await startPipeline(redis, rulesFile);
    closers.push(pipeline.close);
    for (const event of game.events) pipeline.producer.add(event);
    await waitFor(() => receiver.accepted().length >= expected.length, 60_000, 'first pass');

    // A Redis restart without persistence, as far as this prefix goes: every key is gone.
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys(`${redis.prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      expect(await client.keys(`${redis.prefix}bot:default:alerts:fired:*`)).toEqual([]);
      // The same history again (an engine that started a game over): the same alert ids.
      for (const event of game.events) pipeline.producer.add(event);
      await pipeline.producer.flush();
      await waitFor(
        async () => {
          const raw = await client.get(`${redis.prefix}bot:default:alerts:state:mens:${game.gameId}`);
          return raw !== null && (JSON.parse(raw) as GameRuleState).lastSeq === game.events.length;
        },
        60_000,
        'second pass',
      );
    } finally {
      client.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pipeline.alerts).toHaveLength(expected.length);
    expect(receiver.accepted()).toHaveLength(expected.length);
  });

  it('applies an event after a short wait when its predecessor never comes', async () => {
    const pipeline = await startPipeline(redis, { rules: { final_score: {} } }, { gapWaitMs: 300 });
    closers.push(pipeline.close);
    const game = new GameScript('401999003').started();
    game.scores('home', 2);
    game.scores('away', 3);
    game.ended();
    // seq 2 is lost upstream (say, dropped by a full producer buffer).
    for (const event of game.events.filter((e) => e.seq !== 2)) pipeline.producer.add(event);
    await waitFor(() => pipeline.alerts.length >= 1, 30_000, 'final alert despite the gap');
    expect(pipeline.alerts[0]?.text).toBe('Final: BOS 3 - LAL 2');
  });

  it('drops alerts whose moment is older than the horizon, and counts them', async () => {
    const before = (await alertsStale.get()).values[0]?.value ?? 0;
    const rulesFile = { staleAfterSeconds: 600, rules: { final_score: {} } };
    const pipeline = await startPipeline(redis, rulesFile);
    closers.push(pipeline.close);
    const old = new GameScript('401999001', 'mens', Date.now() - 20 * 60_000).started();
    old.scores('home', 2);
    old.ended();
    const fresh = new GameScript('401999002', 'mens', Date.now()).started();
    fresh.scores('away', 2);
    fresh.ended();
    for (const e of [...old.events, ...fresh.events]) pipeline.producer.add(e);
    await waitFor(
      async () => ((await alertsStale.get()).values[0]?.value ?? 0) - before >= 1,
      30_000,
      'stale count',
    );
    await waitFor(() => pipeline.alerts.length >= 1, 30_000, 'fresh alert');
    expect(pipeline.alerts.map((a) => a.id)).toEqual(['final_score:mens:401999002:final']);
    expect(((await alertsStale.get()).values[0]?.value ?? 0) - before).toBe(1);
  });
});
