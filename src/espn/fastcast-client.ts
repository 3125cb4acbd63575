import { Agent } from 'undici';
import WebSocket from 'ws';
import type { Logger } from '../core/log.js';
import {
  fastcastMaintenance,
  fastcastNoTopic,
  fastcastOversize,
  fastcastReconnects,
  fastcastResyncs,
} from '../core/metrics.js';
import { Backoff } from '../core/backoff.js';
import { discover } from './fastcast-discovery.js';
import { createNoTopicWatch } from './fastcast-no-topic.js';
import { MAX_PAYLOAD_BYTES, socketPath, type FastcastFrame } from './fastcast-frames.js';
import { knownOp, readSocketFrame } from './fastcast-frame-intake.js';
import { createTokenForms } from './fastcast-token-form.js';
import { createTopic, type ResyncReason, type Topic, type TopicDocument } from './fastcast-topic.js';
import { createSocketTls, fastcastTrust } from './fastcast-tls.js';
import { fetchCheckpoint } from './fastcast-checkpoint-fetch.js';
import { createPacer } from './fastcast-pacer.js';
import { createResyncLimiter, type ResyncLimit } from './fastcast-resync-limit.js';
import type { DocumentRequest, FetchedDocument } from './http.js';

/**
 * The FastCast client: one socket for every topic, discovery before each connection (its token
 * is short-lived), the `C`/`S` handshake, checkpoints, patches (fastcast-topic.ts), heartbeats
 * and reconnection with jittered backoff. It only reports what it knows: which topic has a
 * document and which one lost it; the engine decides what to poll.
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
  readonly now?: () => number;
  readonly random?: () => number;
  /** Subscriptions (`S`, each bringing a checkpoint download) at most this often; default 10/s, 10 at once. */
  readonly subscribePacing?: { readonly ratePerSecond: number; readonly burst: number };
}

export type TopicLoss = ResyncReason | 'topic_404' | 'no_topic' | 'socket_closed' | 'resync_storm';

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

// After a maintenance message the service is away for a while: asking again as soon as after a
// dropped socket would meet the same maintenance, so its backoff starts this many times higher.
const MAINTENANCE_BACKOFF_FACTOR = 10;

// What FastCast announces; used until its own `C` answer says otherwise.
const DEFAULT_HBI_SECONDS = 30;

export { checkCheckpointUrl } from './fastcast-checkpoint-fetch.js';
export { DEFAULT_RESYNC_LIMIT, type ResyncLimit } from './fastcast-resync-limit.js';

