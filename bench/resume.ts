/**
 * Resume-storm benchmark (`npm run bench:resume`): what a daemon pays when a thousand viewers
 * resume at once, as when it takes over a killed instance's viewers or they all come back after a
 * Redis restart. Each client subscribes with `since` (RESUME_EVENTS events back, all games) and a
 * snapshot (15 games in progress, 20 recent plays each). Two runs, each in a fresh server process so
 * the allocator's state of one does not flatter the other:
 *  - log: the events were logged before the server started, so the replay reads them from the log
 *    and prepares them per client;
 *  - memory: the server dispatched them live, so the replay is served from its recent events.
 * Figures per run: the time until every client has every event and snapshot, the server's CPU time,
 * and its RSS before, at the peak (getrusage maxrss) and after a GC. One JSON line at the end.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSnapshotSource } from '../streams/snapshot-source.js';
import type { PlayRow } from '../src/model/events.js';
import { createMemoryBus } from '../src/bus/memory.js';
import type { Bus } from '../src/bus/types.js';
import { createDaemonServer } from '../src/server/server.js';
import { gameSnapshot, playEvent, SLATE } from './slate.js';

const CLIENTS = Number(process.env.RESUME_CLIENTS ?? 1_000);
const EVENTS = Number(process.env.RESUME_EVENTS ?? 300);
const MODES = ['log', 'memory'] as const;
type Mode = (typeof MODES)[number];

interface RunFigures {
  ms: number;
  cpuMs: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
}

const mb = (bytes: number): number => Math.round(bytes / 1024 / 102.4) / 10;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Commits EVENTS events round-robin over the slate, each with its game's new snapshot. */
async function commitEvents(bus: Bus): Promise<void> {
  const plays = new Map<string, PlayRow[]>();
  for (let i = 0; i < EVENTS; i++) {
    const g = SLATE[i % SLATE.length] as (typeof SLATE)[number];
    const event = playEvent(g);
    const list = plays.get(g.gameId) ?? [];
    list.push((event.data as { play: PlayRow }).play);
    plays.set(g.gameId, list.slice(-20));
    await bus.commit({ league: g.league, gameId: g.gameId }, [event], {
      meta: { snapshot: gameSnapshot(g, list) },
    });
  }
}

async function serve(mode: Mode): Promise<RunFigures> {
  const bus = createMemoryBus({ retention: EVENTS * 2 });
  if (mode === 'log') await commitEvents(bus);
  const server = createDaemonServer({ bus, snapshots: createSnapshotSource(bus) });
  await server.start();
  if (mode === 'memory') {
    await commitEvents(bus);
    await sleep(500);
  }
  const child = fork(fileURLToPath(new URL('resume-client.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
  });
  const reply = <T>(type: string): Promise<T> =>
    new Promise((resolve, reject) =>
      child.on('message', (m: { type: string; message?: string }) => {
        if (m.type === type) resolve(m as T);
        else if (m.type === 'error') reject(new Error(`client process: ${m.message}`));
      }),
    );
  const ready = reply('ready');
  child.send({ cmd: 'connect', url: server.url, n: CLIENTS });
  await ready;
  global.gc?.();
  await sleep(500);
  const rssBefore = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const done = reply<{ ms: number }>('done');
  child.send({ cmd: 'resume', since: '0-0', events: EVENTS, snapshots: SLATE.length });
  const { ms } = await done;
  const used = process.cpuUsage(cpu);
  const rssPeak = process.resourceUsage().maxRSS * 1024;
  await sleep(1_000);
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;
  child.kill();
  await server.close();
  return {
    ms,
    cpuMs: Math.round((used.user + used.system) / 1000),
    rssBeforeMb: mb(rssBefore),
    rssPeakMb: mb(rssPeak),
    rssAfterMb: mb(rssAfter),
  };
}

function runIn(mode: Mode): Promise<RunFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [mode], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
    });
    child.on('message', (m: RunFigures) => resolve(m));
    child.on('exit', (code) => code !== 0 && reject(new Error(`${mode} run exited with ${code}`)));
  });
}

const mode = process.argv[2] as Mode | undefined;
if (mode && MODES.includes(mode)) {
  // Exit once the figures are handed over: the IPC send is asynchronous.
  process.send?.(await serve(mode), () => process.exit(0));
} else {
  const figures: Record<string, unknown> = {
    bench: 'resume',
    clients: CLIENTS,
    events: EVENTS,
    games: SLATE.length,
  };
  for (const m of MODES) figures[m] = await runIn(m);
  figures.node = process.version;
  console.log(JSON.stringify(figures));
}
