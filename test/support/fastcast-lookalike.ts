import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import { WebSocketServer, type WebSocket } from 'ws';
// A seeded generator is no part of FastCast: sharing the simulator's keeps one copy of it.
import { createRandom } from '../../src/simulator/random.js';

/**
 * A FastCast look-alike written from the protocol facts alone (docs/upstream.md, "FastCast"),
 * sharing no code with the simulator's FastCast nor with courtside's client: it exists to catch
 * client assumptions that only hold for our own simulator.
 *
 * It follows one game's summary on a site API (any courtside simulator started with push off) by
 * polling it every `pollMs`, and publishes each new version as a JSON Patch of its own making
 * (appends with `-`, `copy` of a previous play as a template, `move` for a late play, whole-array
 * and whole-document `replace`, a `test` now and then). It serves:
 * - discovery on its own server: `{ip, securePort, token}`, tokens one-use, 60 s;
 * - the socket on another: path and token checked, Origin checked, and the four header names
 *   checked for their exact spelling on the raw headers;
 * - `C` (with `hbi`), `S` (200, or 404 for a topic it does not have), `H` whose checkpoint lives on
 *   a third server on another host (127.0.0.2), gzip-encoded, then `R` catch-up and `P` frames;
 *   `~c` 0 and 1 mixed at random; `mid` numbered per topic for everyone (not per session); `I`
 *   frames (`pl: "0"`, consuming a mid), `B` frames and pings;
 * - faults at chosen publications: a lost frame (its `mid` skipped) and a patch that cannot apply
 *   (a failing `test` or a `remove` of a missing path) sent in place of the real one;
 * - the site API, proxied to the followed site, except the followed game's summary, which is the
 *   version the push document had `cdnLagMs` ago. One site server per consumer, so each daemon's
 *   summary requests are counted apart.
 */

export interface LookalikeOptions {
  /** Base URL of the site API to follow and to proxy (a simulator with push off). */
  readonly upstream: string;
  /** ESPN's league segment: `nba`, `wnba`, `mens-college-basketball`, …. */
  readonly league: string;
  readonly gameId: string;
  /** The site servers to open, one per consumer (their summary requests are counted apart). */
  readonly sites: readonly string[];
  /** How often the followed summary is fetched, ms (default 25). */
  readonly pollMs?: number;
  /** How far the served summary lags the push document, ms (default 3000). */
  readonly cdnLagMs?: number;
  /** Heartbeat announced in the `C` answer, seconds (default 20). */
  readonly hbiSeconds?: number;
  /** `I` and `B` frames this often, ms (default 700: several between two publications at times). */
  readonly keepAliveMs?: number;
  /** A checkpoint every so many publications (default 6). */
  readonly checkpointEvery?: number;
  /** Publications (1-based) whose frame is lost on the wire. */
  readonly lostFrameAt?: readonly number[];
  /** Publications (1-based) replaced by a patch that cannot apply. */
  readonly badPatchAt?: readonly number[];
  /** What the notes leave open: `announceCheckpoints` sends every new checkpoint's `H` unasked. */
  readonly variant?: {
    readonly announceCheckpoints?: boolean;
  };
  /** Seeds the choice of payload forms and patch styles. */
  readonly seed?: number;
  readonly now?: () => number;
}

export interface LookalikeStats {
  publications: number;
  lostFrames: number;
  badPatches: number;
  iFrames: number;
  bFrames: number;
  pings: number;
  compressed: number;
  plain: number;
  /** Operations published, by RFC 6902 op (and `replace-array`, `replace-document`). */
  ops: Record<string, number>;
  checkpointsServed: number;
  /** `H` frames sent unasked (variant `announceCheckpoints`). */
  announcedCheckpoints: number;
  subscribes: number;
  /** `S` for a topic the session already had: a client asking for a fresh checkpoint. */
  resubscribes: number;
  unknownTopics: number;
  refusedUpgrades: number;
  connections: number;
  /** Summary requests of the followed game, per site. */
  summaryRequests: Record<string, number>;
}

