import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { DISCOVERY_PATH, gameTopic, parseGameTopic } from '../espn/fastcast-wire.js';
import type { Logger } from '../core/log.js';
import { createGameFeed, type GameFeed } from './fastcast-feed.js';
import {
  standardBase64Token,
  tokenFullyEncoded,
  wrapCheckpoint,
  type FastcastFaults,
} from './fastcast-faults.js';
import { createSession, type FastcastSession } from './fastcast-session.js';
import type { Faults } from './faults.js';
import type { PushReplayService } from './fastcast-replay.js';
import type { SimulatedGame } from './simulated-game.js';

/**
 * The simulator's FastCast: discovery (`GET /public/websockethost`), the socket with ESPN's
 * upgrade rules, and checkpoint downloads, on the simulator's own host and port (plain http and
 * ws). Every game it serves has its game-package topic.
 */
export interface FastcastOptions {
  /** Heartbeat interval announced in the `C` answer, seconds; default 30 as ESPN's. */
  readonly hbiSeconds?: number;
  /** How often the games are looked at for a new document, ms; default 20. */
  readonly tickMs?: number;
  /** How long a discovery token is accepted, ms; default 60 s. */
  readonly tokenTtlMs?: number;
}

export interface FastcastService {
  /** Answers discovery and checkpoint requests; false for any other request. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Takes the socket upgrades of `server` and starts publishing. */
  attach(server: Server, baseUrl: () => string): void;
  close(): void;
}

export interface FastcastDeps {
  readonly games: readonly SimulatedGame[];
  readonly faults: Faults;
  /** The behaviours played on demand (fastcast-faults.ts). */
  readonly pushFaults: FastcastFaults;
  readonly clock: { now(): number };
  readonly logger: Logger;
  /** Captured topics replayed as recorded (`--push-replay`), beside the games' own topics. */
  readonly replay?: PushReplayService;
}

export const FASTCAST_ORIGIN = 'https://www.espn.com';
const SOCKET_PATH = '/FastcastService/pubsub/profiles/12000';
const CHECKPOINT_PATH = /^\/FastcastService\/checkpoint\/([a-z0-9-]+)\/([0-9]+)\.json$/;
// Header names FastCast is reported to match case-sensitively: a client writing them otherwise
// (lowercase `upgrade`, as some HTTP stacks do) gets an error frame, not a socket.
const EXACT_HEADER_NAMES = ['Upgrade', 'Host', 'Sec-WebSocket-Key', 'Sec-WebSocket-Version'] as const;

