import { randomUUID } from 'node:crypto';
import { connectAsync } from 'mqtt';
import { GameScript } from '../test/support/events.js';
import { MosquittoProcess } from '../test/support/mosquitto-process.js';
import { deleteKeys } from '../test/support/redis.js';
import { createAlertWorker } from '../workers/alerts/worker.js';
import { createEventProducer } from '../workers/producer.js';
import { parseAlertsConfig } from '../workers/rules-file.js';
import { percentile } from './percentile.js';

/**
 * A score to Home Assistant: producer → `courtside-events` → alert worker (fan-out, per-game
 * ordering, rule state in Redis) → MQTT publish → a private mosquitto → a subscriber on the team's
 * state topic. Scores of one game, paced at SCORES_PER_SECOND (a game's busiest rate many times
 * over), each timed from the producer's `add` to the state message with that score. Prints one
 * JSON line. Needs REDIS_URL (default redis://127.0.0.1:6379) and mosquitto.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCORES = 300;
const SCORES_PER_SECOND = 20;

async function main(): Promise<void> {
  const prefix = `bench-mqtt-${randomUUID()}:`;
  const broker = await MosquittoProcess.start();
  const config = parseAlertsConfig({
    rules: { final_score: {}, lead_change: {}, run: {} },
    subscribers: [{ kind: 'mqtt', url: broker.url, teams: ['LAL', 'BOS'] }],
  });
  const worker = createAlertWorker({ redisUrl: REDIS_URL, prefix, config });
  const producer = createEventProducer({ redisUrl: REDIS_URL, prefix });
  const watcher = await connectAsync(broker.url);
  const arrived = new Map<number, number>();
  watcher.on('message', (_topic, payload) => {
    const state = JSON.parse(payload.toString()) as { score: number };
    if (!arrived.has(state.score)) arrived.set(state.score, performance.now());
  });
  await watcher.subscribeAsync('courtside/team/lal/state', { qos: 1 });
  try {
    await worker.ready();
    const game = new GameScript(`40${Math.floor(Math.random() * 1e7)}`);
    game.started();
    producer.add(game.events[0]!);
    const sent = new Map<number, number>();
    for (let i = 0; i < SCORES; i++) {
      game.scores('home', 1);
      sent.set(game.score.home, performance.now());
      producer.add(game.events.at(-1)!);
      await new Promise((resolve) => setTimeout(resolve, 1000 / SCORES_PER_SECOND));
    }
    const deadline = Date.now() + 10_000;
    while (!arrived.has(SCORES) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const latencies = [...sent]
      .filter(([score]) => arrived.has(score))
      .map(([score, at]) => arrived.get(score)! - at)
      .sort((a, b) => a - b);
    const ms = (p: number) => Math.round(percentile(latencies, p) * 10) / 10;
    console.log(
      JSON.stringify({
        bench: 'mqtt',
        scores: SCORES,
        perSecond: SCORES_PER_SECOND,
        received: latencies.length,
        scoreToStateTopicMs: { p50: ms(0.5), p95: ms(0.95), p99: ms(0.99), max: ms(1) },
        node: process.version,
      }),
    );
  } finally {
    await watcher.endAsync();
    await producer.close();
    await worker.close();
    await broker.close();
    await deleteKeys(REDIS_URL, prefix);
  }
}

await main();