export interface Lookalike {
  readonly discoveryUrl: string;
  /** Site API base URL per consumer named in `sites`. */
  readonly siteUrls: Readonly<Record<string, string>>;
  readonly topic: string;
  readonly stats: LookalikeStats;
  /** When the version that first held each play was published (ms), by play id. */
  readonly publishedAt: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

type Op = { op: string; path: string; from?: string; value?: unknown };
type Json = Record<string, unknown>;

const ORIGIN = 'https://www.espn.com';
const SOCKET_PATH = '/FastcastService/pubsub/profiles/12000';
const EXACT_NAMES = ['Upgrade', 'Host', 'Sec-WebSocket-Key', 'Sec-WebSocket-Version'];
const TOKEN_TTL_MS = 60_000;
// Checkpoints kept for download: a client handed an H frame just before a newer one still finds it.
const CHECKPOINTS_KEPT = 4;
// The checkpoint server sits on another loopback address, as ESPN's sits on another host.
const CHECKPOINT_HOST = '127.0.0.2';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const idOf = (p: unknown): string | null => (isObj(p) && p.id !== undefined ? String(p.id) : null);

/** Field-by-field patch from `a` to `b` at `path`; arrays that change length are replaced whole. */
function diffValue(a: unknown, b: unknown, path: string, ops: Op[]): void {
  if (a === b) return;
  if (isObj(a) && isObj(b)) {
    for (const k of Object.keys(a)) if (!(k in b)) ops.push({ op: 'remove', path: `${path}/${esc(k)}` });
    for (const k of Object.keys(b)) {
      const p = `${path}/${esc(k)}`;
      if (!(k in a)) ops.push({ op: 'add', path: p, value: b[k] });
      else diffValue(a[k], b[k], p, ops);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffValue(x, b[i], `${path}/${i}`, ops));
    return;
  }
  ops.push({ op: 'replace', path, value: b });
}

/**
 * The plays array by id: kept plays diffed in place (at their old index, before any insertion),
 * then each new play inserted in ascending final index: appended with `-` (or as a `copy` of the
 * previous play patched into the new one), or added at the end and `move`d to its place when it is
 * a late play. Null when plays were removed or reordered: the caller replaces the array.
 */
function diffPlays(a: unknown[], b: unknown[], rnd: () => number): Op[] | null {
  const bIds = b.map(idOf);
  const aIndex = new Map(a.map((p, i) => [idOf(p), i]));
  const kept = bIds.filter((id) => aIndex.has(id));
  if (kept.length !== a.length || kept.some((id, i) => aIndex.get(id) !== i)) return null;
  const ops: Op[] = [];
  b.forEach((p, j) => {
    const i = aIndex.get(bIds[j] ?? null);
    if (i !== undefined) diffValue(a[i], p, `/plays/${i}`, ops);
  });
  let length = a.length;
  b.forEach((p, j) => {
    if (aIndex.has(bIds[j] ?? null)) return;
    if (j === length) {
      if (length > 0 && rnd() < 0.3) {
        // The previous play as a template, then what differs.
        ops.push({ op: 'copy', from: `/plays/${length - 1}`, path: '/plays/-' });
        diffValue(b[j - 1], p, `/plays/${length}`, ops);
      } else ops.push({ op: 'add', path: '/plays/-', value: p });
    } else {
      ops.push({ op: 'add', path: '/plays/-', value: p });
      ops.push({ op: 'move', from: `/plays/${length}`, path: `/plays/${j}` });
    }
    length++;
  });
  return ops;
}

/** The patch of publication `n` from `a` to `b`, in the look-alike's styles. */
export function makePatch(a: Json, b: Json, n: number, rnd: () => number): Op[] {
  // Now and then the whole document, as a publisher resetting its subscribers would.
  if (n % 23 === 0) return [{ op: 'replace', path: '', value: b }];
  const ops: Op[] = [];
  for (const k of Object.keys(a)) if (!(k in b)) ops.push({ op: 'remove', path: `/${esc(k)}` });
  for (const k of Object.keys(b)) {
    if (!(k in a)) ops.push({ op: 'add', path: `/${esc(k)}`, value: b[k] });
    else if (k === 'plays' && Array.isArray(a.plays) && Array.isArray(b.plays)) {
      const plays = n % 7 === 0 ? null : diffPlays(a.plays, b.plays, rnd);
      if (plays === null) {
        if (JSON.stringify(a.plays) !== JSON.stringify(b.plays))
          ops.push({ op: 'replace', path: '/plays', value: b.plays });
      } else ops.push(...plays);
    } else diffValue(a[k], b[k], `/${esc(k)}`, ops);
  }
  // A guard some publishers put last rather than first.
  const header = isObj(b.header) ? b.header : undefined;
  if (header?.id !== undefined && rnd() < 0.25)
    ops.push({ op: 'test', path: '/header/id', value: header.id });
  return ops;
}

interface Entry {
  readonly mid: number;
  readonly op: 'P' | 'I';
  /** The `pl` as sent: a JSON string for patches, "0" for `I`. */
  readonly pl: string;
}

interface Checkpoint {
  readonly mid: number;
  readonly text: string;
  readonly gz: Buffer;
}

interface Session {
  readonly ws: WebSocket;
  readonly sid: string;
  readonly topics: Set<string>;
}

async function listen(server: Server, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

export async function startLookalike(options: LookalikeOptions): Promise<Lookalike> {
  const now = options.now ?? Date.now;
  const rnd = createRandom(options.seed ?? 1);
  const pollMs = options.pollMs ?? 25;
  const lagMs = options.cdnLagMs ?? 3000;
  const hbi = options.hbiSeconds ?? 20;
  const checkpointEvery = options.checkpointEvery ?? 6;
  const lost = new Set(options.lostFrameAt ?? []);
  const variant = options.variant ?? {};
  const bad = new Set(options.badPatchAt ?? []);
  const topic = `gp-basketball-${options.league}-${options.gameId}`;
  const summaryPath = `/apis/site/v2/sports/basketball/${options.league}/summary`;
  const upstream = options.upstream.replace(/\/$/, '');
  const stats: LookalikeStats = {
    publications: 0,
    lostFrames: 0,
    badPatches: 0,
    iFrames: 0,
    bFrames: 0,
    pings: 0,
    compressed: 0,
    plain: 0,
    ops: {},
    checkpointsServed: 0,
    announcedCheckpoints: 0,
    subscribes: 0,
    resubscribes: 0,
    unknownTopics: 0,
    refusedUpgrades: 0,
    connections: 0,
    summaryRequests: Object.fromEntries(options.sites.map((s) => [s, 0])),
  };
  const publishedAt = new Map<string, number>();
  const tokens = new Map<string, number>();
  const sessions = new Set<Session>();
  let closed = false;

  // The followed summary: the first version, before any publication.
  const fetchText = async (): Promise<string> => {
    const res = await fetch(`${upstream}${summaryPath}?event=${options.gameId}`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`followed summary answered ${res.status}`);
    return text;
  };
  let text = await fetchText();
  let doc = JSON.parse(text) as Json;
  for (const p of Array.isArray(doc.plays) ? doc.plays : []) {
    const id = idOf(p);
    if (id !== null) publishedAt.set(id, now());
  }
  // Topic mids start anywhere: nothing says they start at 1.
  let mid = 40_000 + Math.floor(rnd() * 10_000);
  const checkpoints: Checkpoint[] = [];
  const history: Entry[] = [];
  const takeCheckpoint = (): void => {
    checkpoints.push({ mid, text, gz: gzipSync(text) });
    if (checkpoints.length > CHECKPOINTS_KEPT) checkpoints.shift();
    const oldest = checkpoints[0]?.mid ?? mid;
    while ((history[0]?.mid ?? Infinity) <= oldest) history.shift();
  };
  takeCheckpoint();
  // Versions with the time they were published, for the lagging site summary.
  const versions: Array<{ at: number; text: string }> = [{ at: now(), text }];

  // --- servers -----------------------------------------------------------------------------
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };

  const checkpointServer = createServer((req, res) => {
    const m =
      /^\/FastcastService\/pubsub\/profiles\/12000\/topic\/([a-z0-9-]+)\/message\/(\d+)\/checkpoint$/.exec(
        (req.url ?? '').split('?')[0] ?? '',
      );
    const cp = m && m[1] === topic ? checkpoints.find((c) => c.mid === Number(m[2])) : undefined;
    if (!cp) return json(res, 404, { message: 'no such checkpoint' });
    stats.checkpointsServed++;
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(cp.gz);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(cp.text);
    }
  });
  const checkpointBase = await listen(checkpointServer, CHECKPOINT_HOST);

  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const socketServer = createServer((_req, res) => json(res, 426, { rc: 426, op: 'ERROR' }));
  const socketBase = await listen(socketServer, '127.0.0.1');
  const socketPort = Number(new URL(socketBase).port);

