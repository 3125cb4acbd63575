import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createRedisBus } from '../../../src/bus/redis.js';
import { compareOffsets, type Bus } from '../../../src/bus/types.js';
import { startUpstream, type RunningUpstream } from '../../../src/simulator/index.js';
import type { GameEvent } from '../../../src/model/events.js';
import { startNodeFlags } from '../../support/start-flags.js';
import { readMemoryMap, readRss, rssGrowthAfterWarmup, rssTenths } from './rss.js';
import { createRandom } from '../../../src/simulator/random.js';

/**
 * The soak: simulator in-process, two `courtside serve` children on one Redis, an alert worker
 * child, a loopback webhook receiver and N real WebSocket clients that connect, resume and leave
 * at random. Returns figures; the test file asserts on them.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, '..', '..', '..');

export interface SoakOptions {
  redisUrl: string;
  prefix: string;
  games: number;
  speed: number;
  staggerMs: number;
  clients: number;
  seed: number;
  /** Runs while the soak is live; inject faults here. */
  faults?: (ctx: SoakContext) => Promise<void>;
  /** Every child's log lines are written under `artifacts/soak/<name>/` for a post-mortem. */
  name: string;
  /** Default `src`. */
  entry?: CliEntry;
  /**
   * How long the run goes on once the evening is over (every game final, every viewer caught up),
   * the viewers still connected; default 0. The RSS check's last tenth then falls in this quiet
   * end: what the daemons hold after the evening, against what they held early in it.
   */
  quietEndMs?: number;
}

export interface SoakContext {
  upstream: RunningUpstream;
  daemons: DaemonChild[];
  /** SIGKILLs a daemon and starts a replacement at once, as a supervisor (systemd, k8s) would. */
  killAndReplace(d: DaemonChild): Promise<DaemonChild>;
  receiver: Receiver;
  log(msg: string): void;
}

export interface DaemonChild {
  url: string;
  child: ChildProcess;
  pid: number;
  rss: number[];
  /** Viewers connected to this daemon at each RSS sample. */
  viewers: number[];
  /**
   * Every 10 s, in MiB (post-mortem): the V8 heap spaces and external memory from `/metrics`, and
   * where the resident memory is (`readMemoryMap`: brk, anon, file).
   */
  heap: Array<Record<string, number>>;
  /** Parsed stderr JSON lines. */
  lines: Array<Record<string, unknown>>;
  killed: boolean;
  /** Started during the soak (a replacement): it did not run the whole evening. */
  replacement?: boolean;
}

export interface Receiver {
  url: string;
  /** Answer every delivery with 503 (set in order with the receiver process, over IPC). */
  down: boolean;
  /** Idempotency-Key → deliveries accepted (2xx), and deliveries refused for their signature. */
  stats(): Promise<{ accepted: Map<string, number>; badSignatures: number }>;
  close(): Promise<void>;
}

export const WEBHOOK_SECRET = 'soak-secret-0123456789abcdef';

/** Forks `receiver-process.ts`: a receiver with its own event loop, like a real one. */
export async function startReceiver(): Promise<Receiver> {
  const child = fork(join(HERE, 'receiver-process.ts'), [WEBHOOK_SECRET], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      const onExit = (): void => reject(new Error('the webhook receiver process exited'));
      child.once('exit', onExit);
      child.once('message', (m) => {
        child.off('exit', onExit);
        resolve(m as T);
      });
    });
  const { port } = await next<{ port: number }>();
  let down = false;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get down() {
      return down;
    },
    set down(value: boolean) {
      down = value;
      child.send({ op: 'down', value });
    },
    async stats() {
      const reply = next<{ accepted: Array<[string, number]>; badSignatures: number }>();
      child.send({ op: 'stats' });
      const { accepted, badSignatures } = await reply;
      return { accepted: new Map(accepted), badSignatures };
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function captureLines(stream: NodeJS.ReadableStream, into: Array<Record<string, unknown>>): void {
  let buf = '';
  stream.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        into.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        into.push({ level: 60, msg: `non-JSON stderr: ${line}` });
      }
    }
  });
}

/**
 * How to run the CLI: from `dist/` as `npm start` and the `courtside` binary do (after a build), or
 * from the sources through tsx (no build needed; what tests running in parallel with a build use).
 */
export type CliEntry = 'dist' | 'src';

function cli(entry: CliEntry): string[] {
  return entry === 'dist' ? ['dist/src/cli.js'] : ['--import', 'tsx', 'src/cli.ts'];
}

