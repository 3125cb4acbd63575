import type { Logger } from '../core/log.js';
import { fastcastNoTopic, fastcastResyncs } from '../core/metrics.js';
import { fetchCheckpoint, type CheckpointFetch } from './fastcast-checkpoint-fetch.js';
import { createNoTopicWatch } from './fastcast-no-topic.js';
import { createPacer, type Pacer } from './fastcast-pacer.js';
import { createResyncLimiter, type ResyncLimit, type ResyncLimiter } from './fastcast-resync-limit.js';
import type { ClientTimers } from './fastcast-timers.js';
import type { NoTopicWatch } from './fastcast-no-topic.js';
import { createTopic, type ResyncReason, type Topic, type TopicDocument } from './fastcast-topic.js';
import type { FastcastFrame } from './fastcast-wire.js';

/**
 * The FastCast client's subscriptions: the set of topics wanted, each one's document
 * (fastcast-topic.ts), and when each is asked for: paced (fastcast-pacer.ts), again after a 404 or
 * no checkpoint (fastcast-no-topic.ts), after a resync at most so often, and not at all while it
 * keeps resyncing (fastcast-resync-limit.ts). The socket is the connection's; this only needs to
 * send on it and to know its session.
 */

export type TopicLoss = ResyncReason | 'topic_404' | 'no_topic' | 'socket_closed' | 'resync_storm';

export interface TopicsListener {
  document(topic: string, update: TopicDocument): string | void;
  lost(topic: string, reason: TopicLoss, detail: string): void;
}

export interface TopicsOptions {
  readonly retryTopicMs: number;
  readonly subscribeTimeoutMs: number;
  readonly resyncMinMs: number;
  readonly resyncLimit?: ResyncLimit;
  readonly subscribePacing: { readonly ratePerSecond: number; readonly burst: number };
  readonly checkpoints: CheckpointFetch;
  readonly timers: ClientTimers;
  readonly now: () => number;
  readonly random?: () => number;
  readonly logger: Logger;
  /** Sends a message on the socket (dropped when none is open). */
  readonly send: (message: Record<string, unknown>) => void;
  /** The session open now, null while none is. */
  readonly session: () => string | null;
  /** A document was delivered (the service is not in maintenance). */
  readonly delivered: () => void;
}

export interface Topics {
  /** Adds the topic; false when it was wanted already. It is sent once a session is open. */
  add(name: string): boolean;
  /** Forgets the topic (and unsubscribes it). */
  remove(name: string): void;
  readonly size: number;
  /** A session opened: every topic is subscribed (paced). */
  sessionOpened(): void;
  /** The socket is gone: every topic waits for the next session; those that had something are lost. */
  socketDropped(detail: string): void;
  /** A message naming a topic (`S`, `H`, `R`, `P`, keep-alives). */
  message(message: FastcastFrame): void;
}