  const discoveryServer = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/public/websockethost') return json(res, 404, {});
    // Standard base64, as many servers make tokens, and always with a `+`: a client must send it
    // so that a query-string parser reads it back as `+`, not as a space.
    let token = '';
    while (!token.includes('+')) token = randomBytes(24).toString('base64');
    tokens.set(token, now() + TOKEN_TTL_MS);
    json(res, 200, { ip: '127.0.0.1', securePort: socketPort, token });
  });
  const discoveryBase = await listen(discoveryServer, '127.0.0.1');

  const sendTo = (s: Session, frame: Json): void => {
    if (s.ws.readyState === s.ws.OPEN) s.ws.send(JSON.stringify(frame));
  };

  const checkpointFrame = (cp: Checkpoint): Json => ({
    op: 'H',
    tc: topic,
    mid: cp.mid,
    pl: `${checkpointBase}/FastcastService/pubsub/profiles/12000/topic/${topic}/message/${cp.mid}/checkpoint`,
  });

  const subscribe = (s: Session, tc: string): void => {
    if (tc !== topic) {
      stats.unknownTopics++;
      return sendTo(s, { op: 'S', rc: 404, tc, sid: s.sid });
    }
    stats.subscribes++;
    if (s.topics.has(tc)) stats.resubscribes++;
    s.topics.add(tc);
    sendTo(s, { op: 'S', rc: 200, tc, sid: s.sid });
    const cp = checkpoints[checkpoints.length - 1] as Checkpoint;
    sendTo(s, checkpointFrame(cp));
    // Catch-up: every frame since the checkpoint under its own mid, keep-alives included.
    for (const e of history)
      if (e.mid > cp.mid) sendTo(s, { op: e.op === 'P' ? 'R' : 'I', tc, mid: e.mid, pl: e.pl });
  };

  socketServer.on('upgrade', (req: IncomingMessage, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://lookalike');
    const token = url.searchParams.get('TrafficManager-Token') ?? '';
    const expires = tokens.get(token);
    tokens.delete(token);
    const names = req.rawHeaders.filter((_, i) => i % 2 === 0);
    const refuse = (status: string): void => {
      stats.refusedUpgrades++;
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    };
    if (url.pathname !== SOCKET_PATH) return refuse('404 Not Found');
    if (expires === undefined || expires < now()) return refuse('401 Unauthorized');
    if (req.headers.origin !== ORIGIN) return refuse('403 Forbidden');
    if (!/Mozilla\/5\.0/.test(String(req.headers['user-agent'] ?? ''))) return refuse('403 Forbidden');
    wss.handleUpgrade(req, socket, head, (ws) => {
      // A misspelt header name gets a socket that answers one error frame, as reported of ESPN.
      if (!EXACT_NAMES.every((n) => names.includes(n))) {
        stats.refusedUpgrades++;
        ws.send(JSON.stringify({ rc: 404, op: 'ERROR' }));
        ws.close();
        return;
      }
      stats.connections++;
      const session: Session = { ws, sid: randomUUID(), topics: new Set() };
      sessions.add(session);
      ws.on('close', () => sessions.delete(session));
      ws.on('error', () => ws.terminate());
      ws.on('message', (data) => {
        let frame: Json;
        try {
          frame = JSON.parse(String(data)) as Json;
        } catch {
          return;
        }
        if (frame.op === 'C') sendTo(session, { op: 'C', rc: 200, hbi, sid: session.sid });
        else if (frame.op === 'S' && typeof frame.tc === 'string') subscribe(session, frame.tc);
        // Anything else (`U` included) is ignored: the notes say nothing of unsubscribing.
      });
    });
  });

  const siteServers: Server[] = [];
  const siteUrls: Record<string, string> = {};
  for (const name of options.sites) {
    const server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://site');
      if (u.pathname === summaryPath && u.searchParams.get('event') === options.gameId) {
        stats.summaryRequests[name] = (stats.summaryRequests[name] ?? 0) + 1;
        // The newest version published at least `lagMs` ago (the first one before that).
        const cut = now() - lagMs;
        let served = versions[0] as { text: string };
        for (const v of versions) if (v.at <= cut) served = v;
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(served.text);
        return;
      }
      fetch(`${upstream}${req.url ?? '/'}`, { headers: { accept: 'application/json' } }).then(
        async (r) => {
          const body = Buffer.from(await r.arrayBuffer());
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
          res.end(body);
        },
        () => json(res, 502, { message: 'upstream unreachable' }),
      );
    });
    siteServers.push(server);
    siteUrls[name] = await listen(server, '127.0.0.1');
  }

  // --- publishing ------------------------------------------------------------------------------
  const payload = (ops: readonly Op[], ts: number): string => {
    const inner = JSON.stringify(ops);
    const compressed = rnd() < 0.5;
    if (compressed) stats.compressed++;
    else stats.plain++;
    return JSON.stringify({
      ts,
      '~c': compressed ? 1 : 0,
      pl: compressed ? deflateSync(inner).toString('base64') : inner,
    });
  };

  const broadcast = (frame: Json): number => {
    let sent = 0;
    for (const s of sessions)
      if (s.topics.has(topic)) {
        sendTo(s, frame);
        sent++;
      }
    return sent;
  };

  const publish = (nextText: string): void => {
    const next = JSON.parse(nextText) as Json;
    const n = ++stats.publications;
    const ops = makePatch(doc, next, n, rnd);
    for (const o of ops) {
      const kind =
        o.op === 'replace' && o.path === ''
          ? 'replace-document'
          : o.op === 'replace' && Array.isArray(o.value)
            ? 'replace-array'
            : o.op;
      stats.ops[kind] = (stats.ops[kind] ?? 0) + 1;
    }
    const at = now();
    for (const p of Array.isArray(next.plays) ? next.plays : []) {
      const id = idOf(p);
      if (id !== null && !publishedAt.has(id)) publishedAt.set(id, at);
    }
    text = nextText;
    doc = next;
    versions.push({ at, text });
    // Versions older than the lag are needed only as the one now served.
    while (versions.length > 1 && (versions[1]?.at ?? Infinity) <= at - lagMs) versions.shift();
    mid++;
    const entry: Entry = { mid, op: 'P', pl: payload(ops, at) };
    history.push(entry);
    const announce = n % checkpointEvery === 0;
    if (announce) takeCheckpoint();
    if (lost.has(n)) {
      // Lost on the wire: the mid is gone, the patch with it.
      if (broadcast({ op: 'B', pl: String(at) }) > 0) stats.lostFrames++;
      return;
    }
    if (bad.has(n)) {
      // Sent in place of the real patch; alternately a failing test and a removal of nothing.
      const broken: Op[] =
        stats.badPatches % 2 === 0
          ? [{ op: 'test', path: '/header/id', value: 'not-this-game' }, ...ops]
          : [{ op: 'remove', path: '/plays/100000' }];
      if (broadcast({ op: 'P', tc: topic, mid, pl: payload(broken, at) }) > 0) stats.badPatches++;
      return;
    }
    broadcast({ op: 'P', tc: topic, mid, pl: entry.pl });
    if (announce && variant.announceCheckpoints) {
      stats.announcedCheckpoints++;
      broadcast(checkpointFrame(checkpoints[checkpoints.length - 1] as Checkpoint));
    }
  };

  let pollTimer: NodeJS.Timeout | undefined;
  const poll = async (): Promise<void> => {
    try {
      const nextText = await fetchText();
      if (!closed && nextText !== text) publish(nextText);
    } catch {
      // The followed site hiccuped: the next poll tries again.
    }
    if (!closed) pollTimer = setTimeout(() => void poll(), pollMs);
  };
  pollTimer = setTimeout(() => void poll(), pollMs);

  const keepAlive = setInterval(() => {
    mid++;
    history.push({ mid, op: 'I', pl: '0' });
    if (broadcast({ op: 'I', tc: topic, mid, pl: '0' }) > 0) stats.iFrames++;
    for (const s of sessions) {
      sendTo(s, { op: 'B', pl: String(now()) });
      stats.bFrames++;
    }
  }, options.keepAliveMs ?? 700);
  // Pings well inside the heartbeat, as a server keeping its sockets would.
  const pinger = setInterval(
    () => {
      for (const s of sessions)
        if (s.ws.readyState === s.ws.OPEN) {
          s.ws.ping();
          stats.pings++;
        }
    },
    (hbi * 1000) / 4,
  );

  return {
    discoveryUrl: `${discoveryBase}/public/websockethost`,
    siteUrls,
    topic,
    stats,
    publishedAt,
    async close() {
      closed = true;
      clearTimeout(pollTimer);
      clearInterval(keepAlive);
      clearInterval(pinger);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      const stop = (s: Server): Promise<void> =>
        new Promise((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        });
      await Promise.all([checkpointServer, socketServer, discoveryServer, ...siteServers].map(stop));
    },
  };
}