export function createFastcast(deps: FastcastDeps, options: FastcastOptions = {}): FastcastService {
  const hbiSeconds = options.hbiSeconds ?? 30;
  const tickMs = options.tickMs ?? 20;
  const tokenTtlMs = options.tokenTtlMs ?? 60_000;
  const feeds = new Map<string, GameFeed>();
  const tokens = new Map<string, number>();
  const sessions = new Set<FastcastSession>();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const timers: NodeJS.Timeout[] = [];
  let base = (): string => '';

  const feedOf = (topic: string): GameFeed | undefined => {
    let feed = feeds.get(topic);
    // Looked up in the served games each time: the demo adds a slate while the socket is up.
    const game = deps.games.find((g) => gameTopic(g.league, g.id) === topic);
    if (feed === undefined && game !== undefined) {
      feed = createGameFeed(game, deps.clock.now());
      feeds.set(topic, feed);
    }
    return feed;
  };

  const tick = (): void => {
    const now = deps.clock.now();
    for (const [topic, feed] of feeds) {
      // A game the simulator stopped serving (the demo keeps two slates) has no topic any more.
      if (!deps.games.includes(feed.game)) {
        feeds.delete(topic);
        continue;
      }
      const published = feed.advance(now);
      if (published) for (const s of sessions) s.publish(topic, published);
    }
  };

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refusal = upgradeRefusal(deps, tokens, req);
    if (refusal) return refuse(deps.logger, socket, refusal);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const session = createSession(ws, {
        faults: deps.faults,
        pushFaults: deps.pushFaults,
        hbiSeconds,
        feed: feedOf,
        checkpointUrl: (topic, id) => `${base()}/FastcastService/checkpoint/${topic}/${id}.json`,
        now: () => deps.clock.now(),
        ...(deps.replay ? { claimed: deps.replay.claims } : {}),
      });
      deps.replay?.attach(ws);
      sessions.add(session);
      ws.on('close', () => sessions.delete(session));
      ws.on('error', () => ws.terminate());
    });
  }

  return {
    handle(req, res) {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path === DISCOVERY_PATH) {
        discover(res, deps, base(), () => issueToken(deps, tokens, tokenTtlMs));
        return true;
      }
      if (deps.replay?.handle(req, res)) return true;
      const m = CHECKPOINT_PATH.exec(path);
      if (!m) return false;
      const checkpoint = feeds.get(m[1] ?? '')?.checkpoint(Number(m[2]));
      if (!checkpoint) json(res, 404, { code: 404, message: 'no such checkpoint' });
      else {
        const wrapped = deps.pushFaults.has('wrapped-checkpoint', parseGameTopic(m[1] ?? '')?.gameId);
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(wrapped ? wrapCheckpoint(checkpoint.text) : checkpoint.text);
      }
      return true;
    },
    attach(server, baseUrl) {
      base = baseUrl;
      server.on('upgrade', upgrade);
      deps.replay?.start(baseUrl);
      timers.push(setInterval(tick, tickMs));
      // Keep-alives well inside the heartbeat, so a healthy socket is never taken for a silent one.
      timers.push(
        setInterval(
          () => {
            for (const s of sessions) s.keepAlive();
          },
          (hbiSeconds * 1000) / 3,
        ),
      );
      for (const t of timers) t.unref();
    },
    close() {
      for (const t of timers) clearInterval(t);
      deps.replay?.close();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** Discovery's answer: the socket's host and port and a token, unless discovery is down. */
function discover(res: ServerResponse, deps: FastcastDeps, base: string, token: () => string): void {
  if (deps.pushFaults.has('discovery-down')) {
    json(res, 503, { code: 503, message: 'service unavailable' });
    return;
  }
  const issued = token();
  const { hostname, port } = new URL(base);
  json(res, 200, { ip: hostname.replace(/^\[|\]$/g, ''), securePort: Number(port), token: issued });
}

/** A new discovery token, good for `ttlMs` (the expired ones forgotten). */
function issueToken(deps: FastcastDeps, tokens: Map<string, number>, ttlMs: number): string {
  const token = deps.pushFaults.has('encoded-token')
    ? standardBase64Token(randomBytes(18))
    : randomBytes(18).toString('base64url');
  const now = deps.clock.now();
  for (const [t, at] of tokens) if (at < now) tokens.delete(t);
  tokens.set(token, now + ttlMs);
  return token;
}

interface Refusal {
  /** The HTTP status line's code and reason. */
  readonly status: string;
  readonly body: unknown;
}

/**
 * Why ESPN's upgrade rules refuse this socket, if they do: the path, the exact header names, the
 * origin, the `refused-upgrade` fault, then the token (used up by the attempt when readable).
 */
function upgradeRefusal(
  deps: FastcastDeps,
  tokens: Map<string, number>,
  req: IncomingMessage,
): Refusal | undefined {
  const url = new URL(req.url ?? '/', 'http://simulator');
  if (url.pathname !== SOCKET_PATH) return { status: '404 Not Found', body: { rc: 404, op: 'ERROR' } };
  const names = req.rawHeaders.filter((_, i) => i % 2 === 0);
  if (!EXACT_HEADER_NAMES.every((n) => names.includes(n)))
    return { status: '404 Not Found', body: { rc: 404, op: 'ERROR' } };
  if (req.headers.origin !== FASTCAST_ORIGIN)
    return { status: '403 Forbidden', body: { rc: 403, op: 'ERROR', message: 'origin not allowed' } };
  if (deps.pushFaults.has('refused-upgrade'))
    return { status: '403 Forbidden', body: { rc: 403, op: 'ERROR', message: 'forbidden' } };
  const token = url.searchParams.get('TrafficManager-Token') ?? '';
  const expires = tokens.get(token);
  // A server that reads the token only fully percent-encoded takes any other form for a wrong one.
  const readable = !deps.pushFaults.has('encoded-token') || tokenFullyEncoded(url.search, token);
  if (readable) tokens.delete(token);
  if (!readable || expires === undefined || expires < deps.clock.now() || deps.faults.roll('expiredtoken'))
    return { status: '401 Unauthorized', body: { rc: 401, op: 'ERROR', message: 'token expired' } };
  return undefined;
}

function refuse(logger: Logger, socket: Duplex, refusal: Refusal): void {
  const { status } = refusal;
  const text = JSON.stringify(refusal.body);
  logger.debug({ status }, 'FastCast upgrade refused');
  // A client that resets the connection on reading the refusal must not crash the simulator:
  // an upgrade's socket has no error listener but the one given here.
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}
