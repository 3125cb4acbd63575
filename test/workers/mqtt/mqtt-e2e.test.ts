import { connectAsync } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { createEspnClient } from '../../../src/espn-client/client.js';
import { silentLogger } from '../../../src/core/log.js';
import type { GameEvent } from '../../../src/model/events.js';
import { startUpstream } from '../../../src/simulator/index.js';
import { createEngine } from '../../../streams/engine.js';
import { getTestRedis, type TestRedis } from '../../support/redis.js';
import { haveMosquitto, MosquittoProcess } from '../../support/mosquitto-process.js';
import { waitFor } from '../../support/wait-for.js';
import { startPipeline } from '../pipeline.js';
import { checkAgainstSchema, type HA_SCHEMA } from './ha-schema.js';

const available = (await getTestRedis()) && (await haveMosquitto());

describe.skipIf(!available)('a simulated game through the engine to Home Assistant over MQTT', () => {
  const closers: Array<() => Promise<unknown>> = [];
  let redis: TestRedis | undefined;
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await redis?.cleanup();
  });

  it('simulator → engine → alert worker → mosquitto: configs, states and moments of both teams', async () => {
    redis = (await getTestRedis())!;
    const broker = await MosquittoProcess.start();
    closers.push(() => broker.close());
    const upstream = await startUpstream({
      simulate: { games: 1, seed: 5, leagues: ['mens'] },
      speed: 1_000,
      logger: silentLogger,
    });
    closers.push(() => upstream.close());
    const client = createEspnClient({ upstream: upstream.url, logger: silentLogger });
    closers.push(async () => client.close());
    const engine = createEngine({
      client,
      leagues: ['mens'],
      intervals: { summaryMs: 250, scoreboardLiveMs: 500 },
      allowFastIntervals: true,
      logger: silentLogger,
    });
    closers.push(() => engine.close());
    // The teams are the simulator's draw: follow the two of the first event, fed once the worker runs.
    const events: GameEvent[] = [];
    const subscription = engine.events$.subscribe((event) => events.push(event));
    closers.push(async () => subscription.unsubscribe());
    engine.start();
    await waitFor(() => events.length > 0, 30_000, 'the first event');
    const { home, away } = events[0]!.teams;
    const pipeline = await startPipeline(redis, {
      rules: { final_score: {}, lead_change: {}, run: {}, close_game: {} },
      subscribers: [{ kind: 'mqtt', url: broker.url, teams: [home.abbreviation, away.id] }],
    });
    closers.push(pipeline.close);
    const watcher = await connectAsync(broker.url);
    closers.push(() => watcher.endAsync());
    const moments: { topic: string; body: { event_type: string; id: string } }[] = [];
    watcher.on('message', (topic, payload, packet) => {
      if (topic.endsWith('/event') && !packet.retain)
        moments.push({ topic, body: JSON.parse(payload.toString()) });
    });
    await watcher.subscribeAsync('courtside/team/+/event', { qos: 1 });
    let fed = 0;
    const feed = setInterval(() => {
      while (fed < events.length) pipeline.producer.add(events[fed++]!);
    }, 10);
    closers.push(async () => clearInterval(feed));

    const ended = () => events.find((e) => e.type === 'game.ended');
    await waitFor(() => ended() !== undefined, 90_000, 'game.ended from the engine');
    const final = ended()!.data as { score: { home: number; away: number } };
    const homeKey = home.abbreviation.toLowerCase();
    const awayKey = away.id.toLowerCase();
    const retained = async () => {
      const seen = new Map<string, string>();
      const probe = await connectAsync(broker.url);
      probe.on('message', (topic, payload) => seen.set(topic, payload.toString()));
      await probe.subscribeAsync(['courtside/#', 'homeassistant/#']);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await probe.endAsync();
      return seen;
    };
    await waitFor(
      async () => {
        const s = (await retained()).get(`courtside/team/${homeKey}/state`);
        return s !== undefined && (JSON.parse(s) as { state: string }).state === 'post';
      },
      30_000,
      'the final state',
    );
    const topics = await retained();
    expect(JSON.parse(topics.get(`courtside/team/${homeKey}/state`)!)).toMatchObject({
      team: home.abbreviation,
      opponent: away.abbreviation,
      score: final.score.home,
      opponent_score: final.score.away,
      state: 'post',
      playing: false,
    });
    expect(JSON.parse(topics.get(`courtside/team/${awayKey}/state`)!)).toMatchObject({
      team: away.abbreviation,
      score: final.score.away,
      opponent_score: final.score.home,
    });
    const configs = [...topics].filter(([t]) => t.startsWith('homeassistant/'));
    expect(configs).toHaveLength(18);
    for (const [topic, payload] of configs) {
      const component = topic.split('/')[1] as keyof typeof HA_SCHEMA;
      expect(checkAgainstSchema(component, JSON.parse(payload) as Record<string, unknown>), topic).toEqual(
        [],
      );
    }
    expect(topics.get('courtside/status')).toBe('online');

    // Each team's device heard every moment once, ending on the final.
    await waitFor(() => moments.filter((m) => m.body.event_type === 'final').length === 2, 10_000, 'finals');
    const ids = moments.map((m) => m.body.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const key of [homeKey, awayKey]) {
      const mine = moments
        .filter((m) => m.topic === `courtside/team/${key}/event`)
        .map((m) => m.body.event_type);
      expect(mine.filter((t) => t === 'scored').length).toBeGreaterThan(10);
      expect(mine.at(-1)).toBe('final');
    }
    expect(pipeline.alerts.some((a) => a.rule === 'final_score')).toBe(true);
  }, 150_000);
});
