import { afterEach, describe, expect, it } from 'vitest';
import type { GameEvent, GameSnapshot } from '../../../src/model/events.js';
import { createMemoryBus } from '../../../src/bus/memory.js';
import type { Bus, NewGameEvent } from '../../../src/bus/types.js';
import type { DaemonServer } from '../../../src/server/server.js';
import { commit, mapSnapshots, SseClient, startServer, TestClient, until } from '../gateway-harness.js';
import { game, makeEvent, makeSnapshot, type Game } from '../../support/events.js';

/**
 * Snapshots for a subscription with a spoiler delay, through a real server and real clients. The
 * log's clock is set back (the memory bus takes a clock), so events are "logged" tens of seconds
 * ago without waiting: a 30 s delay is tested in about two seconds.
 */

const DELAY_S = 30;
// The newest events are logged this long less than the delay ago: they come due 2 s from now.
const DUE_IN_MS = 2_000;

let bus: Bus;
let server: DaemonServer;
const clients: Array<{ close(): void }> = [];
let logShift = 0;
let gameNo = 0;

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  await bus?.close();
});

/** A fresh game (its events' `seq` start at 1) and a bus whose clock runs `logShift` behind. */
function setup(): Game {
  bus = createMemoryBus({ now: () => Date.now() + logShift });
  gameNo += 1;
  return game('mens', `90${gameNo}`, ['13', 'LAL'], ['2', 'BOS']);
}

async function commitAgo(g: Game, agoMs: number, events: NewGameEvent[]): Promise<GameEvent[]> {
  logShift = -agoMs;
  try {
    return await commit(bus, g, events);
  } finally {
    logShift = 0;
  }
}

/** The snapshot as the engine would store it after `last`. */
function snapshotAfter(g: Game, last: GameEvent): GameSnapshot {
  const data = last.data as { score: { home: number; away: number } };
  return { ...makeSnapshot(g), seq: last.seq, score: data.score };
}

async function connect(url: string): Promise<TestClient> {
  const c = await TestClient.connect(url);
  clients.push(c);
  return c;
}

const scoreOf = (e: GameEvent | undefined): unknown => (e?.data as { score?: unknown } | undefined)?.score;
const previousOf = (e: GameEvent | undefined): unknown =>
  (e?.data as { previous?: unknown } | undefined)?.previous;

