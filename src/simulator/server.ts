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
import { clientParams, resolve } from './resolve.js';
import { matchRoute } from './routes.js';

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
  const firstSeen = new Map<string, number>();
  let closed = false;
  const etags = new Map<string, string>();
  const etagOf = (text: string): string => {
    let etag = etags.get(text);
    if (etag === undefined) {
      etag = `"${createHash('sha1').update(text).digest('base64url').slice(0, 27)}"`;
      if (etags.size >= ETAG_MEMO_SIZE) etags.delete(etags.keys().next().value as string);
      etags.set(text, etag);
    }
    return etag;
  };

  const lastModified = (etag: string): string => {
    let at = firstSeen.get(etag);
    if (at === undefined) {
      if (firstSeen.size >= MAX_TRACKED_ETAGS) firstSeen.clear();
      at = deps.clock.now();
      firstSeen.set(etag, at);
    }
    return new Date(at).toUTCString();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (deps.fastcast?.handle(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://simulator');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const entry: UpstreamRequest = {
      at: deps.clock.now(),
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      status: 0,
    };
    deps.log.add(entry);
    const send = (status: number, body: string | undefined, extra: Record<string, string> = {}): void => {
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

    const latency = deps.faults.latency;
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    if (closed || res.destroyed) return;

    const rules2026 = deps.espnRules === '2026';
    // The edge answers before any route, fault or method check.
    if (deps.blockEveryAgent || (rules2026 && blockedAgentForm(headers['user-agent']) !== undefined)) {
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
    // A summary comes through the site API's CDN, which can lag FastCast's document.
    const cdnLag = match.operation.name.endsWith('_summary') ? deps.faults.cdnLag : 0;
    const now = deps.clock.now() - cdnLag;
    const params = clientParams(match, url.searchParams);
    const early = rules2026 ? answerBefore(match, params, deps.store, deps.games) : undefined;
    let resolved = early ?? resolve(match, params, deps.store, deps.games, now, deps.espnRules);
    if (resolved.game && resolved.game.state(now).state === 'in') {
      // Corrections, removals, late plays and rescores happen to live games only, as ESPN's stat crews make them.
      const changed =
        (deps.faults.roll('correct') &&
          resolved.game.correctPlay(now, () => deps.faults.draw()) !== undefined) ||
        (deps.faults.roll('remove') &&
          resolved.game.removePlay(now, () => deps.faults.draw()) !== undefined) ||
        (deps.faults.roll('insert') &&
          resolved.game.insertPlay(now, () => deps.faults.draw()) !== undefined) ||
        (deps.faults.roll('rescore') &&
          resolved.game.rescorePlay(now, () => deps.faults.draw()) !== undefined);
      if (changed) resolved = resolve(match, params, deps.store, deps.games, now, deps.espnRules);
    }
    if (rules2026) resolved = answerAfter(match, params, resolved);
    if (fault?.kind === 'malformed') {
      // A truncated body, as when a connection is cut mid-payload; no validator so nothing caches it.
      send(resolved.status, resolved.text.slice(0, Math.max(1, Math.floor(resolved.text.length / 2))));
      return;
    }
    if (resolved.status !== 200) {
      // An error is not a payload a client should cache, so it carries no validators.
      send(resolved.status, resolved.text);
      return;
    }
    const etag = etagOf(resolved.text);
    const validators = {
      etag,
      'last-modified': lastModified(etag),
      'cache-control': `max-age=${Math.max(1, Math.round(match.operation.ttlMs / 1000))}`,
    };
    if (matchesEtag(headers['if-none-match'], etag)) {
      send(304, undefined, validators);
      return;
    }
    send(200, resolved.text, validators);
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

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
