import { Agent } from 'undici';
import WebSocket, { type ClientOptions } from 'ws';
import { UpstreamHttpError, UpstreamNetworkError, UpstreamPayloadError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { fastcastBytes, fastcastFrames, fastcastReconnects, fastcastResyncs } from '../core/metrics.js';
import { Backoff } from '../core/backoff.js';
import { readFrame, socketPath, type FastcastFrame } from './fastcast-frames.js';
import { createTopic, type ResyncReason, type Topic, type TopicDocument } from './fastcast-topic.js';
import { fastcastServerIdentity, fastcastTrust } from './fastcast-tls.js';
import { readBody, type DocumentRequest, type FetchedDocument } from './http.js';

/**
 * The FastCast client: one socket for every topic, discovery before each connection (its token
 * is short-lived), the `C`/`S` handshake, checkpoints, patches (fastcast-topic.ts), heartbeats
 * and reconnection with jittered backoff. It only reports what it knows: which topic has a
 * document and which one lost it; the engine decides what to poll.
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
  readonly logger: Logger;
  readonly now?: () => number;
  readonly random?: () => number;
}

export type TopicLoss = ResyncReason | 'topic_404' | 'socket_closed' | 'resync_storm';

export interface ResyncLimit {
  readonly count: number;
  readonly windowMs: number;
  readonly pauseMs: number;
}

// A healthy topic resyncs now and then (a catch-up racing a newer checkpoint, a frame lost). One
// that resyncs every few seconds (a server numbering frames otherwise than the client expects,
// patches that never apply) would download a whole checkpoint and poll the summary each time,
// costing more than polling alone: after 10 in 2 minutes its game is polled for 10 minutes.
export const DEFAULT_RESYNC_LIMIT: ResyncLimit = { count: 10, windowMs: 120_000, pauseMs: 600_000 };

export interface FastcastListener {
  /** The topic has a new document (a checkpoint or a batch of patches applied to it). */
  document(topic: string, update: TopicDocument): void;
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

// The ops counted by name in the frames metric; anything else is counted as `other`.
const KNOWN_OPS: ReadonlySet<string> = new Set(['C', 'S', 'H', 'R', 'P', 'I', 'B']);
// What FastCast announces; used until its own `C` answer says otherwise.
const DEFAULT_HBI_SECONDS = 30;

/**
 * Throws `UpstreamPayloadError` when FastCast is reached over TLS (`secure`) and the checkpoint is
 * not: the checkpoint is the game's whole document, so one named over a TLS socket and fetched in
 * the clear could be rewritten by anyone on the path. (Any other scheme is refused by the download
 * itself, `getDocument`.)
 */
export function checkCheckpointUrl(secure: boolean, url: string): void {
  if (secure && !/^https:\/\//i.test(url))
    throw new UpstreamPayloadError(
      url,
      'checkpoint URL is not https:// although FastCast is reached over https://',
    );
}

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
  // URL keeps an IPv6 host in brackets; the name check wants the bare address.
  const serviceHost = new URL(options.discoveryUrl).hostname.replace(/^\[(.*)\]$/, '$1');
  let serviceHostLogged = false;
  const topics = new Map<string, Topic>();
  const lastResync = new Map<string, number>();
  const resyncLimit = options.resyncLimit ?? DEFAULT_RESYNC_LIMIT;
  // Each topic's recent resyncs (ms), and the topics left alone until their pause ends.
  const recentResyncs = new Map<string, number[]>();
  const paused = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let ws: WebSocket | null = null;
  let sid: string | null = null;
  let hbiMs = DEFAULT_HBI_SECONDS * 1000;
  let lastHeard = 0;
  let closed = false;
  let connecting = false;
  let heartbeat: NodeJS.Timeout | null = null;

  // Jittered exponential backoff between connections; a `C` answered resets it.
  const backoff = new Backoff({
    baseMs: options.backoffBaseMs,
    maxMs: options.backoffMaxMs,
    ...(options.random ? { random: options.random } : {}),
  });

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, ms);
    timers.add(t);
  };

  const headers = {
    'User-Agent': options.userAgent,
    Accept: 'application/json',
    'Accept-Encoding': 'gzip, deflate, br',
  };

  const secure = new URL(options.discoveryUrl).protocol === 'https:';

  async function getCheckpoint(url: string): Promise<unknown> {
    checkCheckpointUrl(secure, url);
    const { body, bytes } = await options.fetchDocument({
      name: 'fastcast_checkpoint',
      url,
      headers: { 'User-Agent': options.userAgent, Origin: options.origin },
    });
    fastcastBytes.inc({ kind: 'checkpoint' }, bytes);
    return body;
  }

  async function getDiscovery(): Promise<unknown> {
    const url = options.discoveryUrl;
    const u = new URL(url);
    let response;
    try {
      response = await dispatcher.request({
        origin: u.origin,
        path: u.pathname + u.search,
        method: 'GET',
        headers: { ...headers, Origin: options.origin },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
    } catch (cause) {
      throw new UpstreamNetworkError(url, { cause });
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new UpstreamHttpError(response.statusCode, url);
    }
    const encoding = response.headers['content-encoding'];
    const { text, bytes } = await readBody(
      response.body,
      Array.isArray(encoding) ? encoding[0] : encoding,
      url,
    );
    fastcastBytes.inc({ kind: 'discovery' }, bytes);
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new UpstreamPayloadError(url, 'body is not JSON', { cause });
    }
  }

  const send = (frame: Record<string, unknown>): void => {
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
  };

  const sendSubscribe = (name: string): void => {
    if (paused.has(name)) return;
    topics.get(name)?.reset('subscribing');
    send({ op: 'S', sid, tc: name });
  };

  function topicOf(name: string): Topic {
    let topic = topics.get(name);
    if (topic) return topic;
    topic = createTopic(name, {
      document: (update) => listener.document(name, update),
      resync: (reason, detail) => {
        fastcastResyncs.inc({ reason });
        listener.lost(name, reason, detail);
        if (tooManyResyncs(name)) return pause(name, reason);
        // Rate-limited: a topic whose patches keep failing asks for a checkpoint at most so often.
        const wait = Math.max(0, (lastResync.get(name) ?? -Infinity) + options.resyncMinMs - now());
        lastResync.set(name, now() + wait);
        later(wait, () => {
          if (topics.has(name) && sid !== null) sendSubscribe(name);
        });
      },
      fetchCheckpoint: getCheckpoint,
      soon: (fn) => setImmediate(fn),
      now,
    });
    topics.set(name, topic);
    return topic;
  }

  /** Notes a resync of `name`; true when that makes too many within the window. */
  function tooManyResyncs(name: string): boolean {
    const at = now();
    const times = (recentResyncs.get(name) ?? []).filter((t) => at - t < resyncLimit.windowMs);
    times.push(at);
    recentResyncs.set(name, times);
    return times.length >= resyncLimit.count;
  }

  /** Leaves `name` alone for the pause: its game is polled, and it is asked for again after. */
  function pause(name: string, reason: ResyncReason): void {
    paused.add(name);
    recentResyncs.delete(name);
    topics.get(name)?.reset('absent');
    send({ op: 'U', sid, tc: name });
    const detail =
      `${resyncLimit.count} resyncs within ${resyncLimit.windowMs / 1000} s (the last: ` +
      `${reason.replace(/_/g, ' ')}); push paused for ${resyncLimit.pauseMs / 1000} s`;
    logger.warn({ topic: name, reason }, `FastCast topic keeps resyncing; ${detail}`);
    listener.lost(name, 'resync_storm', detail);
    later(resyncLimit.pauseMs, () => {
      // Forgotten meanwhile (the game ended): nothing to ask for again.
      if (!paused.delete(name)) return;
      if (topics.has(name) && sid !== null) sendSubscribe(name);
    });
  }

  function dropSocket(reason: 'closed' | 'silent' | 'refused' | 'error', detail: string): void {
    const old = ws;
    ws = null;
    sid = null;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    old?.removeAllListeners();
    old?.on('error', () => undefined);
    old?.terminate();
    for (const [name, topic] of topics) {
      if (paused.has(name)) continue;
      const had = topic.phase !== 'subscribing' || topic.doc !== undefined;
      topic.reset('subscribing');
      if (had) listener.lost(name, 'socket_closed', detail);
    }
    if (closed) return;
    const delay = backoff.next();
    logger.warn({ reason, detail, retryInMs: delay }, 'FastCast connection lost; reconnecting');
    fastcastReconnects.inc({ reason });
    later(delay, connect);
  }

  function onFrame(text: string): void {
    lastHeard = now();
    fastcastBytes.inc({ kind: 'frame' }, Buffer.byteLength(text));
    let frame: FastcastFrame;
    try {
      frame = readFrame(text, 'fastcast');
    } catch (error) {
      logger.debug({ err: error }, 'FastCast frame ignored');
      return;
    }
    const op = KNOWN_OPS.has(frame.op) ? frame.op : 'other';
    fastcastFrames.inc({ op });
    if (frame.op === 'C') {
      if (frame.rc !== 200) return dropSocket('refused', `connect answered rc ${frame.rc ?? '?'}`);
      sid = frame.sid ?? '';
      if (frame.hbi !== undefined && frame.hbi > 0) hbiMs = frame.hbi * 1000;
      backoff.reset();
      startHeartbeat();
      for (const name of topics.keys()) sendSubscribe(name);
      return;
    }
    if (frame.tc === undefined) return;
    const topic = topics.get(frame.tc);
    if (!topic) return;
    if (frame.op === 'S') {
      if (frame.rc === 200) return;
      topic.reset('absent');
      listener.lost(frame.tc, 'topic_404', `subscribe answered rc ${frame.rc ?? '?'}`);
      const name = frame.tc;
      later(options.retryTopicMs, () => {
        if (topics.get(name)?.phase === 'absent' && sid !== null) sendSubscribe(name);
      });
      return;
    }
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
    let url: string;
    let host: string;
    try {
      const found = (await getDiscovery()) as Record<string, unknown>;
      host = typeof found.ip === 'string' ? found.ip : '';
      const port = Number(found.securePort);
      const token = typeof found.token === 'string' ? found.token : '';
      if (host === '' || !Number.isInteger(port) || token === '')
        throw new UpstreamPayloadError(
          options.discoveryUrl,
          'discovery answer lacks ip, securePort or token',
        );
      const scheme = secure ? 'wss' : 'ws';
      url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${socketPath(token)}`;
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
    // `ws` writes Upgrade, Host, Sec-WebSocket-Key and Sec-WebSocket-Version with exactly these
    // capitals, which FastCast requires; permessage-deflate is not offered.
    const socket = new WebSocket(url, {
      headers: { 'User-Agent': options.userAgent, Origin: options.origin },
      perMessageDeflate: false,
      handshakeTimeout: options.timeoutMs,
      ...(url.startsWith('wss:') ? socketTls(host) : {}),
    });
    ws = socket;
    socket.on('open', () => send({ op: 'C' }));
    socket.on('message', (data) => onFrame(String(data)));
    socket.on('ping', () => (lastHeard = now()));
    socket.on('unexpected-response', (_req, res) => {
      res.resume();
      dropSocket('refused', `upgrade answered ${res.statusCode ?? '?'}`);
    });
    socket.on('error', (error) => dropSocket('error', error.message));
    socket.on('close', (code) => dropSocket('closed', `closed with code ${code}`));
  }

  /**
   * The socket's TLS: the chain verified as always (rejectUnauthorized stays on), the name check
   * widened to the discovery host (fastcast-tls.ts). No SNI is sent for an IP, as `ws` and
   * browsers do (SNI carries host names only): clients sending none are the ones that were seen
   * served a certificate naming ESPN's service host, and asking that IP for the discovery host
   * by name could select another certificate or draw an `unrecognized_name` refusal.
   */
  function socketTls(address: string): ClientOptions {
    const check = fastcastServerIdentity(address, serviceHost, () => {
      if (serviceHostLogged) return;
      serviceHostLogged = true;
      logger.info(
        { address, serviceHost },
        "FastCast's certificate names the discovery host, not the address connected to; accepted for that name",
      );
    });
    return {
      rejectUnauthorized: true,
      ...(trust ? { ca: trust } : {}),
      // `ws` hands this to tls.connect as is; its typings describe an older, boolean form.
      checkServerIdentity: check as unknown as ClientOptions['checkServerIdentity'],
    };
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
      lastResync.delete(name);
      recentResyncs.delete(name);
      paused.delete(name);
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