export function createTopics(options: TopicsOptions, listener: TopicsListener): Topics {
  const { timers, logger, send, session, now } = options;
  const { later } = timers;
  const topics = new Map<string, Topic>();
  const resyncs = createResyncLimiter(options.resyncMinMs, options.resyncLimit);
  const random = options.random ? { random: options.random } : {};
  const noTopics = createNoTopicWatch({
    timeoutMs: options.subscribeTimeoutMs,
    retryMs: options.retryTopicMs,
    later,
    session,
    expired: (name) => {
      if (topics.get(name)?.phase === 'subscribing') noTopic(name);
    },
    ...random,
  });
  const { subscribe, again, pacer } = createAsking(options, topics, resyncs, noTopics);

  /** Leaves `name` unsubscribed, its game polled, and tells the listener why. */
  const giveUp = (name: string, loss: TopicLoss, detail: string): void => {
    topics.get(name)?.reset('absent');
    send({ op: 'U', sid: session(), tc: name });
    listener.lost(name, loss, detail);
  };

  /** No `H` came for `name`: its game is polled, and it is asked for again after a backoff. */
  function noTopic(name: string): void {
    fastcastNoTopic.inc();
    const delay = noTopics.retryDelay(name);
    const detail = `subscribed and no checkpoint (H) within ${options.subscribeTimeoutMs / 1000} s; asked again in ${Math.round(delay / 1000)} s`;
    logger.info({ topic: name, retryInMs: delay }, `FastCast topic not published: ${detail}`);
    giveUp(name, 'no_topic', detail);
    again(name, delay, true);
  }

  /** Leaves `name` (paused by the limiter) alone: its game is polled, and it is asked for again after. */
  function pause(name: string, reason: ResyncReason): void {
    const limit = resyncs.limit;
    const detail = stormDetail(limit, reason);
    logger.warn({ topic: name, reason }, `FastCast topic keeps resyncing; ${detail}`);
    giveUp(name, 'resync_storm', detail);
    later(limit.pauseMs, () => {
      // Forgotten meanwhile (the game ended): nothing to ask for again.
      if (!resyncs.resume(name)) return;
      if (topics.has(name) && session() !== null) subscribe(name);
    });
  }

  function resync(name: string, reason: ResyncReason, detail: string): void {
    fastcastResyncs.inc({ reason });
    listener.lost(name, reason, detail);
    if (resyncs.tooMany(name, now())) return pause(name, reason);
    // Rate-limited: a topic whose patches keep failing asks for a checkpoint at most so often.
    again(name, resyncs.wait(name, now()), false);
  }

  return {
    add(name) {
      if (topics.has(name)) return false;
      const deliver = (): void => {
        noTopics.delivered(name);
        options.delivered();
      };
      topics.set(
        name,
        topicOf(name, options, listener, deliver, (reason, detail) => resync(name, reason, detail)),
      );
      subscribe(name);
      return true;
    },
    remove(name) {
      if (!topics.delete(name)) return;
      resyncs.forget(name);
      pacer.forget(name);
      noTopics.forget(name);
      send({ op: 'U', sid: session(), tc: name });
    },
    get size() {
      return topics.size;
    },
    sessionOpened() {
      for (const name of topics.keys()) subscribe(name);
    },
    socketDropped(detail) {
      // Subscriptions queued for the old socket: the next one's `C` queues them all again.
      pacer.clear();
      for (const [name, topic] of topics) {
        if (resyncs.paused(name)) continue;
        const had = topic.phase !== 'subscribing' || topic.doc !== undefined;
        topic.reset('subscribing');
        if (had) listener.lost(name, 'socket_closed', detail);
      }
    },
    message(m) {
      if (m.tc === undefined) return;
      const topic = topics.get(m.tc);
      if (!topic) return;
      if (m.op === 'S') {
        if (m.rc === 200) return;
        noTopics.answered(m.tc);
        topic.reset('absent');
        listener.lost(m.tc, 'topic_404', `subscribe answered rc ${m.rc ?? '?'}`);
        again(m.tc, options.retryTopicMs, true);
        return;
      }
      if (m.op === 'H') noTopics.answered(m.tc);
      topic.frame(m);
    },
  };
}

/** One topic of the set, its document handed to `listener` (`delivered` once it is taken). */
function topicOf(
  name: string,
  options: TopicsOptions,
  listener: TopicsListener,
  delivered: () => void,
  resync: (reason: ResyncReason, detail: string) => void,
): Topic {
  return createTopic(name, {
    document: (update) => {
      const refused = listener.document(name, update);
      if (typeof refused === 'string') return refused;
      delivered();
    },
    resync,
    skipped: (ops) =>
      options.logger.debug(
        { topic: name, skipped: ops.map((o) => `${o.op} ${o.path}: ${o.message}`) },
        'FastCast patch operations skipped on parts courtside does not read',
      ),
    fetchCheckpoint: (url) => fetchCheckpoint(options.checkpoints, url, name),
    soon: (fn) => setImmediate(fn),
    now: options.now,
  });
}

/** Why a topic that keeps resyncing is paused, in words. */
function stormDetail(limit: ResyncLimit, reason: ResyncReason): string {
  return (
    `${limit.count} resyncs within ${limit.windowMs / 1000} s (the last: ` +
    `${reason.replace(/_/g, ' ')}); push paused for ${limit.pauseMs / 1000} s`
  );
}

interface Asking {
  /** Subscribes `name` when the pacer has room; whatever changed meanwhile is checked then. */
  subscribe(name: string): void;
  /** Asks for `name` again after `ms` if it is still wanted (and still `absent`, if so told). */
  again(name: string, ms: number, onlyAbsent: boolean): void;
  readonly pacer: Pacer;
}

/** How the topics are asked for: `S` paced, on the session open then, unless paused. */
function createAsking(
  options: TopicsOptions,
  topics: ReadonlyMap<string, Topic>,
  resyncs: ResyncLimiter,
  noTopics: NoTopicWatch,
): Asking {
  const { session, send, now, timers } = options;
  const pacer = createPacer({ ...options.subscribePacing, now, later: timers.later });
  const subscribe = (name: string): void => {
    if (resyncs.paused(name) || session() === null) return;
    pacer.run(name, () => {
      const topic = topics.get(name);
      const sid = session();
      if (!topic || resyncs.paused(name) || sid === null) return;
      topic.reset('subscribing');
      send({ op: 'S', sid, tc: name });
      noTopics.subscribed(name, sid);
    });
  };
  return {
    subscribe,
    again: (name, ms, onlyAbsent) =>
      timers.later(ms, () => {
        const topic = topics.get(name);
        if (topic && (!onlyAbsent || topic.phase === 'absent') && session() !== null) subscribe(name);
      }),
    pacer,
  };
}
