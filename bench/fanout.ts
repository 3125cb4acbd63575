/**
 * WebSocket fan-out benchmark (`npm run bench:fanout`). The server runs here; the clients run in
 * a forked process (bench/fanout-client.ts) on loopback. Events of a 15-game slate (10 men's,
 * 5 women's games; `play.added` events of ~700 bytes) are generated directly into a memory bus,
 * not by the engine polling the simulator: this measures delivery, not diffing.
 *
 * Phases, one JSON line at the end:
 *  1. idle: 10,000 connected, subscribed, idle clients → server RSS.
 *  2. gateway, max: 1,000 clients subscribed to everything; events are produced as fast as the
 *     clients drain them (closed loop: at most WINDOW events in flight) → delivered frames/s.
 *  3. gateway, paced: the same clients at a fixed offered rate below capacity → p50/p99 latency
 *     from an event's creation (`at`) to its receipt by a client.
 *  4. naive, max: a minimal server that loops over all clients and JSON.stringifies per client per
 *     event, same clients, same closed loop → frames/s and the ratio.
 *
 * FANOUT_REDIS_URL=redis://… runs the same over the Redis bus (a fresh key prefix, deleted after):
 * the server is then a gateway as `serve --role gateway` runs it, reading the log with XREAD.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { GameEvent, SnapshotSource } from '../src/model/events.js';
import { randomUUID } from 'node:crypto';
import { createMemoryBus } from '../src/bus/memory.js';
import { createRedisBus } from '../src/bus/redis.js';
import { deleteKeys } from '../test/support/redis.js';
import type { Bus } from '../src/bus/types.js';
import { createDaemonServer } from '../src/server/server.js';
import { startClients } from './fanout-clients.js';
import { playEvent, SLATE, type Game } from './slate.js';

const CLIENTS = Number(process.env.FANOUT_CLIENTS ?? 1_000);
const IDLE_CLIENTS = Number(process.env.FANOUT_IDLE_CLIENTS ?? 10_000);
// Long enough to average out GC and a neighbour's load spikes, short enough for a shared machine.
const MAX_SECONDS = Number(process.env.FANOUT_SECONDS ?? 8);
const PACED_SECONDS = Number(process.env.FANOUT_PACED_SECONDS ?? 6);
// Events in flight per client in the closed loop: enough to keep every socket busy even when the
// client's progress reports (every 50 ms) arrive late on a loaded machine; ~120 KB per client.
const WINDOW = 150;
// Offered load of the paced phase, events/s (× clients = frames/s): what a busy night never reaches
// (a real slate makes ~10 events/s), and well below the measured capacity.
const PACED_EVENTS_PER_SECOND = Number(process.env.FANOUT_PACED_RATE ?? 100);
// Log retention for the bench: replay is not measured, and a small ring keeps RSS about clients.
const RETENTION = 20_000;

/** One round: every game of the slate commits one poll's worth (1 event), as the engine would. */
async function round(bus: Bus): Promise<number> {
  for (const g of SLATE) await commitOne(bus, g);
  return SLATE.length;
}

let nextGame = 0;
async function commitOne(bus: Bus, g = SLATE[nextGame++ % SLATE.length] as Game): Promise<number> {
  await bus.commit({ league: g.league, gameId: g.gameId }, [playEvent(g)], { meta: null });
  return 1;
}

const noSnapshots: SnapshotSource = { snapshot: async () => undefined, list: async () => [] };

// ---- the client process -------------------------------------------------------------------------

