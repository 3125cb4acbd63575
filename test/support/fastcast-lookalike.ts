import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { cachedDeflateBomb } from './deflate-bomb.js';
import {
  createLookalikeGame,
  type GameContext,
  type LookalikeGame,
  type LookalikeGameOptions,
} from './fastcast-lookalike-game.js';
import type { Json } from './fastcast-lookalike-patch.js';

export type { LookalikeGame, LookalikeGameOptions, LookalikeGameStats } from './fastcast-lookalike-game.js';

/**
 * A FastCast look-alike written from the protocol facts alone (docs/upstream.md, "FastCast"),
 * sharing no code with the simulator's FastCast nor with courtside's client: it exists to catch
 * client assumptions that only hold for our own simulator.
 *
 * It follows games' summaries on a site API (any courtside simulator started with push off) by
 * polling them every `pollMs`, and publishes each new version as a JSON Patch of its own making
 * (test/support/fastcast-lookalike-patch.ts). It serves:
 * - discovery on its own server: `{ip, securePort, token}`, tokens one-use, 60 s;
 * - the socket on another: path and token checked, Origin checked, and the four header names
 *   checked for their exact spelling on the raw headers;
 * - `C` (with `hbi`), `S` (200, or 404 for a topic it does not have), `H` whose checkpoint lives on
 *   a third server on another host (127.0.0.2), gzip-encoded, then `R` catch-up and `P` frames;
 *   `~c` 0 and 1 mixed at random; `mid` numbered per topic for everyone (not per session); `I`
 *   frames (`pl: "0"`, consuming a mid), `B` frames and pings;
 * - per game (test/support/fastcast-lookalike-game.ts): lost frames, patches that cannot apply,
 *   operations on absent odds keys mixed into real patches, a topic answered 200 with no `H`, a
 *   checkpoint wrapped `{"pl": document}`, compressed frames that inflate to `bombBytes`, several
 *   messages in one frame;
 * - for the whole server: a token accepted only fully percent-encoded, and an `M` (maintenance)
 *   frame after which a session is sent nothing more;
 * - the site API, proxied to the followed site, except the followed games' summaries, which are the
 *   version the push document had `cdnLagMs` ago. One site server per consumer, so each daemon's
 *   summary requests are counted apart.
 */

export interface LookalikeOptions {
  /** Base URL of the site API to follow and to proxy (a simulator with push off). */
  readonly upstream: string;
  /** ESPN's league segment: `nba`, `wnba`, `mens-college-basketball`, …. */
  readonly league: string;
  /** The games followed and published, each with the oddities it plays. */
  readonly games: readonly LookalikeGameOptions[];
  /** The site servers to open, one per consumer (their summary requests are counted apart). */
  readonly sites: readonly string[];
  /** How often each followed summary is fetched, ms (default 25). */
  readonly pollMs?: number;
  /** How far the served summary lags the push document, ms (default 3000). */
  readonly cdnLagMs?: number;
  /** Heartbeat announced in the `C` answer, seconds (default 20). */
  readonly hbiSeconds?: number;
  /** `I` and `B` frames this often, ms (default 700: several between two publications at times). */
  readonly keepAliveMs?: number;
  /** A checkpoint every so many publications (default 6). */
  readonly checkpointEvery?: number;
  /** What a bomb frame inflates to, bytes (default 1 GiB). */
  readonly bombBytes?: number;
  readonly variant?: {
    /** Every new checkpoint's `H` sent unasked to the topic's subscribers. */
    readonly announceCheckpoints?: boolean;
    /**
     * The socket's token accepted only with every reserved character percent-encoded (tokens then
     * hold `+`, `/` and `=`); a token sent otherwise is refused (401) and stays unused.
     */
    readonly encodedTokenOnly?: boolean;
    /** This long after the first connection, every open session gets `{"op":"M"}` and nothing more. */
    readonly maintenanceAfterMs?: number;
  };
  /** Seeds the choice of payload forms and patch styles. */
  readonly seed?: number;
  readonly now?: () => number;
}

export interface LookalikeStats {
  bFrames: number;
  pings: number;
  unknownTopics: number;
  refusedUpgrades: number;
  /** Upgrades refused because the token was not percent-encoded whole (`encodedTokenOnly`). */
  refusedEncodings: number;
  connections: number;
  /** `M` frames sent. */
  maintenance: number;
}

