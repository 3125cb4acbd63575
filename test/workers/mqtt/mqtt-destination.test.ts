import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_EVENT_TYPES } from '../../../workers/mqtt/team-state.js';
import { EVENTS_QUEUE, bullPrefix, queueName } from '../../../workers/queues.js';
import { getTestRedis, redisPerTest, type TestRedis } from '../../support/redis.js';
import { GameScript } from '../../support/events.js';
import { haveMosquitto, MosquittoProcess } from '../../support/mosquitto-process.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';
import { waitFor } from '../../support/wait-for.js';
import { startPipeline } from '../pipeline.js';
import { checkAgainstSchema, type HA_SCHEMA } from './ha-schema.js';

const available = (await getTestRedis()) && (await haveMosquitto());

/** A client that records every message (retained ones too), with when it arrived. */
async function observe(url: string, topics: string[]) {
  const client: MqttClient = await connectAsync(url, {
    reconnectPeriod: 50,
    clientId: `obs-${Math.random()}`,
  });
  const messages: { topic: string; payload: string; retain: boolean; at: number }[] = [];
  client.on('message', (topic, payload, packet) =>
    messages.push({ topic, payload: payload.toString('utf8'), retain: packet.retain, at: performance.now() }),
  );
  await client.subscribeAsync(topics, { qos: 1 });
  return {
    messages,
    /** The newest payload per topic. */
    latest(): Map<string, string> {
      return new Map(messages.map((m) => [m.topic, m.payload]));
    },
    close: () => client.endAsync(),
  };
}

