import { Queue, Worker, type Job } from 'bullmq';
import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';
import type { GameEvent } from '../../src/model/events.js';
import { silentLogger, type Logger } from '../../src/core/log.js';
import { alertsFired, alertsStale, queueDepth } from '../../src/core/metrics.js';
import {
  EVENTS_QUEUE,
  WEBHOOKS_QUEUE,
  bullPrefix,
  createRedisConnection,
  prefixForRedis,
  queueName,
} from '../queues.js';
import { EVENT_JOB_OPTIONS } from '../producer.js';
import { botKeyPrefix, liveBots, registerBot, rulesFingerprint, type BotRegistration } from '../bots.js';
import { logQueueErrors } from '../queue-errors.js';
import { workerHandle } from '../worker-handle.js';
import { RecentIds } from './recent-ids.js';
import { idempotencyKey, webhookJobOptions, type WebhookJobData } from '../webhooks/jobs.js';
import type { AlertsConfig, SubscriberConfig } from '../rules-file.js';
import { GameStore } from './game-store.js';
import { TeamColors } from './team-colors.js';
import { displayUrl } from '../destinations/redact.js';
import { MqttDestination } from '../mqtt/mqtt-destination.js';
import { evaluate } from './rules.js';
import { gameFilter, wantsGame, type GameFilter } from './game-filter.js';
import type { Alert, GameRuleState } from './types.js';

export interface AlertWorkerOptions {
  redisUrl: string;
  prefix?: string;
  config: AlertsConfig;
  /** Where the rules came from, named when another file claims the same bot (default: in code). */
  source?: string;
  /** Events evaluated at once by this process (different games run in parallel). */
  concurrency?: number;
  logger?: Logger;
  /** Wall clock in ms, for the staleness horizon. */
  now?: () => number;
  /**
   * How long an event whose predecessor (seq - 1) has not been applied yet waits for it before it
   * is applied anyway. Events of one game taken by different workers arrive out of order by
   * milliseconds; a real gap (an event dropped upstream) costs this much once.
   */
  gapWaitMs?: number;
  /** Called for each alert sent (after de-duplication and the staleness check). */
  onAlert?: (alert: Alert) => void;
}

export interface AlertWorker {
  ready(): Promise<void>;
  close(): Promise<void>;
}

// Alerts kept in `<prefix>alerts` for inspection (newest first).
const ALERT_LIST_LENGTH = 1_000;
// An alert key only has to outlive any replay of its game: a week.
const FIRED_TTL_SECONDS = 7 * 24 * 3600;
// A full slate fires well under a thousand alerts an evening: this covers weeks, in a few MB.
const FIRED_IN_MEMORY = 50_000;
// Polling for a missing predecessor: short against the gap wait, cheap for Redis.
const GAP_POLL_MS = 15;
// Parked successors applied under one lock hold: far inside the lock's 10 s at a few ms each.
const MAX_CHAIN = 200;
// How often queue depths are sampled into the gauge.
const DEPTH_SAMPLE_MS = 5_000;

/**
 * Runs one process of the bot `config.name`: registers it (refusing other rules under that name),
 * hands each event of the shared `courtside-events` to every live bot's own queue (whichever bot
 * process takes it), and consumes its bot's queue: evaluates the rules per game in `seq` order (a
 * per-game Redis lock plus a wait for the predecessor), and sends each alert once: a deterministic
 * id, a `fired` key in Redis, and deterministic webhook job ids. Alerts older than
 * `staleAfterSeconds` are dropped.
 */