export async function startDaemonChild(args: string[], entry: CliEntry = 'src'): Promise<DaemonChild> {
  const node = entry === 'dist' ? startNodeFlags() : [];
  const child = spawn(process.execPath, [...node, ...cli(entry), 'serve', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
  const d: DaemonChild = {
    url: '',
    child,
    pid: child.pid ?? 0,
    rss: [],
    viewers: [],
    heap: [],
    lines: [],
    killed: false,
  };
  captureLines(child.stderr!, d.lines);
  d.url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('serve did not print its URL in 60 s')), 60_000);
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /courtside listening on (\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return d;
}

export interface ClientSub {
  filter: { leagues?: string[]; types?: string[] };
  /** Offset the subscription first started after (the first `subscribed` offset). */
  start: string;
  ids: string[];
  /** Offset of each received event, parallel to `ids`. */
  offsets: string[];
  last: string;
  gaps: number;
  reconnects: number;
}

const TYPES = [
  'score.changed',
  'play.added',
  'game.status',
  'period.started',
  'game.ended',
  'winprob.changed',
];

/** One simulated viewer: one logical subscription, carried across reconnects with `since`. */
class Viewer {
  sub: ClientSub | undefined;
  ws: WebSocket | undefined;
  /** The daemon the viewer is connected (or connecting) to. */
  base: string | undefined;
  stopped = false;
  internalErrors = 0;
  constructor(
    private readonly urls: () => string[],
    private readonly rand: () => number,
  ) {}

  filter(): ClientSub['filter'] {
    const f: ClientSub['filter'] = {};
    const r = this.rand();
    if (r < 0.3) f.leagues = ['mens'];
    else if (r < 0.5) f.leagues = ['womens'];
    if (this.rand() < 0.4) f.types = TYPES.filter(() => this.rand() < 0.5).concat('score.changed');
    return f;
  }

  connect(): void {
    if (this.stopped) return;
    const urls = this.urls();
    const base = urls[Math.floor(this.rand() * urls.length)] ?? urls[0];
    this.base = base;
    const ws = new WebSocket(`${base!.replace('http', 'ws')}/v1/stream`);
    this.ws = ws;
    const filter = this.sub?.filter ?? this.filter();
    ws.on('open', () => {
      ws.send(
        JSON.stringify({
          op: 'subscribe',
          id: 'v',
          ...filter,
          ...(this.sub ? { since: this.sub.last } : {}),
        }),
      );
    });
    ws.on('message', (data) => {
      // A terminated socket may still hand over frames it had buffered: not this viewer's any more.
      if (this.ws !== ws) return;
      const f = JSON.parse(String(data)) as {
        type: string;
        offset?: string;
        code?: string;
        event?: GameEvent;
      };
      if (f.type === 'subscribed' && f.offset !== undefined) {
        this.sub ??= {
          filter,
          start: f.offset,
          ids: [],
          offsets: [],
          last: f.offset,
          gaps: 0,
          reconnects: 0,
        };
      } else if (f.type === 'event' && f.event && this.sub) {
        this.sub.ids.push(f.event.id);
        this.sub.offsets.push(f.event.offset ?? '0-0');
        this.sub.last = f.event.offset ?? this.sub.last;
      } else if (f.type === 'error' && f.code === 'resume_gap' && this.sub) {
        this.sub.gaps++;
      } else if (f.type === 'error' && f.code === 'internal_error') {
        // Setup failed (Redis away): the protocol says subscribe again; do it like a client would.
        this.internalErrors++;
        this.bounce();
      }
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (this.ws !== ws || this.stopped) return;
      // Dropped (daemon killed, slow consumer): come back with `since` after 1-5 s, the jittered
      // backoff of a reconnecting client (by then a supervisor has usually replaced a dead instance).
      if (this.sub) this.sub.reconnects++;
      setTimeout(() => this.connect(), 1_000 + this.rand() * 4_000);
    });
  }

  /** Leaves and resumes later: exercises `since` on either instance. */
  bounce(): void {
    const ws = this.ws;
    if (!ws) return;
    this.ws = undefined;
    ws.removeAllListeners('close');
    ws.terminate();
    if (this.sub) this.sub.reconnects++;
    setTimeout(() => this.connect(), 100 + this.rand() * 2_000);
  }

  stop(): void {
    this.stopped = true;
    this.ws?.terminate();
  }
}

export interface SoakResult {
  durationMs: number;
  logEvents: number;
  subs: number;
  lost: number;
  duplicates: number;
  extra: number;
  reconnects: number;
  resumeGaps: number;
  /** `internal_error` frames (subscription setup failed, the viewer subscribed again). */
  internalErrors: number;
  alerts: number;
  alertDuplicates: number;
  badSignatures: number;
  rssGrowth: number[];
  /** Per daemon that ran the whole evening: the median RSS of each tenth of the run, in MiB. */
  rssTenthsMb: number[][];
  errorLines: Array<Record<string, unknown>>;
  upstreamRequests: number;
  failures: string[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function readAll(bus: Bus): Promise<GameEvent[]> {
  const all: GameEvent[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await bus.read(after, 1_000);
    if (!page.length) return all;
    all.push(...page);
    after = page[page.length - 1]?.offset ?? null;
  }
}

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const t0 = Date.now();
  const rand = createRandom(o.seed);
  const say = (msg: string): void => console.log(`[soak +${Math.round((Date.now() - t0) / 1000)}s] ${msg}`);
  const upstream = await startUpstream({
    simulate: { games: o.games, seed: o.seed, staggerMs: o.staggerMs },
    speed: o.speed,
  });
  const receiver = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'courtside-soak-'));
  const rules = join(dir, 'rules.json');
  writeFileSync(
    rules,
    JSON.stringify({
      allowPrivateAddresses: true,
      // Short backoff: the receiver is down for a while on purpose; retries must get through.
      attempts: 20,
      backoffMs: 500,
      timeoutMs: 5_000,
      staleAfterSeconds: 3_600,
      subscribers: [{ id: 'soak', url: receiver.url, secret: WEBHOOK_SECRET, alerts: ['*'] }],
    }),
  );
  const serveArgs = [
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--redis',
    o.redisUrl,
    '--prefix',
    o.prefix,
    '--upstream',
    upstream.url,
    '--summary-interval',
    '1000',
  ];
  const entry = o.entry ?? 'src';
  const daemons = [await startDaemonChild(serveArgs, entry), await startDaemonChild(serveArgs, entry)];
  const workerLines: Array<Record<string, unknown>> = [];
  const worker = spawn(
    process.execPath,
    [
      ...cli(o.entry ?? 'src'),
      'worker',
      'alerts',
      '--rules',
      rules,
      '--redis',
      o.redisUrl,
      '--prefix',
      o.prefix,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  captureLines(worker.stderr!, workerLines);
  say(`daemons ${daemons.map((d) => d.url).join(' ')}`);

  const live = (): string[] => daemons.filter((d) => !d.killed).map((d) => d.url);
  const viewers: Viewer[] = [];
  for (let i = 0; i < o.clients; i++) {
    const v = new Viewer(live, rand);
    viewers.push(v);
    v.connect();
    if (i % 50 === 49) await sleep(50);
  }
  const sampler = setInterval(() => {
    for (const d of daemons) {
      if (d.killed) continue;
      d.rss.push(readRss(d.pid));
      d.viewers.push(viewers.filter((v) => v.base === d.url && v.ws?.readyState === WebSocket.OPEN).length);
    }
  }, 1_000);
  const heapSampler = setInterval(() => {
    for (const d of daemons) {
      if (d.killed) continue;
      void fetch(`${d.url}/metrics`)
        .then((res) => res.text())
        .then((text) => {
          const sample: Record<string, number> = { t: Math.round((Date.now() - t0) / 1000) };
          for (const m of text.matchAll(/heap_space_size_used_bytes\{space="(\w+)"\} (\d+)/g)) {
            sample[m[1] as string] = Math.round(Number(m[2]) / 2 ** 20);
          }
          for (const m of text.matchAll(/heap_space_size_total_bytes\{space="(new|old)"\} (\d+)/g)) {
            sample[`${m[1] as string}Total`] = Math.round(Number(m[2]) / 2 ** 20);
          }
          const external = /external_memory_bytes (\d+)/.exec(text);
          if (external) sample.external = Math.round(Number(external[1]) / 2 ** 20);
          Object.assign(sample, readMemoryMap(d.pid));
          d.heap.push(sample);
        })
        .catch(() => undefined);
    }
  }, 10_000);
  const churn = setInterval(() => {
    // About 2% of viewers leave and resume every second.
    for (const v of viewers) if (rand() < 0.02) v.bounce();
  }, 1_000);

  const failures: string[] = [];
  const ctx: SoakContext = {
    upstream,
    daemons,
    receiver,
    log: say,
    async killAndReplace(d) {
      d.killed = true;
      d.child.kill('SIGKILL');
      const next = await startDaemonChild(serveArgs, entry);
      next.replacement = true;
      daemons.push(next);
      return next;
    },
  };
  const faultRun = (o.faults?.(ctx) ?? Promise.resolve()).catch((e: unknown) => {
    failures.push(`fault script: ${String(e)}`);
  });
  const endAt = Math.max(...upstream.games.map((g) => g.endAt));
  while (Date.now() < endAt) await sleep(1_000);
  await faultRun;
  say('all games final; waiting for the log to settle');
  clearInterval(churn);

  const bus = createRedisBus({ url: o.redisUrl, prefix: o.prefix });
  let last: string | null = null;
  let stable = 0;
  while (stable < 8) {
    const b = await bus.bounds();
    stable = b.last === last ? stable + 1 : 0;
    last = b.last;
    await sleep(1_000);
  }
  // Let resuming viewers catch up, then compare.
  await sleep(5_000);
  if (o.quietEndMs) {
    say(`evening over; ${o.quietEndMs / 1000} s more with the viewers connected`);
    await sleep(o.quietEndMs);
  }
  clearInterval(sampler);
  clearInterval(heapSampler);
  const log = await readAll(bus);
  say(`log holds ${log.length} events`);

  let lost = 0;
  let duplicates = 0;
  let dupSameOffset = 0;
  const dupSamples: Array<{ id: string; first: string; again: string; reconnects: number }> = [];
  let extra = 0;
  let reconnects = 0;
  let resumeGaps = 0;
  let subs = 0;
  for (const v of viewers) {
    const s = v.sub;
    if (!s) {
      failures.push('a viewer never got subscribed');
      continue;
    }
    subs++;
    reconnects += s.reconnects;
    resumeGaps += s.gaps;
    const expected = log
      .filter((e) => compareOffsets(e.offset ?? '0-0', s.start) > 0)
      .filter((e) => !s.filter.leagues || s.filter.leagues.includes(e.league))
      .filter((e) => !s.filter.types || s.filter.types.includes(e.type))
      .map((e) => e.id);
    const got = new Map<string, string>();
    s.ids.forEach((id, i) => {
      const offset = s.offsets[i] ?? '?';
      const first = got.get(id);
      if (first !== undefined) {
        duplicates++;
        // Same offset: the server sent one log entry twice; another: the engine emitted it twice.
        if (dupSamples.length < 200) dupSamples.push({ id, first, again: offset, reconnects: s.reconnects });
        if (first === offset) dupSameOffset++;
      } else got.set(id, offset);
    });
    const want = new Set(expected);
    for (const id of want) if (!got.has(id)) lost++;
    // Across a Redis restart without persistence the log lost the older events: a received event
    // older than the log's oldest is not an extra (with or without a resume_gap on the way).
    const oldest = log[0]?.offset ?? '0-0';
    s.ids.forEach((id, i) => {
      if (!want.has(id) && compareOffsets(s.offsets[i] ?? '0-0', oldest) >= 0) extra++;
    });
  }
  for (const v of viewers) v.stop();

  // Alerts: wait until deliveries stop growing (retries after the receiver outage).
  let delivered = await receiver.stats();
  for (let count = -1; count !== delivered.accepted.size; delivered = await receiver.stats()) {
    count = delivered.accepted.size;
    await sleep(5_000);
  }
  let alertDuplicates = 0;
  for (const n of delivered.accepted.values()) if (n > 1) alertDuplicates += n - 1;

  const logDir = join(ROOT, 'artifacts', 'soak', o.name);
  mkdirSync(logDir, { recursive: true });
  const dump = (file: string, lines: Array<Record<string, unknown>>): void =>
    writeFileSync(join(logDir, file), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  daemons.forEach((d, i) => {
    dump(`daemon-${i}.jsonl`, d.lines);
    writeFileSync(
      join(logDir, `daemon-${i}-rss.json`),
      JSON.stringify({ rss: d.rss, viewers: d.viewers, heap: d.heap }),
    );
  });
  dump('worker.jsonl', workerLines);
  writeFileSync(
    join(logDir, 'duplicates.json'),
    JSON.stringify({ duplicates, dupSameOffset, dupSamples }, null, 1),
  );
  say(`child logs in ${logDir}`);
  const errorLines = [...daemons.flatMap((d) => d.lines), ...workerLines].filter(
    (l) => typeof l.level === 'number' && l.level >= 50,
  );
  for (const d of daemons) if (!d.killed) d.child.kill('SIGTERM');
  worker.kill('SIGTERM');
  await Promise.all(
    [...daemons.map((d) => d.child), worker].map(
      (c) =>
        new Promise<void>((r) => (c.exitCode !== null || c.signalCode ? r() : c.once('exit', () => r()))),
    ),
  );
  await bus.close();
  await receiver.close();
  const upstreamRequests = upstream.requests.count();
  await upstream.close();
  // Only instances that ran the whole evening: a replacement's RSS rises as viewers move to it.
  const wholeEvening = daemons.filter((d) => !d.killed && !d.replacement);
  return {
    durationMs: Date.now() - t0,
    logEvents: log.length,
    subs,
    lost,
    duplicates,
    extra,
    reconnects,
    resumeGaps,
    internalErrors: viewers.reduce((n, v) => n + v.internalErrors, 0),
    alerts: delivered.accepted.size,
    alertDuplicates,
    badSignatures: delivered.badSignatures,
    rssGrowth: wholeEvening.map((d) => rssGrowthAfterWarmup(d.rss)),
    rssTenthsMb: wholeEvening.map((d) => rssTenths(d.rss).map((b) => Math.round(b / 2 ** 20))),
    errorLines,
    upstreamRequests,
    failures,
  };
}

export { sleep };