describe('snapshots of a delayed subscription', () => {
  it('show the game as it was `delay` ago, then the held-back events in order (WebSocket)', async () => {
    const g = setup();
    // Started first: the live feed dispatches the events, and the delayed snapshot is rewound from
    // its recent events (the SSE test below reads them from the log).
    const snapshots = mapSnapshots();
    server = await startServer({ bus, snapshots });
    const [early] = await commitAgo(g, 40_000, [makeEvent(g)]);
    const scored = makeEvent(g);
    const added = {
      ...makeEvent(g, 'play.added'),
      data: { play: { id: 'p1', sequence_number: '1' }, after: null, index: 0 },
    } as NewGameEvent;
    const held = await commitAgo(g, DELAY_S * 1000 - DUE_IN_MS, [scored, added]);
    const newest = held.at(-1) as GameEvent;
    snapshots.map.set(`${g.league}:${g.gameId}`, snapshotAfter(g, newest));
    await until(() => server.stats().tailOffset === newest.offset, 10_000, 'events dispatched');
    const c = await connect(server.url);
    await c.request(
      { op: 'subscribe', id: 'now', games: [g.gameId], snapshot: true },
      (f) => f.type === 'snapshot',
    );
    const late = await c.request(
      { op: 'subscribe', id: 'late', games: [g.gameId], snapshot: true, delay: DELAY_S },
      (f) => f.type === 'snapshot' && f.sub === 'late',
    );
    // Undelayed: the game now. Delayed: after the early event only, the score before the held ones.
    expect(c.frames.find((f) => f.type === 'snapshot' && f.sub === 'now')?.game).toMatchObject({
      seq: newest.seq,
    });
    expect(late.game).toMatchObject({ seq: early?.seq, score: previousOf(held[0]) });
    await c.next((f) => f.type === 'event' && f.sub === 'late' && (f.event as GameEvent).id === newest.id);
    // Held until `delay` after it was logged (the offset's milliseconds are the log's clock).
    expect(Date.now()).toBeGreaterThanOrEqual(parseInt(newest.offset ?? '', 10) + DELAY_S * 1000);
    const frames = c.frames.filter((f) => f.sub === 'late').map((f) => f.type);
    expect(frames).toEqual(['snapshot', 'event', 'event']);
    expect(c.events('late').map((e) => e.id)).toEqual(held.map((e) => e.id));
  });

  it('take the clock of the newest play then when the plays since pushed it out of the recent ones', async () => {
    const g = setup();
    const play = (id: string, clock: string) =>
      ({
        ...makeEvent(g, 'play.added'),
        data: { play: { id, sequence_number: id, clock_display_value: clock }, after: null, index: 0 },
      }) as NewGameEvent;
    await commitAgo(g, 40_000, [play('1', '11:20')]);
    const held = await commitAgo(g, DELAY_S * 1000 - DUE_IN_MS, [play('2', '10:50')]);
    const newest = held.at(-1) as GameEvent;
    // The snapshot's recent plays hold only the newest: a fast game pushed play 1 out of them.
    const now = { ...makeSnapshot(g), seq: newest.seq, clock: '10:50' };
    now.recentPlays = [(newest.data as { play: GameSnapshot['recentPlays'][number] }).play];
    server = await startServer({ bus, snapshots: mapSnapshots([now]) });
    const c = await connect(server.url);
    const late = await c.request(
      { op: 'subscribe', id: 'late', games: [g.gameId], snapshot: true, delay: DELAY_S },
      (f) => f.type === 'snapshot',
    );
    expect(late.game).toMatchObject({ seq: newest.seq - 1, recentPlays: [], clock: '11:20' });
  });

  it('show the game as it was `delay` ago over SSE too', async () => {
    const g = setup();
    const [early] = await commitAgo(g, 40_000, [makeEvent(g)]);
    const held = await commitAgo(g, DELAY_S * 1000 - DUE_IN_MS, [makeEvent(g), makeEvent(g)]);
    server = await startServer({
      bus,
      snapshots: mapSnapshots([snapshotAfter(g, held.at(-1) as GameEvent)]),
    });
    const c = new SseClient(`${server.url}/v1/stream/sse?games=${g.gameId}&snapshot=1&delay=${DELAY_S}`);
    clients.push(c);
    await until(() => c.events().length === held.length, 10_000, 'held-back events');
    const messages = c.messages().filter((m) => m.event !== undefined);
    expect(messages.map((m) => m.event)).toEqual(['snapshot', 'score.changed', 'score.changed']);
    expect(JSON.parse(messages[0]?.data ?? '{}')).toMatchObject({
      seq: early?.seq,
      score: previousOf(held[0]),
    });
    expect(c.events().map((m) => m.id)).toEqual(held.map((e) => e.offset));
  });

  it('of a game that had no event by then show it before its first event, and only when named', async () => {
    const g = setup();
    const status = {
      ...makeEvent(g, 'game.status'),
      data: { state: 'in', previousState: null, name: 'STATUS_IN_PROGRESS', detail: null, description: null },
    } as NewGameEvent;
    const held = await commitAgo(g, DELAY_S * 1000 - DUE_IN_MS, [status, makeEvent(g)]);
    server = await startServer({
      bus,
      snapshots: mapSnapshots([snapshotAfter(g, held.at(-1) as GameEvent)]),
    });
    const c = await connect(server.url);
    // Without a game filter only games in progress are sent: `delay` ago this one was not.
    await c.request(
      { op: 'subscribe', id: 'all', leagues: ['mens'], snapshot: true, delay: DELAY_S },
      (f) => f.type === 'subscribed',
    );
    const named = await c.request(
      { op: 'subscribe', id: 'named', games: [g.gameId], snapshot: true, delay: DELAY_S },
      (f) => f.type === 'snapshot',
    );
    expect(named.game).toMatchObject({ seq: 0, state: 'pre', score: previousOf(held[1]) });
    await until(() => c.events('all').length === 2 && c.events('named').length === 2, 10_000, 'events');
    expect(c.frames.filter((f) => f.sub === 'all').map((f) => f.type)).toEqual(['event', 'event']);
    expect(scoreOf(c.events('named').at(-1))).toEqual(scoreOf(held[1]));
  });

  it('send the current snapshot and lose no live event when the log is older than the delay', async () => {
    const g = setup();
    const [only] = await commitAgo(g, 120_000, [makeEvent(g)]);
    server = await startServer({ bus, snapshots: mapSnapshots([snapshotAfter(g, only as GameEvent)]) });
    const c = await connect(server.url);
    const late = await c.request(
      { op: 'subscribe', id: 'late', games: [g.gameId], snapshot: true, delay: 1 },
      (f) => f.type === 'snapshot',
    );
    expect(late.game).toMatchObject({ seq: only?.seq });
    const [live] = await commit(bus, g, [makeEvent(g)]);
    await c.next((f) => f.type === 'event' && (f.event as GameEvent).id === live?.id);
    expect(c.events('late').map((e) => e.id)).toEqual([live?.id]);
  });
});
