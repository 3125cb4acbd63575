import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { Logger } from '../core/log.js';
import { createConnection } from './fastcast-connection.js';
import type { ResyncLimit } from './fastcast-resync-limit.js';
import { createClientTimers } from './fastcast-timers.js';
import type { TopicDocument } from './fastcast-topic.js';
import { createTopics, type TopicLoss } from './fastcast-topics.js';
import type { DocumentRequest, FetchedDocument } from './http.js';

/**
 * The FastCast client: one socket for every topic, discovery before each connection (its token
 * is short-lived), the `C`/`S` handshake, heartbeats and reconnection with jittered backoff
 * (fastcast-connection.ts, its states in fastcast-socket-state.ts), and the subscriptions with
 * their checkpoints and patches (fastcast-topics.ts, fastcast-topic.ts). It only reports what it
 * knows: which topic has a document and which one lost it; the engine decides what to poll.
 * Every timer and clock read of it goes through one rxjs scheduler (fastcast-timers.ts).
 *
 * Nothing a server sends can hold a topic, the memory or the process: a subscription answered
 * without a checkpoint in `subscribeTimeoutMs` is "no topic" and asked for again with backoff; a
 * checkpoint is checked before use (fastcast-checkpoint.ts); frames and inflated patches are
 * capped at 16 MiB; `M` (maintenance) closes the socket until a backoff ends; unknown ops are
 * counted and ignored.
 */

export interface FastcastClientOptions {
  /** Discovery URL; `http://` gives a `ws://` socket, `https://` a `wss://` one. */
  readonly discoveryUrl: string;
  /** FastCast refuses agents that do not look like a browser's. */
  readonly userAgent: string;
  /** FastCast refuses upgrades without ESPN's site as the origin. */
  readonly origin: string;
  /** Discovery and WebSocket handshake, each. */
  readonly timeoutMs: number;
  /**
   * Downloads a checkpoint: the HTTP client's `getDocument`, so a checkpoint (a whole summary-sized
   * document) shares the live lane's connections, timeouts, retries and decoding with the polls.
   */
  readonly fetchDocument: (request: DocumentRequest) => Promise<FetchedDocument>;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  /** A topic answered 404 is asked for again after this long. */
  readonly retryTopicMs: number;
  /**
   * A subscription that brings no checkpoint (`H`) within this long counts as "no topic" (FastCast
   * can answer `S` with 200 for a topic that does not exist yet): the topic is asked for again
   * after a backoff starting at `retryTopicMs`. Default 10 s.
   */
  readonly subscribeTimeoutMs?: number;
  /** Fresh checkpoints of one topic at most this often (a patch that keeps failing must not loop). */
  readonly resyncMinMs: number;
  /**
   * A topic resynced `count` times within `windowMs` is left alone for `pauseMs` (its game is
   * polled meanwhile); default 10 in 2 minutes, then 10 minutes of polling.
   */
  readonly resyncLimit?: ResyncLimit;
  /**
   * Extra trust anchors (PEM) for FastCast's TLS, discovery and socket, besides Node's bundled
   * roots: a private CA, or a TLS-inspecting proxy's. Checkpoints are not covered.
   */
  readonly ca?: string | Buffer;
  /**
   * Sees every frame exactly as received from FastCast (`in`) and as sent to it (`out`), before
   * anything reads it: what `courtside record --push` saves. The daemon does not set it.
   */
  readonly tap?: (direction: 'in' | 'out', text: string) => void;
  readonly logger: Logger;
  /** The clock (ms); default the scheduler's. */
  readonly now?: () => number;
  readonly random?: () => number;
  /**
   * Runs every timer of the client (heartbeat, backoffs, subscription waits, resync limits,
   * pacing); default rxjs `asyncScheduler`. A virtual-time scheduler steps through them in tests.
   */
  readonly scheduler?: SchedulerLike;
  /** Subscriptions (`S`, each bringing a checkpoint download) at most this often; default 10/s, 10 at once. */
  readonly subscribePacing?: { readonly ratePerSecond: number; readonly burst: number };
}

export type { TopicLoss } from './fastcast-topics.js';

// Each `S` brings a checkpoint: a whole summary downloaded and parsed, a few milliseconds of the
// event loop and a request on the live lane. 10 a second puts a slate of 165 games going live
// together (or a reconnect subscribing them all again) under 17 s, while a game's subscription
// waits at most that long, its game polled meanwhile; 10 at once keeps a small slate immediate.
export const DEFAULT_SUBSCRIBE_PACING = { ratePerSecond: 10, burst: 10 } as const;

export interface FastcastListener {
  /**
   * The topic has a new document (a checkpoint or a batch of patches applied to it). Returns why
   * it cannot be used, if it cannot (a header that does not read): the topic is resynced.
   */
  document(topic: string, update: TopicDocument): string | void;
  /** The topic's document is not kept current until the next `document` call. */
  lost(topic: string, reason: TopicLoss, detail: string): void;
}

export interface FastcastClient {
  /** Wants the topic (idempotent); connects if needed. */
  subscribe(topic: string): void;
  /** Forgets the topic. */
  unsubscribe(topic: string): void;
  /** Whether the socket is open and the `C` handshake answered. */
  readonly connected: boolean;
  close(): Promise<void>;
}

export const DEFAULT_SUBSCRIBE_TIMEOUT_MS = 10_000;

export { checkCheckpointUrl } from './fastcast-checkpoint-fetch.js';
export { DEFAULT_RESYNC_LIMIT, type ResyncLimit } from './fastcast-resync-limit.js';

export function createFastcastClient(
  options: FastcastClientOptions,
  listener: FastcastListener,
): FastcastClient {
  const timers = createClientTimers(options.scheduler ?? asyncScheduler);
  const now = options.now ?? timers.now;
  const random = options.random ? { random: options.random } : {};
  let closed = false;
  const topics = createTopics(
    {
      retryTopicMs: options.retryTopicMs,
      subscribeTimeoutMs: options.subscribeTimeoutMs ?? DEFAULT_SUBSCRIBE_TIMEOUT_MS,
      resyncMinMs: options.resyncMinMs,
      ...(options.resyncLimit ? { resyncLimit: options.resyncLimit } : {}),
      subscribePacing: options.subscribePacing ?? DEFAULT_SUBSCRIBE_PACING,
      checkpoints: {
        secure: new URL(options.discoveryUrl).protocol === 'https:',
        userAgent: options.userAgent,
        origin: options.origin,
        fetchDocument: options.fetchDocument,
      },
      timers,
      now,
      ...random,
      logger: options.logger,
      send: (message) => connection.send(message),
      session: () => connection.session,
      delivered: () => connection.delivered(),
    },
    listener,
  );
  const connection = createConnection(
    { ...options, timers, now },
    {
      wanted: () => topics.size > 0,
      opened: () => topics.sessionOpened(),
      dropped: (detail) => topics.socketDropped(detail),
      message: (message) => topics.message(message),
    },
  );

  return {
    subscribe(name) {
      if (closed || !topics.add(name)) return;
      if (connection.session === null) connection.connect();
    },
    unsubscribe: (name) => topics.remove(name),
    get connected() {
      return connection.session !== null;
    },
    async close() {
      closed = true;
      timers.close();
      await connection.close();
    },
  };
}