/** The retained messages a fresh subscriber gets right now: what Home Assistant would read on start. */
async function retainedNow(url: string, topic: string): Promise<Map<string, string>> {
  const o = await observe(url, [topic]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await o.close();
  return new Map(o.messages.filter((m) => m.retain).map((m) => [m.topic, m.payload]));
}

function followed(broker: MosquittoProcess, extra: Record<string, unknown> = {}) {
  return {
    rules: { final_score: {}, lead_change: { fromPeriod: 1 }, run: { points: 6 } },
    subscribers: [{ id: 'ha', kind: 'mqtt', url: broker.url, teams: ['LAL', 'BOS'], ...extra }],
  };
}

describe.skipIf(!available)('MQTT destination (real mosquitto, real Redis)', () => {
  let redis!: TestRedis;
  const closers = redisPerTest((r) => (redis = r));
  let broker!: MosquittoProcess;

  beforeAll(async () => {
    broker = await MosquittoProcess.start();
  });
  afterAll(async () => {
    await broker?.close();
  });

  it('announces each followed team to Home Assistant: discovery configs that follow its schema, online', async () => {
    const pipeline = await startPipeline(redis, followed(broker));
    closers.push(pipeline.close);
    await waitFor(
      async () => (await retainedNow(broker.url, 'homeassistant/#')).size === 18,
      10_000,
      '18 configs',
    );
    const configs = await retainedNow(broker.url, 'homeassistant/#');
    const expectedTopics = ['lal', 'bos'].flatMap((team) => [
      ...['score', 'opponent', 'opponent_score', 'period', 'clock', 'game_state', 'win_probability'].map(
        (o) => `homeassistant/sensor/courtside_${team}/${o}/config`,
      ),
      `homeassistant/binary_sensor/courtside_${team}/playing/config`,
      `homeassistant/event/courtside_${team}/game/config`,
    ]);
    expect([...configs.keys()].sort()).toEqual(expectedTopics.sort());
    const uniqueIds = new Set<string>();
    for (const [topic, payload] of configs) {
      const component = topic.split('/')[1] as keyof typeof HA_SCHEMA;
      const config = JSON.parse(payload) as Record<string, unknown>;
      expect(checkAgainstSchema(component, config), topic).toEqual([]);
      uniqueIds.add(config.unique_id as string);
      const team = topic.split('/')[2]!.replace('courtside_', '');
      expect(config.state_topic).toBe(`courtside/team/${team}/${component === 'event' ? 'event' : 'state'}`);
      expect(config.availability_topic).toBe('courtside/status');
      expect((config.device as { identifiers: string[] }).identifiers).toEqual([`courtside_${team}`]);
    }
    expect(uniqueIds.size).toBe(18);
    const event = JSON.parse(configs.get('homeassistant/event/courtside_bos/game/config')!) as {
      event_types: string[];
    };
    expect(event.event_types).toEqual([...ENTITY_EVENT_TYPES]);
    expect((await retainedNow(broker.url, 'courtside/status')).get('courtside/status')).toBe('online');

    // Home Assistant restarted on a broker that lost the configs: its birth message brings them back.
    const ha = await connectAsync(broker.url);
    closers.push(() => ha.endAsync());
    for (const topic of configs.keys()) await ha.publishAsync(topic, '', { retain: true, qos: 1 });
    expect((await retainedNow(broker.url, 'homeassistant/+/+/+/config')).size).toBe(0);
    await ha.publishAsync('homeassistant/status', 'online', { qos: 1 });
    await waitFor(
      async () => (await retainedNow(broker.url, 'homeassistant/+/+/+/config')).size === 18,
      5_000,
      'the configs again',
    );
  });

  it('puts a score on its state topic within 100 ms of the event, and says who scored', async () => {
    const pipeline = await startPipeline(redis, followed(broker));
    closers.push(pipeline.close);
    const o = await observe(broker.url, ['courtside/team/+/state', 'courtside/team/+/event']);
    closers.push(o.close);
    const game = new GameScript(`40${Math.floor(Math.random() * 1e7)}`);
    game.started();
    pipeline.producer.add(game.events[0]!);
    await waitFor(() => o.latest().has('courtside/team/lal/state'), 10_000, 'the first state');
    const delays: number[] = [];
    for (let i = 1; i <= 7; i++) {
      game.scores(i % 2 ? 'home' : 'away', 2);
      const sentAt = performance.now();
      pipeline.producer.add(game.events.at(-1)!);
      const want = { home: game.score.home, away: game.score.away };
      await waitFor(
        () => {
          const lal = o.latest().get('courtside/team/lal/state');
          const s = lal ? (JSON.parse(lal) as { score: number; opponent_score: number }) : undefined;
          return s?.score === want.home && s.opponent_score === want.away;
        },
        5_000,
        `score ${i}`,
      );
      const arrived = o.messages.findLast((m) => m.topic === 'courtside/team/lal/state')!.at;
      delays.push(arrived - sentAt);
    }
    // The median of seven: one score held up by another test's burst on this shared machine does
    // not decide it, a path that is slow every time does.
    const median = [...delays].sort((a, b) => a - b)[3]!;
    expect(median, `delays ${delays.map((d) => d.toFixed(1)).join(', ')} ms`).toBeLessThan(100);
    const bos = JSON.parse(o.latest().get('courtside/team/bos/state')!) as Record<string, unknown>;
    expect(bos).toMatchObject({
      team: 'BOS',
      opponent: 'LAL',
      home: false,
      score: game.score.away,
      opponent_score: game.score.home,
      period: 1,
      period_label: '1st',
      state: 'in',
      playing: true,
      game_id: game.gameId,
    });
    // Seven scores: each team's device hears its own as `scored` and the other's as `opponent_scored`.
    await waitFor(() => o.messages.filter((m) => m.topic.endsWith('/event')).length >= 16, 5_000, 'events');
    const types = (team: string) =>
      o.messages
        .filter((m) => m.topic === `courtside/team/${team}/event`)
        .map((m) => (JSON.parse(m.payload) as { event_type: string }).event_type);
    // Home scores on odd turns, away on even ones.
    const turns = [1, 2, 3, 4, 5, 6, 7];
    expect(types('lal')).toEqual([
      'game_started',
      ...turns.map((i) => (i % 2 ? 'scored' : 'opponent_scored')),
    ]);
    expect(types('bos')).toEqual([
      'game_started',
      ...turns.map((i) => (i % 2 ? 'opponent_scored' : 'scored')),
    ]);
    expect(o.messages.filter((m) => m.topic.endsWith('/event')).every((m) => !m.retain)).toBe(true);
  });

  it('survives a broker restart mid-game: every topic retained again, no moment twice', async () => {
    const pipeline = await startPipeline(redis, followed(broker));
    closers.push(pipeline.close);
    const o = await observe(broker.url, ['courtside/team/+/event']);
    closers.push(o.close);
    const game = new GameScript(`40${Math.floor(Math.random() * 1e7)}`);
    game.started().winprob(0.7);
    for (let i = 0; i < 6; i++) game.scores(i % 3 ? 'home' : 'away', 3);
    for (const e of game.events) pipeline.producer.add(e);
    await waitFor(() => o.messages.length >= 14, 10_000, 'the first half');
    const before = await retainedNow(broker.url, '#');

    await broker.stop();
    // The game goes on while the broker is away.
    const from = game.events.length;
    game.toPeriod(2);
    for (let i = 0; i < 4; i++) game.scores(i % 2 ? 'home' : 'away', 2);
    game.winprob(0.8, 0.7).ended();
    for (const e of game.events.slice(from)) pipeline.producer.add(e);
    await pipeline.producer.flush();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await broker.start();

    const final = { home: game.score.home, away: game.score.away };
    await waitFor(
      async () => {
        const lal = (await retainedNow(broker.url, 'courtside/team/lal/state')).get(
          'courtside/team/lal/state',
        );
        return lal !== undefined && (JSON.parse(lal) as { state: string }).state === 'post';
      },
      15_000,
      'the final state retained again',
    );
    const after = await retainedNow(broker.url, '#');
    // Every topic retained before the outage is retained again (the broker kept nothing).
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect(after.get('courtside/status')).toBe('online');
    for (const [topic, payload] of after) {
      if (topic.startsWith('homeassistant/')) expect(payload).toBe(before.get(topic));
    }
    expect(JSON.parse(after.get('courtside/team/lal/state')!)).toMatchObject({
      score: final.home,
      opponent_score: final.away,
      state: 'post',
      period_label: 'Final',
      playing: false,
      win_probability: 80,
    });
    expect(JSON.parse(after.get('courtside/team/bos/state')!)).toMatchObject({
      score: final.away,
      opponent_score: final.home,
      win_probability: 20,
    });
    // Every moment once: the start, 10 scores (each heard by both teams as scored or
    // opponent_scored), the final, and the lead changes and runs, on both teams' devices.
    const types = () => o.messages.map((m) => (JSON.parse(m.payload) as { event_type: string }).event_type);
    await waitFor(
      () => types().includes('final') && types().filter((t) => t === 'final').length === 2,
      15_000,
      'the final',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ids = o.messages.map((m) => (JSON.parse(m.payload) as { id: string }).id);
    expect(ids.length - new Set(ids).size, 'moments announced twice').toBe(0);
    const count = (type: string) => types().filter((t) => t === type).length;
    expect(count('game_started')).toBe(2);
    expect(count('scored')).toBe(10);
    expect(count('opponent_scored')).toBe(10);
    expect(count('final')).toBe(2);
    expect(count('lead_change') + count('run')).toBeGreaterThan(0);
    const lal = o.messages.filter((m) => m.topic === 'courtside/team/lal/event');
    expect((JSON.parse(lal.at(-1)!.payload) as { event_type: string }).event_type).toBe('final');
  });

  it('announces nothing twice when a game is evaluated again from scratch', async () => {
    const o = await observe(broker.url, ['courtside/team/+/event']);
    closers.push(o.close);
    const game = new GameScript(`40${Math.floor(Math.random() * 1e7)}`);
    game.started();
    for (let i = 0; i < 3; i++) game.scores('home', 2);
    const first = await startPipeline(redis, followed(broker));
    for (const e of game.events) first.producer.add(e);
    await waitFor(() => o.messages.length >= 8, 10_000, 'the moments');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const firstPass = o.messages.length;
    await first.close();
    // Lose the rule state and the queues' job ids: the same bot applies every event again.
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    for (const name of [EVENTS_QUEUE, queueName(EVENTS_QUEUE, 'default')]) {
      const queue = new Queue(name, { connection: client, prefix: bullPrefix(redis.prefix, name) });
      await queue.obliterate({ force: true });
      await queue.close();
    }
    const stateKey = `${redis.prefix}bot:default:alerts:state:mens:${game.gameId}`;
    await client.del(stateKey);
    const again = await startPipeline(redis, followed(broker));
    closers.push(again.close);
    for (const e of game.events) again.producer.add(e);
    await waitFor(
      async () => {
        const raw = await client.get(stateKey);
        return raw !== null && (JSON.parse(raw) as { lastSeq: number }).lastSeq === game.events.length;
      },
      10_000,
      'the second pass',
    );
    client.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ids = o.messages.map((m) => (JSON.parse(m.payload) as { id: string }).id);
    expect(ids.length).toBe(firstPass);
    expect(new Set(ids).size).toBe(firstPass);
  });

  it('the broker says offline for a daemon whose connection died (last will), online once it is back', async () => {
    const proxy = await startTcpProxy(broker.port);
    closers.push(() => proxy.close());
    const pipeline = await startPipeline(redis, {
      subscribers: [
        { id: 'ha', kind: 'mqtt', url: `mqtt://127.0.0.1:${proxy.port}`, teams: ['BOS'], topicPrefix: 'lwt' },
      ],
    });
    closers.push(pipeline.close);
    const o = await observe(broker.url, ['lwt/status']);
    closers.push(o.close);
    await waitFor(() => o.messages.at(-1)?.payload === 'online', 10_000, 'online');
    proxy.cut();
    await waitFor(() => o.messages.at(-1)?.payload === 'offline', 10_000, 'offline from the will');
    expect((await retainedNow(broker.url, 'lwt/status')).get('lwt/status')).toBe('offline');
    proxy.restore();
    await waitFor(() => o.messages.at(-1)?.payload === 'online', 10_000, 'online again');
  });

  it('plain mode: every event and alert as JSON on its game topic and each team topic, once', async () => {
    const pipeline = await startPipeline(redis, {
      rules: { final_score: {} },
      subscribers: [{ id: 'plain', kind: 'mqtt', url: broker.url, mode: 'plain', topicPrefix: 'hoops/live' }],
    });
    closers.push(pipeline.close);
    const o = await observe(broker.url, ['hoops/live/#']);
    closers.push(o.close);
    const game = new GameScript(`40${Math.floor(Math.random() * 1e7)}`);
    game.started();
    game.scores('away', 3);
    game.ended();
    for (const e of game.events) pipeline.producer.add(e);
    const gameTopic = `hoops/live/mens/game/${game.gameId}/events`;
    // 3 events + the final score alert, on the game's topic and on each team's.
    await waitFor(() => o.messages.filter((m) => m.topic.endsWith('/events')).length >= 12, 10_000, 'events');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const on = (topic: string) =>
      o.messages
        .filter((m) => m.topic === topic)
        .map((m) => JSON.parse(m.payload) as { kind: string; id: string });
    expect(on(gameTopic).map((b) => b.kind)).toEqual(['event', 'event', 'event', 'alert']);
    expect(on(gameTopic).map((b) => b.id)).toEqual([
      ...game.events.map((e) => e.id),
      `final_score:mens:${game.gameId}:final`,
    ]);
    expect(on('hoops/live/mens/team/lal/events')).toEqual(on(gameTopic));
    expect(on('hoops/live/mens/team/bos/events')).toEqual(on(gameTopic));
    const state = await retainedNow(broker.url, `hoops/live/mens/game/${game.gameId}/state`);
    expect(JSON.parse([...state.values()][0]!)).toMatchObject({ state: 'post', score: game.score });
    expect((await retainedNow(broker.url, 'hoops/live/status')).get('hoops/live/status')).toBe('online');
  });

  it('logs in with a username and a password from the environment, and says offline on a clean stop', async () => {
    const secured = await MosquittoProcess.start({ users: [['courtside', 's3cret-pass']] });
    closers.push(() => secured.close());
    const pipeline = await startPipeline(
      redis,
      followed(secured, { username: 'courtside', password: '${MQTT_PASSWORD}' }),
      { env: { MQTT_PASSWORD: 's3cret-pass' } },
    );
    const watcher = await connectAsync(secured.url, { username: 'courtside', password: 's3cret-pass' });
    closers.push(() => watcher.endAsync());
    const statuses: string[] = [];
    watcher.on('message', (_t, p) => statuses.push(p.toString()));
    await watcher.subscribeAsync('courtside/status');
    await waitFor(() => statuses.at(-1) === 'online', 10_000, 'online');
    await pipeline.close();
    await waitFor(() => statuses.at(-1) === 'offline', 5_000, 'offline');
  });
});