export function createFastcastClient(
  options: FastcastClientOptions,
  listener: FastcastListener,
): FastcastClient {
  const now = options.now ?? Date.now;
  const { logger } = options;
  const trust = options.ca === undefined ? undefined : fastcastTrust(options.ca);
  const dispatcher = new Agent({
    keepAliveTimeout: 30_000,
    ...(trust ? { connect: { ca: trust } } : {}),
  });
  // The socket's TLS (fastcast-tls.ts); the first certificate naming the discovery host is logged.
  const socketTls = createSocketTls(options.discoveryUrl, trust, logger);
  const subscribeTimeoutMs = options.subscribeTimeoutMs ?? DEFAULT_SUBSCRIBE_TIMEOUT_MS;
  const topics = new Map<string, Topic>();
  const resyncs = createResyncLimiter(options.resyncMinMs, options.resyncLimit);
  const timers = new Set<NodeJS.Timeout>();
  let ws: WebSocket | null = null;
  let sid: string | null = null;
  let hbiMs = DEFAULT_HBI_SECONDS * 1000;
  let lastHeard = 0;
  let closed = false;
  let connecting = false;
  let heartbeat: NodeJS.Timeout | null = null;
  const tokenForms = createTokenForms();
  const random = options.random ? { random: options.random } : {};

  // Jittered exponential backoff between connections; a `C` answered resets it.
  const backoff = new Backoff({ baseMs: options.backoffBaseMs, maxMs: options.backoffMaxMs, ...random });
  // After `M`: reset by a document only, since a server in maintenance may still answer `C`.
  const maintenanceBackoff = new Backoff({
    baseMs: Math.min(options.backoffMaxMs, options.backoffBaseMs * MAINTENANCE_BACKOFF_FACTOR),
    maxMs: options.backoffMaxMs,
    ...random,
  });

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, ms);
    timers.add(t);
  };

  const secure = new URL(options.discoveryUrl).protocol === 'https:';

  const checkpointFetch = {
    secure,
    userAgent: options.userAgent,
    origin: options.origin,
    fetchDocument: options.fetchDocument,
  };

  const send = (frame: Record<string, unknown>): void => {
    if (ws?.readyState !== WebSocket.OPEN) return;
    const text = JSON.stringify(frame);
    options.tap?.('out', text);
    ws.send(text);
  };

  const noTopics = createNoTopicWatch({
    timeoutMs: subscribeTimeoutMs,
    retryMs: options.retryTopicMs,
    later,
    session: () => sid,
    expired: (name) => {
      if (topics.get(name)?.phase === 'subscribing') noTopic(name);
    },
    ...random,
  });

  const subscribePacer = createPacer({
    ...(options.subscribePacing ?? DEFAULT_SUBSCRIBE_PACING),
    now,
    later,
  });

  /** Subscribes `name` when the pacer has room; whatever changed meanwhile is checked then. */
  const sendSubscribe = (name: string): void => {
    if (resyncs.paused(name) || sid === null) return;
    subscribePacer.run(name, () => {
      const topic = topics.get(name);
      if (!topic || resyncs.paused(name) || sid === null) return;
      topic.reset('subscribing');
      send({ op: 'S', sid, tc: name });
      noTopics.subscribed(name, sid);
    });
  };

  /** No `H` came for `name`: its game is polled, and it is asked for again after a backoff. */
  function noTopic(name: string): void {
    fastcastNoTopic.inc();
    topics.get(name)?.reset('absent');
    send({ op: 'U', sid, tc: name });
    const delay = noTopics.retryDelay(name);
    const detail = `subscribed and no checkpoint (H) within ${subscribeTimeoutMs / 1000} s; asked again in ${Math.round(delay / 1000)} s`;
    logger.info({ topic: name, retryInMs: delay }, `FastCast topic not published: ${detail}`);
    listener.lost(name, 'no_topic', detail);
    later(delay, () => {
      if (topics.get(name)?.phase === 'absent' && sid !== null) sendSubscribe(name);
    });
  }

  function topicOf(name: string): Topic {
    let topic = topics.get(name);
    if (topic) return topic;
    topic = createTopic(name, {
      document: (update) => {
        const refused = listener.document(name, update);
        if (typeof refused === 'string') return refused;
        noTopics.delivered(name);
        maintenanceBackoff.reset();
      },
      resync: (reason, detail) => {
        fastcastResyncs.inc({ reason });
        listener.lost(name, reason, detail);
        if (resyncs.tooMany(name, now())) return pause(name, reason);
        // Rate-limited: a topic whose patches keep failing asks for a checkpoint at most so often.
        later(resyncs.wait(name, now()), () => {
          if (topics.has(name) && sid !== null) sendSubscribe(name);
        });
      },
      skipped: (ops) =>
        logger.debug(
          { topic: name, skipped: ops.map((o) => `${o.op} ${o.path}: ${o.message}`) },
          'FastCast patch operations skipped on parts courtside does not read',
        ),
      fetchCheckpoint: (url) => fetchCheckpoint(checkpointFetch, url, name),
      soon: (fn) => setImmediate(fn),
      now,
    });
    topics.set(name, topic);
    return topic;
  }

  /** Leaves `name` (paused by the limiter) alone: its game is polled, and it is asked for again after. */
  function pause(name: string, reason: ResyncReason): void {
    const resyncLimit = resyncs.limit;
    topics.get(name)?.reset('absent');
    send({ op: 'U', sid, tc: name });
    const detail =
      `${resyncLimit.count} resyncs within ${resyncLimit.windowMs / 1000} s (the last: ` +
      `${reason.replace(/_/g, ' ')}); push paused for ${resyncLimit.pauseMs / 1000} s`;
    logger.warn({ topic: name, reason }, `FastCast topic keeps resyncing; ${detail}`);
    listener.lost(name, 'resync_storm', detail);
    later(resyncLimit.pauseMs, () => {
      // Forgotten meanwhile (the game ended): nothing to ask for again.
      if (!resyncs.resume(name)) return;
      if (topics.has(name) && sid !== null) sendSubscribe(name);
    });
  }

  type DropReason = 'closed' | 'silent' | 'refused' | 'error' | 'maintenance';

  /** Closes the socket; it is opened again after `delay` (ms; by default the next backoff step). */
  function dropSocket(reason: DropReason, detail: string, delay?: number): void {
    const old = ws;
    ws = null;
    sid = null;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    old?.removeAllListeners();
    old?.on('error', () => undefined);
    old?.terminate();
    // Subscriptions queued for the old socket: the next one's `C` queues them all again.
    subscribePacer.clear();
    for (const [name, topic] of topics) {
      if (resyncs.paused(name)) continue;
      const had = topic.phase !== 'subscribing' || topic.doc !== undefined;
      topic.reset('subscribing');
      if (had) listener.lost(name, 'socket_closed', detail);
    }
    if (closed) return;
    const wait = delay ?? backoff.next();
    logger.warn({ reason, detail, retryInMs: wait }, 'FastCast connection lost; reconnecting');
    fastcastReconnects.inc({ reason });
    later(wait, () => void connect());
  }

  /** One socket frame: a message, or several as a JSON array, handled in order. */
  function onFrame(socket: WebSocket, text: string): void {
    options.tap?.('in', text);
    lastHeard = now();
    // A message may close the socket (`C` refused, `M`): the rest of the frame is for a dead session.
    for (const frame of readSocketFrame(text, logger)) if (ws === socket) onMessage(frame);
  }

  function onMessage(frame: FastcastFrame): void {
    if (!knownOp(frame, logger)) return;
    if (frame.op === 'C') {
      if (frame.rc !== 200) return dropSocket('refused', `connect answered rc ${frame.rc ?? '?'}`);
      sid = frame.sid ?? '';
      if (frame.hbi !== undefined && frame.hbi > 0) hbiMs = frame.hbi * 1000;
      backoff.reset();
      startHeartbeat();
      for (const name of topics.keys()) sendSubscribe(name);
      return;
    }
    if (frame.op === 'M') {
      fastcastMaintenance.inc();
      const delay = maintenanceBackoff.next();
      return dropSocket('maintenance', `maintenance announced (M); reconnecting in ${delay} ms`, delay);
    }
    if (frame.tc === undefined) return;
    const topic = topics.get(frame.tc);
    if (!topic) return;
    if (frame.op === 'S') {
      if (frame.rc === 200) return;
      noTopics.answered(frame.tc);
      topic.reset('absent');
      listener.lost(frame.tc, 'topic_404', `subscribe answered rc ${frame.rc ?? '?'}`);
      const name = frame.tc;
      later(options.retryTopicMs, () => {
        if (topics.get(name)?.phase === 'absent' && sid !== null) sendSubscribe(name);
      });
      return;
    }
    if (frame.op === 'H') noTopics.answered(frame.tc);
    topic.frame(frame);
  }

  function startHeartbeat(): void {
    if (heartbeat) clearInterval(heartbeat);
    lastHeard = now();
    // Silence over twice the heartbeat: the socket is taken for dead even if TCP says otherwise.
    heartbeat = setInterval(
      () => {
        if (now() - lastHeard > 2 * hbiMs) dropSocket('silent', `nothing heard for ${now() - lastHeard} ms`);
      },
      Math.max(50, hbiMs / 4),
    );
    heartbeat.unref();
  }

  async function connect(): Promise<void> {
    if (closed || ws !== null || connecting || topics.size === 0) return;
    connecting = true;
    let found;
    try {
      found = await discover(dispatcher, {
        url: options.discoveryUrl,
        userAgent: options.userAgent,
        origin: options.origin,
        timeoutMs: options.timeoutMs,
      });
    } catch (error) {
      connecting = false;
      if (closed) return;
      const delay = backoff.next();
      logger.warn({ err: (error as Error).message, retryInMs: delay }, 'FastCast discovery failed');
      fastcastReconnects.inc({ reason: 'error' });
      later(delay, () => void connect());
      return;
    }
    connecting = false;
    if (closed) return;
    const { host, port, token } = found;
    const form = tokenForms.next();
    const scheme = secure ? 'wss' : 'ws';
    const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${socketPath(token, form)}`;
    // `ws` writes Upgrade, Host, Sec-WebSocket-Key and Sec-WebSocket-Version with exactly these
    // capitals, which FastCast requires; permessage-deflate is not offered.
    const socket = new WebSocket(url, {
      headers: { 'User-Agent': options.userAgent, Origin: options.origin },
      perMessageDeflate: false,
      handshakeTimeout: options.timeoutMs,
      maxPayload: MAX_PAYLOAD_BYTES,
      ...(url.startsWith('wss:') ? socketTls(host) : {}),
    });
    ws = socket;
    socket.on('open', () => {
      if (tokenForms.accepted(form))
        logger.info('FastCast accepted the token percent-encoded; sending it so from now on');
      send({ op: 'C' });
    });
    socket.on('message', (data) => onFrame(socket, String(data)));
    socket.on('ping', () => (lastHeard = now()));
    socket.on('unexpected-response', (_req, res) => {
      res.resume();
      const detail = `upgrade answered ${res.statusCode ?? '?'}`;
      const retry = tokenForms.refused(form, token);
      dropSocket(
        'refused',
        retry ? `${detail}; trying the token percent-encoded` : detail,
        retry ? 0 : undefined,
      );
    });
    socket.on('error', (error) => {
      if ((error as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
        fastcastOversize.inc({ kind: 'frame' });
      dropSocket('error', error.message);
    });
    socket.on('close', (code) => dropSocket('closed', `closed with code ${code}`));
  }

  return {
    subscribe(name) {
      if (closed || topics.has(name)) return;
      topicOf(name);
      if (sid !== null) sendSubscribe(name);
      else void connect();
    },
    unsubscribe(name) {
      if (!topics.delete(name)) return;
      resyncs.forget(name);
      subscribePacer.forget(name);
      noTopics.forget(name);
      send({ op: 'U', sid, tc: name });
    },
    get connected() {
      return sid !== null;
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      if (heartbeat) clearInterval(heartbeat);
      ws?.removeAllListeners();
      ws?.on('error', () => undefined);
      ws?.terminate();
      ws = null;
      await dispatcher.close();
    },
  };
}