interface Stats {
  frames: number;
  p50: number;
  p99: number;
  samples: number;
  cpuMs: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Produces events for `seconds` (closed loop, or at `rate` events/s) and waits for delivery. */
async function phase(
  bus: Bus,
  clients: ReturnType<typeof startClients>,
  n: number,
  seconds: number,
  rate?: number,
): Promise<
  Stats & {
    seconds: number;
    framesPerSecond: number;
    events: number;
    maxRssMb: number;
    serverCpu: number;
    clientCpu: number;
  }
> {
  await clients.ask({ cmd: 'stats' }, 'stats');
  const base = clients.total();
  let produced = 0;
  let maxRss = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    if (rate === undefined) {
      // The client process reports every 50 ms; WINDOW covers that lag with room to spare.
      while (produced * n - (clients.total() - base) > WINDOW * n) await sleep(2);
    } else {
      const due = ((performance.now() - started) / 1000) * rate;
      if (produced >= due) {
        await sleep(1);
        continue;
      }
    }
    // Closed loop: whole rounds (the slate's polls land together); paced: one game's event when it
    // is due, spread over time as real polls are.
    produced += rate === undefined ? await round(bus) : await commitOne(bus);
    if (produced % 300 === 0) maxRss = Math.max(maxRss, process.memoryUsage().rss);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const deadline = performance.now() + 30_000;
  while (clients.total() - base < produced * n && performance.now() < deadline) await sleep(5);
  const elapsed = (performance.now() - started) / 1000;
  const stats = await clients.ask<Stats>({ cmd: 'stats' }, 'stats');
  const used = process.cpuUsage(cpu);
  return {
    serverCpu: Math.round((used.user + used.system) / 10 / elapsed / 1000) / 100,
    clientCpu: Math.round(stats.cpuMs / 10 / elapsed) / 100,
    ...stats,
    events: produced,
    seconds: Math.round(elapsed * 100) / 100,
    framesPerSecond: Math.round(stats.frames / elapsed),
    maxRssMb: Math.round(maxRss / 2 ** 20),
  };
}

/** The baseline: one JSON.stringify per client per event, looping over every client. */
async function startNaive(bus: Bus): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http, path: '/v1/stream', perMessageDeflate: false });
  const clients = new Map<WebSocket, string[]>();
  wss.on('connection', (ws) => {
    clients.set(ws, []);
    ws.send(JSON.stringify({ type: 'welcome' }));
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString()) as { id: string };
      clients.get(ws)?.push(m.id);
      ws.send(JSON.stringify({ type: 'subscribed', id: m.id, offset: '0-0' }));
    });
    ws.on('close', () => clients.delete(ws));
  });
  const abort = new AbortController();
  const last = (await bus.bounds()).last ?? '0-0';
  void (async () => {
    for await (const batch of bus.tail(last, abort.signal)) {
      for (const event of batch as GameEvent[]) {
        for (const [ws, subs] of clients) {
          for (const sub of subs) ws.send(JSON.stringify({ type: 'event', sub, event }));
        }
      }
    }
  })();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/v1/stream`,
    async close() {
      abort.abort();
      for (const ws of clients.keys()) ws.terminate();
      wss.close();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

async function main(): Promise<void> {
  const redisUrl = process.env.FANOUT_REDIS_URL;
  const prefix = `courtside-bench:${randomUUID().slice(0, 8)}:`;
  const bus = redisUrl
    ? createRedisBus({ url: redisUrl, prefix, retention: RETENTION })
    : createMemoryBus({ retention: RETENTION });
  const server = createDaemonServer({ bus, snapshots: noSnapshots, limits: { maxConnections: 50_000 } });
  await server.start();
  const wsUrl = `${server.url.replace('http', 'ws')}/v1/stream`;
  const clients = startClients();
  const rssBefore = process.memoryUsage().rss;

  // 1. idle clients
  await clients.ask({ cmd: 'connect', url: wsUrl, n: IDLE_CLIENTS }, 'ready');
  await sleep(1_000);
  const idleRss = process.memoryUsage().rss;
  await clients.ask({ cmd: 'close' }, 'closed');
  await sleep(500);

  // 2-3. the gateway
  await clients.ask({ cmd: 'connect', url: wsUrl, n: CLIENTS }, 'ready');
  await phase(bus, clients, CLIENTS, 1); // warm-up (JIT)
  const max = await phase(bus, clients, CLIENTS, MAX_SECONDS);
  const paced = await phase(bus, clients, CLIENTS, PACED_SECONDS, PACED_EVENTS_PER_SECOND);
  const rss = process.memoryUsage().rss;
  await clients.ask({ cmd: 'close' }, 'closed');

  // 4. the naive baseline
  const naive = await startNaive(bus);
  await clients.ask({ cmd: 'connect', url: naive.url, n: CLIENTS }, 'ready');
  await phase(bus, clients, CLIENTS, 1);
  const naiveMax = await phase(bus, clients, CLIENTS, MAX_SECONDS);
  await clients.ask({ cmd: 'close' }, 'closed');
  await naive.close();

  clients.child.disconnect();
  await server.close();
  await bus.close();
  if (redisUrl) await deleteKeys(redisUrl, prefix);

  const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
  console.log(
    JSON.stringify({
      bench: 'fanout',
      bus: redisUrl ? 'redis' : 'memory',
      clients: CLIENTS,
      games: SLATE.length,
      eventBytes: JSON.stringify({ ...playEvent(SLATE[0] as Game), offset: '1732252800000-0' }).length,
      framesPerSecond: max.framesPerSecond,
      // Frames per second of server CPU: comparable across runs on a machine shared with others.
      framesPerServerCpuSecond: Math.round(max.framesPerSecond / max.serverCpu),
      maxPhase: {
        events: max.events,
        seconds: max.seconds,
        p50Ms: max.p50,
        p99Ms: max.p99,
        maxRssMb: max.maxRssMb,
        serverCpu: max.serverCpu,
        clientCpu: max.clientCpu,
      },
      paced: {
        offeredFramesPerSecond: PACED_EVENTS_PER_SECOND * CLIENTS,
        framesPerSecond: paced.framesPerSecond,
        p50Ms: paced.p50,
        p99Ms: paced.p99,
        samples: paced.samples,
      },
      serverRssMb: mb(rss),
      naive: {
        framesPerSecond: naiveMax.framesPerSecond,
        framesPerServerCpuSecond: Math.round(naiveMax.framesPerSecond / naiveMax.serverCpu),
        p50Ms: naiveMax.p50,
        p99Ms: naiveMax.p99,
        serverCpu: naiveMax.serverCpu,
        clientCpu: naiveMax.clientCpu,
      },
      ratio: Math.round((max.framesPerSecond / naiveMax.framesPerSecond) * 10) / 10,
      ratioPerServerCpu:
        Math.round(
          (max.framesPerSecond / max.serverCpu / (naiveMax.framesPerSecond / naiveMax.serverCpu)) * 10,
        ) / 10,
      idle: { clients: IDLE_CLIENTS, serverRssMb: mb(idleRss), rssBeforeMb: mb(rssBefore) },
      node: process.version,
    }),
  );
}

await main();