export interface Lookalike {
  readonly discoveryUrl: string;
  /** Site API base URL per consumer named in `sites`. */
  readonly siteUrls: Readonly<Record<string, string>>;
  readonly stats: LookalikeStats;
  /** The followed games, by game id. */
  readonly games: Readonly<Record<string, LookalikeGame>>;
  close(): Promise<void>;
}

interface Session {
  readonly ws: WebSocket;
  readonly sid: string;
  readonly topics: Set<string>;
  /** Sent `M`: nothing more goes to it. */
  frozen: boolean;
}

const ORIGIN = 'https://www.espn.com';
const SOCKET_PATH = '/FastcastService/pubsub/profiles/12000';
const EXACT_NAMES = ['Upgrade', 'Host', 'Sec-WebSocket-Key', 'Sec-WebSocket-Version'];
const TOKEN_TTL_MS = 60_000;
// The checkpoint server sits on another loopback address, as ESPN's sits on another host.
const CHECKPOINT_HOST = '127.0.0.2';
const CHECKPOINT_PATH =
  /^\/FastcastService\/pubsub\/profiles\/12000\/topic\/([a-z0-9-]+)\/message\/(\d+)\/checkpoint$/;

async function listen(server: Server, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/** A token in standard base64 holding the characters a query-string parser reads otherwise. */
function newToken(encodedOnly: boolean): string {
  // Always a `+`: a client must send it so that a parser reads it back as `+`, not as a space.
  // Encoded-only tokens also hold `/` and end in `=` padding, which only full encoding escapes.
  const wanted = encodedOnly ? ['+', '/'] : ['+'];
  let token = '';
  while (!wanted.every((c) => token.includes(c)))
    token = randomBytes(encodedOnly ? 25 : 24).toString('base64');
  return token;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

export async function startLookalike(options: LookalikeOptions): Promise<Lookalike> {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 25;
  const hbi = options.hbiSeconds ?? 20;
  const variant = options.variant ?? {};
  const summaryPath = `/apis/site/v2/sports/basketball/${options.league}/summary`;
  const upstream = options.upstream.replace(/\/$/, '');
  const stats: LookalikeStats = {
    bFrames: 0,
    pings: 0,
    unknownTopics: 0,
    refusedUpgrades: 0,
    refusedEncodings: 0,
    connections: 0,
    maintenance: 0,
  };
  // Tokens by the form the socket's query must carry, with their expiry.
  const tokens = new Map<string, number>();
  const sessions = new Set<Session>();
  const games = new Map<string, LookalikeGame>();
  let closed = false;

  const checkpointServer = createServer((req, res) => {
    const m = CHECKPOINT_PATH.exec((req.url ?? '').split('?')[0] ?? '');
    const game = m ? [...games.values()].find((g) => g.topic === m[1]) : undefined;
    const cp = game?.checkpoint(Number(m?.[2]));
    if (!cp) return json(res, 404, { message: 'no such checkpoint' });
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
    const token = newToken(variant.encodedTokenOnly ?? false);
    tokens.set(variant.encodedTokenOnly ? encodeURIComponent(token) : token, now() + TOKEN_TTL_MS);
    json(res, 200, { ip: '127.0.0.1', securePort: socketPort, token });
  });
  const discoveryBase = await listen(discoveryServer, '127.0.0.1');

  const sendTo = (s: Session, frame: Json | Json[]): void => {
    if (!s.frozen && s.ws.readyState === s.ws.OPEN) s.ws.send(JSON.stringify(frame));
  };

  const ctx: GameContext = {
    upstream,
    league: options.league,
    sites: options.sites,
    checkpointBase,
    cdnLagMs: options.cdnLagMs ?? 3000,
    checkpointEvery: options.checkpointEvery ?? 6,
    announceCheckpoints: variant.announceCheckpoints ?? false,
    bomb: options.games.some((g) => g.bombAt?.length)
      ? (await cachedDeflateBomb(options.bombBytes ?? 2 ** 30)).toString('base64')
      : null,
    seed: options.seed ?? 1,
    now,
    broadcast(topic, frame) {
      for (const s of sessions) if (s.topics.has(topic)) sendTo(s, frame);
    },
    subscribers: (topic) => [...sessions].filter((s) => s.topics.has(topic) && !s.frozen).length,
  };

  const fetchText = async (gameId: string): Promise<string> => {
    const res = await fetch(`${upstream}${summaryPath}?event=${gameId}`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`followed summary of ${gameId} answered ${res.status}`);
    return text;
  };
  // The first version of each game, before any publication.
  const firstTexts = new Map<string, string>();
  for (const [i, g] of options.games.entries()) {
    const first = await fetchText(g.gameId);
    firstTexts.set(g.gameId, first);
    games.set(g.gameId, createLookalikeGame({ ...ctx, seed: ctx.seed + i }, g, first));
  }

  const subscribe = (s: Session, tc: string): void => {
    const game = [...games.values()].find((g) => g.topic === tc);
    if (!game) {
      stats.unknownTopics++;
      return sendTo(s, { op: 'S', rc: 404, tc, sid: s.sid });
    }
    const again = s.topics.has(tc);
    // Frames held for a batch are in the catch-up too: sent before, they reach this session once.
    game.flush();
    s.topics.add(tc);
    sendTo(s, { op: 'S', rc: 200, tc, sid: s.sid });
    const frames = game.subscribed(again);
    if (game.batched && frames.length > 1) sendTo(s, frames);
    else for (const f of frames) sendTo(s, f);
  };

  let maintenance: NodeJS.Timeout | undefined;
  const startMaintenanceClock = (): void => {
    if (variant.maintenanceAfterMs === undefined || maintenance !== undefined) return;
    maintenance = setTimeout(() => {
      for (const s of sessions) {
        sendTo(s, { op: 'M' });
        s.frozen = true;
        stats.maintenance++;
      }
    }, variant.maintenanceAfterMs);
  };

  socketServer.on('upgrade', (req: IncomingMessage, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://lookalike');
    // Encoded-only servers compare the query's raw text; the others the value as parsed.
    const raw = /[?&]TrafficManager-Token=([^&#]*)/.exec(req.url ?? '')?.[1] ?? '';
    const parsed = url.searchParams.get('TrafficManager-Token') ?? '';
    const token = variant.encodedTokenOnly ? raw : parsed;
    const expires = tokens.get(token);
    tokens.delete(token);
    const names = req.rawHeaders.filter((_, i) => i % 2 === 0);
    const refuse = (status: string): void => {
      stats.refusedUpgrades++;
      // The client may reset the connection on reading the refusal.
      socket.on('error', () => socket.destroy());
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    };
    if (url.pathname !== SOCKET_PATH) return refuse('404 Not Found');
    if (expires === undefined && variant.encodedTokenOnly && tokens.has(encodeURIComponent(parsed)))
      stats.refusedEncodings++;
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
      startMaintenanceClock();
      const session: Session = { ws, sid: randomUUID(), topics: new Set(), frozen: false };
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
        if (session.frozen) return;
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
      const game = u.pathname === summaryPath ? games.get(u.searchParams.get('event') ?? '') : undefined;
      if (game) {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(game.siteSummary(name));
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

  // --- following ------------------------------------------------------------------------------
  const pollTimers = new Map<string, NodeJS.Timeout>();
  const poll = async (game: LookalikeGame, last: string): Promise<void> => {
    let text = last;
    try {
      const next = await fetchText(game.gameId);
      if (!closed && next !== last) {
        game.publish(next);
        text = next;
      }
    } catch {
      // The followed site hiccuped: the next poll tries again.
    }
    if (!closed)
      pollTimers.set(
        game.gameId,
        setTimeout(() => void poll(game, text), pollMs),
      );
  };
  for (const game of games.values()) {
    const first = firstTexts.get(game.gameId) ?? '';
    pollTimers.set(
      game.gameId,
      setTimeout(() => void poll(game, first), pollMs),
    );
  }

  const keepAlive = setInterval(() => {
    for (const game of games.values()) game.keepAlive();
    for (const s of sessions) {
      sendTo(s, { op: 'B', pl: String(now()) });
      stats.bFrames++;
    }
  }, options.keepAliveMs ?? 700);
  // Pings well inside the heartbeat, as a server keeping its sockets would.
  const pinger = setInterval(
    () => {
      for (const s of sessions)
        if (!s.frozen && s.ws.readyState === s.ws.OPEN) {
          s.ws.ping();
          stats.pings++;
        }
    },
    (hbi * 1000) / 4,
  );

  return {
    discoveryUrl: `${discoveryBase}/public/websockethost`,
    siteUrls,
    stats,
    games: Object.fromEntries(games),
    async close() {
      closed = true;
      for (const t of pollTimers.values()) clearTimeout(t);
      clearTimeout(maintenance);
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
