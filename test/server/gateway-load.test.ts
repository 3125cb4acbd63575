import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { EventType, GameEvent } from '../../src/model/events.js';
import { createMemoryBus } from '../../src/bus/memory.js';
import { compareOffsets } from '../../src/bus/types.js';
import type { DaemonServer } from '../../src/server/server.js';
import { commit, startServer, until } from './gateway-harness.js';
import { game, makeEvent, type Game } from '../support/events.js';

const GAMES: Game[] = [
  game('mens', '401', ['13', 'LAL'], ['2', 'BOS']),
  game('mens', '402', ['18', 'NY'], ['20', 'PHI']),
  game('mens', '403', ['1', 'ATL'], ['5', 'CLE']),
  game('mens', '404', ['14', 'MIA'], ['9', 'GS']),
  game('womens', '501', ['17', 'LV'], ['9', 'NY']),
  game('womens', '502', ['20', 'ATL'], ['5', 'IND']),
];
const TYPES: EventType[] = ['score.changed', 'play.added', 'play.updated', 'game.status'];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Filter {
  leagues?: string[];
  games?: string[];
  teams?: string[];
  types?: string[];
}

function randomFilter(random: () => number): Filter {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const f: Filter = {};
  if (random() < 0.3) f.leagues = [pick(['mens', 'womens'])];
  if (random() < 0.3) f.games = [pick(GAMES).gameId, pick(GAMES).gameId];
  if (random() < 0.3) {
    const g = pick(GAMES);
    f.teams = [random() < 0.5 ? g.home.abbreviation.toLowerCase() : g.away.id];
  }
  if (random() < 0.3) f.types = [pick(TYPES), pick(TYPES)];
  return f;
}

function matches(f: Filter, e: GameEvent): boolean {
  if (f.leagues && !f.leagues.includes(e.league)) return false;
  if (f.games && !f.games.includes(e.gameId)) return false;
  if (f.types && !f.types.includes(e.type)) return false;
  if (f.teams) {
    const keys = [e.teams.home.id, e.teams.home.abbreviation, e.teams.away.id, e.teams.away.abbreviation];
    return f.teams.some((t) => keys.includes(t.toUpperCase()));
  }
  return true;
}

interface Session {
  id: number;
  filter: Filter;
  ws: WebSocket;
  subscribedAt?: string;
  received: Array<{ id: string; offset: string; sub: string }>;
  closedByUs: boolean;
}

describe('1,000 clients with varied filters', () => {
  let server: DaemonServer | undefined;
  const bus = createMemoryBus();
  afterAll(async () => {
    await server?.close();
    await bus.close();
  });

  it('each receive exactly the matching events while clients come and go', { timeout: 120_000 }, async () => {
    server = await startServer({ bus });
    const url = server.url.replace('http', 'ws') + '/v1/stream';
    const random = rng(42);
    const sessions: Session[] = [];

    function open(id: number): Promise<Session> {
      const s: Session = {
        id,
        filter: randomFilter(random),
        ws: new WebSocket(url),
        received: [],
        closedByUs: false,
      };
      sessions.push(s);
      return new Promise((resolve, reject) => {
        s.ws.on('message', (data: Buffer) => {
          const f = JSON.parse(data.toString()) as {
            type: string;
            offset?: string;
            sub?: string;
            event?: GameEvent;
          };
          if (f.type === 'subscribed') {
            s.subscribedAt = f.offset;
            resolve(s);
          } else if (f.type === 'event' && f.event) {
            s.received.push({ id: f.event.id, offset: f.event.offset as string, sub: f.sub as string });
          } else if (f.type === 'welcome') {
            s.ws.send(JSON.stringify({ op: 'subscribe', id: `s${id}`, ...s.filter }));
          } else if (f.type === 'error') {
            reject(new Error(JSON.stringify(f)));
          }
        });
        s.ws.on('error', reject);
        // A client chosen to leave before it was subscribed.
        s.ws.on('close', () => resolve(s));
      });
    }

    // 1,000 clients up before the stream starts, opened 50 at a time.
    for (let i = 0; i < 1_000; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, k) => open(i + k)));
    }

    const committed: GameEvent[] = [];
    let nextId = 1_000;
    const churn: Array<Promise<unknown>> = [];
    for (let round = 0; round < 150; round++) {
      const g = GAMES[Math.floor(random() * GAMES.length)] as Game;
      const batch = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        makeEvent(g, TYPES[Math.floor(random() * TYPES.length)]),
      );
      committed.push(...(await commit(bus, g, batch)));
      // Every round: two clients leave and one joins, at random.
      for (let k = 0; k < 2; k++) {
        const live = sessions.filter((s) => !s.closedByUs);
        const victim = live[Math.floor(random() * live.length)];
        if (victim) {
          victim.closedByUs = true;
          victim.ws.terminate();
        }
      }
      churn.push(open(nextId++));
      await new Promise((resolve) => setTimeout(resolve, random() * 10));
    }
    await Promise.all(churn);

    const expectedFor = (s: Session): GameEvent[] =>
      s.subscribedAt === undefined
        ? []
        : committed.filter(
            (e) => matches(s.filter, e) && compareOffsets(e.offset as string, s.subscribedAt as string) > 0,
          );
    const stillOpen = sessions.filter((s) => !s.closedByUs);
    await until(
      () => stillOpen.every((s) => s.received.length >= expectedFor(s).length),
      60_000,
      'every open client to receive its events',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    let checkedFull = 0;
    let checkedPrefix = 0;
    let framesTotal = 0;
    for (const s of sessions) {
      const expected = expectedFor(s).map((e) => e.id);
      const got = s.received.map((r) => r.id);
      framesTotal += got.length;
      expect(s.received.every((r) => r.sub === `s${s.id}`)).toBe(true);
      if (s.closedByUs) {
        // Left mid-stream: what it got is exactly the start of what it should get.
        expect(got).toEqual(expected.slice(0, got.length));
        checkedPrefix += 1;
      } else {
        expect(got).toEqual(expected);
        checkedFull += 1;
      }
    }
    for (const s of stillOpen) s.ws.terminate();
    expect(sessions.length).toBe(1_150);
    expect(checkedFull).toBeGreaterThan(800);
    expect(checkedPrefix).toBe(300);
    // Varied filters: not every client got the same amount.
    expect(new Set(stillOpen.map((s) => s.received.length)).size).toBeGreaterThan(10);
    expect(framesTotal).toBeGreaterThan(10_000);
  });
});
