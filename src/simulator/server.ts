import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../core/log.js';
import type { FastcastService } from './fastcast-server.js';
import type { Faults } from './faults.js';
import type { FixtureStore } from './fixture-store.js';
import type { SimulatedGame } from './simulated-game.js';
import type { RequestLog, UpstreamRequest } from './request-log.js';
import type { EspnRules } from './types.js';
import { blockedAgentForm, WAF_BODY } from './waf.js';
import { answerAfter, answerBefore } from './espn-2026.js';
import { clientParams, resolve, type Resolved } from './resolve.js';
import { matchRoute, type RouteMatch } from './routes.js';

export interface ServerDeps {
  readonly store: FixtureStore;
  readonly games: readonly SimulatedGame[];
  readonly faults: Faults;
  readonly log: RequestLog;
  readonly clock: { now(): number };
  readonly logger: Logger;
  /** Which ESPN to play (see `UpstreamOptions.espnRules`). */
  readonly espnRules: EspnRules;
  /** The edge answers every agent with its block page (the `waf` FastCast fault), not only blocked forms. */
  readonly blockEveryAgent?: boolean;
  /** FastCast's discovery and checkpoints, when the simulator plays push. */
  readonly fastcast?: FastcastService;
}

export interface SimulatorServer {
  readonly server: Server;
  /** Ends hanging requests and every open connection. */
  destroyAll(): void;
}

// Enough for the payloads in rotation (recordings, and each live game's current summary) without
// holding many megabytes of text as keys.
const ETAG_MEMO_SIZE = 32;
// Live payloads change on every reveal, so a long-running simulator would otherwise remember ETags forever.
const MAX_TRACKED_ETAGS = 5_000;

export function createSimulatorServer(deps: ServerDeps): SimulatorServer {
  const hanging = new Set<ServerResponse>();
  const validators = createValidators(deps.clock);
  let closed = false;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (deps.fastcast?.handle(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://simulator');
    const headers = requestHeaders(req);
    const send = loggedSender(deps, req, res, url, headers);

    const latency = deps.faults.latency;
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    if (closed || res.destroyed) return;

    // The edge answers before any route, fault or method check.
    if (
      deps.blockEveryAgent ||
      (deps.espnRules === '2026' && blockedAgentForm(headers['user-agent']) !== undefined)
    ) {
      send(403, WAF_BODY, { 'content-type': 'text/html; charset=utf-8' });
      return;
    }
    const fault = deps.faults.next();
    if (fault?.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (fault?.kind === 'error') {
      const extra: Record<string, string> =
        fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {};
      send(fault.status, JSON.stringify({ code: fault.status, message: 'simulated upstream error' }), extra);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(405, JSON.stringify({ code: 405, message: 'method not allowed' }), { allow: 'GET, HEAD' });
      return;
    }
    const match = matchRoute(url.pathname);
    if (!match) {
      send(404, JSON.stringify({ code: 404, message: `no such path: ${url.pathname}` }));
      return;
    }
    const resolved = resolveRequest(deps, match, url.searchParams);
    if (fault?.kind === 'malformed') {
      // A truncated body, as when a connection is cut mid-payload; no validator so nothing caches it.
      send(resolved.status, resolved.text.slice(0, Math.max(1, Math.floor(resolved.text.length / 2))));
      return;
    }
    answer(resolved, match, headers, send, validators);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      deps.logger.error({ err: error }, 'upstream simulator failed to answer');
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ code: 500, message: 'simulator error' }));
      }
    });
  });

  return {
    server,
    destroyAll() {
      closed = true;
      for (const res of hanging) res.destroy();
      hanging.clear();
      server.closeAllConnections();
    },
  };
}

type Send = (status: number, body: string | undefined, extra?: Record<string, string>) => void;

function requestHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Logs the request, and gives the answer's sender, which records the status it sends. */
function loggedSender(
  deps: ServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  headers: Record<string, string>,
): Send {
  const entry: UpstreamRequest = {
    at: deps.clock.now(),
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    status: 0,
  };
  deps.log.add(entry);
  return (status, body, extra = {}) => {
    entry.status = status;
    deps.logger.debug(
      { method: entry.method, path: entry.path, query: entry.query, status },
      'upstream request',
    );
    if (res.destroyed) return;
    res.writeHead(status, {
      ...(body !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      ...extra,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

/** The payload of a matched route at this moment, after any stat crew's change to a live game. */
function resolveRequest(deps: ServerDeps, match: RouteMatch, query: URLSearchParams): Resolved {
  const rules2026 = deps.espnRules === '2026';
  // A summary comes through the site API's CDN, which can lag FastCast's document.
  const cdnLag = match.operation.name.endsWith('_summary') ? deps.faults.cdnLag : 0;
  const now = deps.clock.now() - cdnLag;
  const params = clientParams(match, query);
  const early = rules2026 ? answerBefore(match, params, deps.store, deps.games) : undefined;
  let resolved = early ?? resolve(match, params, deps.store, deps.games, now, deps.espnRules);
  if (
    resolved.game &&
    resolved.game.state(now).state === 'in' &&
    statCrewChanged(deps.faults, resolved.game, now)
  )
    resolved = resolve(match, params, deps.store, deps.games, now, deps.espnRules);
  return rules2026 ? answerAfter(match, params, resolved) : resolved;
}

/**
 * Corrections, removals, late plays and rescores happen to live games only, as ESPN's stat crews
 * make them: at most one per request. Returns whether the game changed.
 */
function statCrewChanged(faults: Faults, game: SimulatedGame, now: number): boolean {
  const draw = (): number => faults.draw();
  return (
    (faults.roll('correct') && game.correctPlay(now, draw) !== undefined) ||
    (faults.roll('remove') && game.removePlay(now, draw) !== undefined) ||
    (faults.roll('insert') && game.insertPlay(now, draw) !== undefined) ||
    (faults.roll('rescore') && game.rescorePlay(now, draw) !== undefined)
  );
}

/** A resolved payload with its validators, or 304 when the client holds it already. */
function answer(
  resolved: Resolved,
  match: RouteMatch,
  headers: Record<string, string>,
  send: Send,
  validators: Validators,
): void {
  if (resolved.status !== 200) {
    // An error is not a payload a client should cache, so it carries no validators.
    send(resolved.status, resolved.text);
    return;
  }
  const etag = validators.etagOf(resolved.text);
  const sent = {
    etag,
    'last-modified': validators.lastModified(etag),
    'cache-control': `max-age=${Math.max(1, Math.round(match.operation.ttlMs / 1000))}`,
  };
  if (matchesEtag(headers['if-none-match'], etag)) {
    send(304, undefined, sent);
    return;
  }
  send(200, resolved.text, sent);
}

interface Validators {
  /** A payload's ETag: a hash of its text, memoised for the payloads in rotation. */
  etagOf(text: string): string;
  /** When the simulator first served the payload of this ETag. */
  lastModified(etag: string): string;
}

function createValidators(clock: { now(): number }): Validators {
  const firstSeen = new Map<string, number>();
  const etags = new Map<string, string>();
  return {
    etagOf(text) {
      let etag = etags.get(text);
      if (etag === undefined) {
        etag = `"${createHash('sha1').update(text).digest('base64url').slice(0, 27)}"`;
        if (etags.size >= ETAG_MEMO_SIZE) etags.delete(etags.keys().next().value as string);
        etags.set(text, etag);
      }
      return etag;
    },
    lastModified(etag) {
      let at = firstSeen.get(etag);
      if (at === undefined) {
        if (firstSeen.size >= MAX_TRACKED_ETAGS) firstSeen.clear();
        at = clock.now();
        firstSeen.set(etag, at);
      }
      return new Date(at).toUTCString();
    },
  };
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