export function createAlertWorker(options: AlertWorkerOptions): AlertWorker {
  const logger = options.logger ?? silentLogger;
  const config = options.config;
  const prefix = prefixForRedis(options.redisUrl, options.prefix);
  const now = options.now ?? Date.now;
  const gapWaitMs = options.gapWaitMs ?? 2_000;
  const bot = config.name;
  // The bot's rule state, locks, parked events, fired marks and alert list: another bot with other
  // rules has its own, so neither's state or de-duplication hides the other's alerts.
  const botPrefix = botKeyPrefix(prefix, bot);
  const connection: Redis = createRedisConnection(options.redisUrl);
  const fanOutConnection: Redis = createRedisConnection(options.redisUrl);
  const commands: Redis = createRedisConnection(options.redisUrl);
  const store = new GameStore(commands, botPrefix);
  const firedHere = new RecentIds(FIRED_IN_MEMORY);
  const webhooksQueue = queueName(WEBHOOKS_QUEUE, bot);
  const webhooks = new Queue<WebhookJobData>(webhooksQueue, {
    connection: commands,
    prefix: bullPrefix(prefix, webhooksQueue),
  });
  logQueueErrors(webhooks, logger, 'webhook queue');
  const eventsQueue = queueName(EVENTS_QUEUE, bot);
  const events = new Queue(eventsQueue, { connection: commands, prefix: bullPrefix(prefix, eventsQueue) });
  events.on('error', () => undefined);
  const shared = new Queue(EVENTS_QUEUE, { connection: commands, prefix: bullPrefix(prefix, EVENTS_QUEUE) });
  shared.on('error', () => undefined);
  // Every live bot's events queue, opened on first use by the fan-out.
  const botQueues = new Map<string, Queue>([[bot, events]]);
  let registration: BotRegistration | undefined;
  const colors = new TeamColors(commands, prefix);
  const botFilter = gameFilter(config);
  const subscriberFilters = new Map<SubscriberConfig, GameFilter>();
  // MQTT subscribers are published to from here, in each game's order, not through delivery jobs.
  const brokers = config.subscribers.flatMap((sub) =>
    sub.kind === 'mqtt'
      ? [
          new MqttDestination(sub, {
            commands,
            botPrefix,
            leagues: config.leagues,
            staleAfterSeconds: config.staleAfterSeconds,
            logger,
            now,
          }),
        ]
      : [],
  );

  function subscribed(sub: SubscriberConfig, event: GameEvent): boolean {
    let filter = subscriberFilters.get(sub);
    if (!filter) {
      filter = gameFilter({ ...sub, leagues: sub.leagues ?? config.leagues });
      subscriberFilters.set(sub, filter);
    }
    return wantsGame(filter, event);
  }

  async function sendAlert(alert: Alert, event: GameEvent): Promise<void> {
    // Already sent (a replay after a restart) is not "stale": check that first.
    const firedKey = `${botPrefix}alerts:fired:${alert.id}`;
    // The unscoped key is where a worker of the previous version (one bot per Redis) marked it.
    const legacyKey = `${prefix}alerts:fired:${alert.id}`;
    if (firedHere.has(alert.id) || (await commands.exists(firedKey, legacyKey)) > 0) return;
    const ageMs = now() - Date.parse(alert.at);
    if (ageMs > config.staleAfterSeconds * 1000) {
      alertsStale.inc();
      logger.debug({ alert: alert.id, ageMs }, 'stale alert dropped');
      return;
    }
    const targets = config.subscribers.filter(
      (sub) =>
        sub.kind !== 'mqtt' &&
        (sub.alerts === undefined || sub.alerts.includes('*') || sub.alerts.includes(alert.rule)) &&
        subscribed(sub, event),
    );
    const colored = { ...alert, colors: await colors.of(alert.league, alert.gameId) };
    // Webhook jobs first (their ids make a repeat a no-op), then the fired mark: a crash in between
    // re-runs this alert on retry without a second delivery.
    await queueDeliveries(targets, { id: alert.id, name: alert.rule, kind: 'alert', body: colored }, event);
    await commands
      .multi()
      .lpush(`${botPrefix}alerts`, JSON.stringify(colored))
      .ltrim(`${botPrefix}alerts`, 0, ALERT_LIST_LENGTH - 1)
      .set(firedKey, '1', 'EX', FIRED_TTL_SECONDS)
      .exec();
    firedHere.add(alert.id);
    alertsFired.inc({ rule: alert.rule });
    logger.info({ alert: alert.id, text: alert.text }, 'alert');
    options.onAlert?.(colored);
  }

  async function sendEvent(event: GameEvent): Promise<void> {
    // Chat subscribers take alerts only (their `events` is always empty).
    const targets = config.subscribers.filter(
      (sub) => sub.events.includes(event.type) && subscribed(sub, event),
    );
    await queueDeliveries(targets, { id: event.id, name: event.type, kind: 'event', body: event }, event);
  }

  /**
   * One webhook job per subscriber. The job ids derive from the alert's or event's id, so queueing
   * the same delivery again (a retry, a replay) adds nothing.
   */
  async function queueDeliveries(
    targets: readonly SubscriberConfig[],
    delivery: { id: string; name: string; kind: 'alert' | 'event'; body: Alert | GameEvent },
    event: GameEvent,
  ): Promise<void> {
    if (targets.length === 0) return;
    await webhooks.addBulk(
      targets.map((sub) => {
        const key = idempotencyKey(delivery.id, sub.id);
        return {
          name: delivery.name,
          data: {
            subscriberId: sub.id,
            destination: sub.kind,
            url: displayUrl(sub),
            idempotencyKey: key,
            kind: delivery.kind,
            payload: { kind: delivery.kind, ...delivery.body },
            queuedAt: new Date(now()).toISOString(),
            eventTimeMs: Date.parse(event.at),
          },
          opts: webhookJobOptions(key, config.attempts, config.backoffMs),
        };
      }),
    );
  }

  async function evaluateEvent(job: Job<GameEvent>): Promise<string> {
    const event = job.data;
    if (!wantsGame(botFilter, event)) return 'filtered';
    const { league, gameId } = event;
    const deadline = Date.now() + gapWaitMs;
    let parked = false;
    for (;;) {
      const held = await store.lockAndLoad(league, gameId);
      if (held) {
        let committed = false;
        try {
          const last = held.state?.lastSeq ?? 0;
          if (held.state && event.seq <= last) {
            // Applied already: by a peer that found it parked, or a duplicate delivery.
            if (parked) await store.unpark(league, gameId, [event.seq]);
            return 'done';
          }
          if (event.seq === last + 1 || Date.now() >= deadline) {
            if (event.seq !== last + 1) {
              logger.debug({ game: gameId, seq: event.seq, last }, 'gap in seq; applying anyway');
            }
            const { state, applied } = await applyChain(held.state, event, held.parked > 0);
            committed = true;
            if (!(await store.commit(league, gameId, held.token, state, applied))) {
              logger.warn(
                { game: gameId, seq: event.seq },
                'game lock expired during evaluation; state not saved',
              );
            }
            return `applied:${applied.length}`;
          }
          if (!parked) {
            await store.park(event);
            parked = true;
          }
        } finally {
          if (!committed) await store.release(league, gameId, held.token).catch(() => undefined);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, GAP_POLL_MS));
    }
  }

  /** Applies `first`, then (when any are parked) each parked successor in turn. */
  async function applyChain(
    state: GameRuleState | undefined,
    first: GameEvent,
    anyParked: boolean,
  ): Promise<{ state: GameRuleState; applied: number[] }> {
    const applied: number[] = [];
    let current = state;
    let event: GameEvent | undefined = first;
    while (event && applied.length < MAX_CHAIN) {
      const { state: next, alerts } = evaluate(current, event, config.rules);
      // Brokers first: a score's state topic is the latency-sensitive delivery.
      for (const broker of brokers) await broker.apply(event, current, next, alerts);
      for (const alert of alerts) await sendAlert(alert, event);
      await sendEvent(event);
      current = next;
      applied.push(event.seq);
      event = anyParked ? await store.parked(first.league, first.gameId, next.lastSeq + 1) : undefined;
    }
    // `first` always applies, so the loop ran at least once.
    return { state: current!, applied };
  }

  /**
   * One event of the shared queue, copied into each live bot's queue under the same job id: a retry
   * after a partial copy, or the same event from a replay, adds nothing to a bot that has it. Bots
   * are read per event, so one that starts gets the events from then on (the shared queue holds
   * what was added while no bot ran, and the first bot to start hands it out).
   */
  async function fanOut(job: Job<GameEvent>): Promise<string> {
    // This process's bot always: a Redis that lost its keys (restarted without persistence) has
    // forgotten the bots until their next heartbeat.
    const bots = [...new Set([bot, ...(await liveBots(commands, prefix))])];
    await Promise.all(
      bots.map((name) => {
        let queue = botQueues.get(name);
        if (!queue) {
          const queueOfBot = queueName(EVENTS_QUEUE, name);
          queue = new Queue(queueOfBot, { connection: commands, prefix: bullPrefix(prefix, queueOfBot) });
          queue.on('error', () => undefined);
          botQueues.set(name, queue);
        }
        return queue.add(job.name, job.data, { ...EVENT_JOB_OPTIONS, jobId: job.id });
      }),
    );
    return `bots:${bots.length}`;
  }

  // Built stopped: the process registers as one of the bot's before it takes any event.
  const worker = new Worker<GameEvent>(eventsQueue, evaluateEvent, {
    connection,
    prefix: bullPrefix(prefix, eventsQueue),
    // Evaluation is a few Redis round trips; 4 overlaps them without starving the event loop.
    concurrency: options.concurrency ?? 4,
    autorun: false,
  });
  const fanOutWorker = new Worker<GameEvent>(EVENTS_QUEUE, fanOut, {
    connection: fanOutConnection,
    prefix: bullPrefix(prefix, EVENTS_QUEUE),
    // One at a time across every process (the queue's global concurrency, set at start): each bot's
    // queue then receives a game's events in order, as the daemon added them. Out of order, a bot's
    // evaluations would wait on predecessors queued behind them. A copy is a round trip per bot.
    concurrency: 1,
    autorun: false,
  });
  logQueueErrors(fanOutWorker, logger, 'event fan-out');
  const repeats = logQueueErrors(worker, logger, 'alert worker');
  worker.on('failed', (job, err) =>
    repeats.log('warn', err.message, { job: job?.id, err: err.message }, 'event evaluation failed'),
  );

  const sampler = setInterval(() => {
    void Promise.all([
      shared.getJobCounts('waiting', 'delayed', 'prioritized'),
      events.getJobCounts('waiting', 'delayed', 'prioritized'),
      webhooks.getJobCounts('waiting', 'delayed', 'prioritized'),
    ])
      .then(([s, e, w]) => {
        queueDepth.set({ queue: EVENTS_QUEUE }, sum(s));
        queueDepth.set({ queue: eventsQueue }, sum(e));
        queueDepth.set({ queue: webhooksQueue }, sum(w));
      })
      .catch(() => undefined);
  }, DEPTH_SAMPLE_MS);
  sampler.unref();

  return workerHandle([worker, fanOutWorker], {
    start: async () => {
      await shared.setGlobalConcurrency(1);
      for (const broker of brokers) broker.start();
      registration = await registerBot(commands, {
        prefix,
        bot,
        fingerprint: rulesFingerprint(config),
        source: options.source ?? '(rules given in code)',
      });
      void worker.run().catch((err: unknown) => logger.error({ err }, 'alert worker stopped'));
      void fanOutWorker.run().catch((err: unknown) => logger.error({ err }, 'event fan-out stopped'));
    },
    stop: () => clearInterval(sampler),
    release: async () => {
      await registration?.close();
      await Promise.all(brokers.map((b) => b.close()));
      await Promise.all([webhooks.close(), shared.close(), ...[...botQueues.values()].map((q) => q.close())]);
      connection.disconnect();
      fanOutConnection.disconnect();
      commands.disconnect();
    },
  });
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
