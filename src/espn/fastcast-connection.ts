import type WebSocket from 'ws';
import { Backoff } from '../core/backoff.js';
import type { Logger } from '../core/log.js';
import { fastcastMaintenance, fastcastReconnects } from '../core/metrics.js';
import { createDiscoverer, type DiscoveryAnswer } from './fastcast-discovery.js';
import { knownOp, readSocketMessages } from './fastcast-intake.js';
import { discard, openSocket, sendOn } from './fastcast-socket.js';
import * as state from './fastcast-socket-state.js';
import type { ClientTimers } from './fastcast-timers.js';
import { createSocketTls, fastcastTrust } from './fastcast-tls.js';
import { createTokenForms } from './fastcast-token-form.js';
import type { FastcastFrame } from './fastcast-wire.js';

/**
 * The FastCast client's connection: discovery before each socket (its token is short-lived), the
 * socket and its `C` handshake, the heartbeat, and reconnection with jittered backoff, its states
 * kept by fastcast-socket-state.ts. `M` (maintenance) drops the socket until a longer backoff ends.
 * Messages naming a topic are handed on; which topics there are is the subscriptions' business.
 */

export interface ConnectionOptions {
  readonly discoveryUrl: string;
  readonly userAgent: string;
  readonly origin: string;
  readonly timeoutMs: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly ca?: string | Buffer;
  readonly tap?: (direction: 'in' | 'out', text: string) => void;
  readonly logger: Logger;
  readonly timers: ClientTimers;
  readonly now: () => number;
  readonly random?: () => number;
}

export interface ConnectionHooks {
  /** Whether any topic is wanted: without one, no socket is opened. */
  wanted(): boolean;
  /** `C` was answered: a session is open. */
  opened(): void;
  /** The socket is gone (`detail` says how). */
  dropped(detail: string): void;
  /** A message for the topics (any op but `C` and `M`). */
  message(message: FastcastFrame): void;
}

export interface Connection {
  /** Opens a socket unless one is open or being opened. */
  connect(): void;
  send(message: Record<string, unknown>): void;
  /** The session open now, null while none is. */
  readonly session: string | null;
  /** A document arrived: the maintenance backoff starts over. */
  delivered(): void;
  close(): Promise<void>;
}

// After a maintenance message the service is away for a while: asking again as soon as after a
// dropped socket would meet the same maintenance, so its backoff starts this many times higher.
const MAINTENANCE_BACKOFF_FACTOR = 10;

export function createConnection(options: ConnectionOptions, hooks: ConnectionHooks): Connection {
  const { logger, timers, now } = options;
  const trust = options.ca === undefined ? undefined : fastcastTrust(options.ca);
  const { discoveryUrl: url, userAgent, origin, timeoutMs } = options;
  const discovery = createDiscoverer({ url, userAgent, origin, timeoutMs, logger }, trust);
  // The socket's TLS (fastcast-tls.ts); the first certificate naming the discovery host is logged.
  const socketTls = createSocketTls(options.discoveryUrl, trust, logger);
  const secure = new URL(options.discoveryUrl).protocol === 'https:';
  const tokenForms = createTokenForms();
  const { backoff, maintenanceBackoff } = reconnectBackoffs(options);
  let status = state.INITIAL_SOCKET;
  let ws: WebSocket | null = null;
  let stopHeartbeat: (() => void) | null = null;

  const send = (message: Record<string, unknown>): void => sendOn(ws, message, options.tap);

  /** Closes the socket; it is opened again after `delay` (ms; by default the next backoff step). */
  function drop(reason: state.DropReason, detail: string, delay?: number): void {
    const old = ws;
    ws = null;
    stopHeartbeat?.();
    stopHeartbeat = null;
    discard(old);
    const wait = status.state.name === 'closed' ? 0 : (delay ?? backoff.next());
    status = state.dropped(status, reason, wait);
    hooks.dropped(detail);
    if (status.state.name === 'closed') return;
    logger.warn({ reason, detail, retryInMs: wait }, 'FastCast connection lost; reconnecting');
    fastcastReconnects.inc({ reason });
    timers.later(wait, connect);
  }

  function onMessage(message: FastcastFrame): void {
    if (!knownOp(message, logger)) return;
    if (message.op === 'C') {
      if (message.rc !== 200) return drop('refused', `connect answered rc ${message.rc ?? '?'}`);
      status = state.answered(status, message.sid ?? '', message.hbi, now());
      backoff.reset();
      startHeartbeat();
      hooks.opened();
      return;
    }
    if (message.op === 'M') {
      fastcastMaintenance.inc();
      const delay = maintenanceBackoff.next();
      return drop('maintenance', `maintenance announced (M); reconnecting in ${delay} ms`, delay);
    }
    hooks.message(message);
  }

  function startHeartbeat(): void {
    stopHeartbeat?.();
    stopHeartbeat = timers.every(state.heartbeatCheckMs(status), () => {
      const quiet = state.silentFor(status, now());
      if (quiet !== null) drop('silent', `nothing heard for ${quiet} ms`);
    });
  }

  /** Opens the socket discovery pointed at, its events wired to the states above. */
  function open(found: DiscoveryAnswer): void {
    const target = { ...found, secure, tokenForms, userAgent, origin, timeoutMs, tls: socketTls, logger };
    const socket = openSocket(target, {
      open() {
        status = state.opened(status);
        send({ op: 'C' });
      },
      text(text) {
        options.tap?.('in', text);
        status = state.heard(status, now());
        // A message may close the socket (`C` refused, `M`): the rest of the frame is for a dead session.
        for (const message of readSocketMessages(text, logger)) if (ws === socket) onMessage(message);
      },
      ping: () => void (status = state.heard(status, now())),
      failed: drop,
    });
    ws = socket;
  }

  function connect(): void {
    if (!state.mayConnect(status) || !hooks.wanted()) return;
    status = state.connecting(status);
    discovery.discover().then(
      (found) => {
        if (status.state.name !== 'closed') open(found);
      },
      (error: unknown) => {
        if (status.state.name === 'closed') return;
        const delay = backoff.next();
        logger.warn({ err: (error as Error).message, retryInMs: delay }, 'FastCast discovery failed');
        fastcastReconnects.inc({ reason: 'error' });
        status = state.dropped(status, 'error', delay);
        timers.later(delay, connect);
      },
    );
  }

  return {
    connect,
    send,
    get session() {
      return state.sessionOf(status);
    },
    delivered: () => maintenanceBackoff.reset(),
    async close() {
      status = state.closed(status);
      stopHeartbeat?.();
      discard(ws);
      ws = null;
      await discovery.close();
    },
  };
}

/**
 * Jittered exponential backoff between connections, reset by a `C` answered; and the one after
 * `M`, reset by a document only, since a server in maintenance may still answer `C`.
 */
function reconnectBackoffs(options: ConnectionOptions): { backoff: Backoff; maintenanceBackoff: Backoff } {
  const random = options.random ? { random: options.random } : {};
  return {
    backoff: new Backoff({ baseMs: options.backoffBaseMs, maxMs: options.backoffMaxMs, ...random }),
    maintenanceBackoff: new Backoff({
      baseMs: Math.min(options.backoffMaxMs, options.backoffBaseMs * MAINTENANCE_BACKOFF_FACTOR),
      maxMs: options.backoffMaxMs,
      ...random,
    }),
  };
}
