import { Queue, Worker, type Job } from 'bullmq';
import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';
import type { GameEvent } from '../../src/model/events.js';
import { silentLogger, type Logger } from '../../src/core/log.js';
import { queueDepth } from '../../src/core/metrics.js';
import {
  EVENTS_QUEUE,
  WEBHOOKS_QUEUE,
  bullPrefix,
  createRedisConnection,
  prefixForRedis,
  queueName,
} from '../queues.js';
import { botKeyPrefix, registerBot, rulesFingerprint, type BotRegistration } from '../bots.js';
import { logQueueErrors } from '../queue-errors.js';
import { workerHandle } from '../worker-handle.js';
import type { WebhookJobData } from '../webhooks/jobs.js';
import type { AlertsConfig } from '../rules-file.js';
import { GameStore } from './game-store.js';
import { TeamColors } from './team-colors.js';
import { MqttDestination } from '../mqtt/mqtt-destination.js';
import { evaluate } from './rules.js';
import { gameFilter, wantsGame } from './game-filter.js';
import { alertDeliveries } from './deliveries.js';
import { botFanOut } from './fan-out.js';
import { inGameOrder } from './game-order.js';
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

// How often queue depths are sampled into the gauge.
const DEPTH_SAMPLE_MS = 5_000;

/**
 * Runs one process of the bot `config.name`: registers it (refusing other rules under that name),
 * hands each event of the shared `courtside-events` to every live bot's own queue (whichever bot
 * process takes it), and consumes its bot's queue: evaluates the rules per game in `seq` order (a
 * per-game Redis lock plus a wait for the predecessor), and sends each alert once: a deterministic
 * id, a `fired` key in Redis, and deterministic webhook job ids. Alerts older than
 * `staleAfterSeconds` are dropped. The parts: the hand-out (fan-out.ts), the game order
 * (game-order.ts) and the deliveries (deliveries.ts); the rules and the MQTT brokers apply here.
 */
export function createAlertWorker(options: AlertWorkerOptions): AlertWorker {
  const logger = options.logger ?? silentLogger;
  const config = options.config;
  const prefix = prefixForRedis(options.redisUrl, options.prefix);
  const now = options.now ?? Date.now;
  const bot = config.name;
  // The bot's rule state, locks, parked events, fired marks and alert list: another bot with other
  // rules has its own, so neither's state or de-duplication hides the other's alerts.
  const botPrefix = botKeyPrefix(prefix, bot);
  const connection: Redis = createRedisConnection(options.redisUrl);
  const fanOutConnection: Redis = createRedisConnection(options.redisUrl);
  const commands: Redis = createRedisConnection(options.redisUrl);
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
  const fanOut = botFanOut(commands, prefix, bot, events);
  let registration: BotRegistration | undefined;
  const colors = new TeamColors(commands, prefix);
  const botFilter = gameFilter(config);
  const brokers = mqttBrokers(config, { commands, botPrefix, logger, now });
  const deliveries = alertDeliveries({
    config,
    prefix,
    botPrefix,
    commands,
    webhooks,
    colors,
    now,
    logger,
    onAlert: options.onAlert,
  });

  async function applyEvent(current: GameRuleState | undefined, event: GameEvent): Promise<GameRuleState> {
    const { state: next, alerts } = evaluate(current, event, config.rules);
    // Brokers first: a score's state topic is the latency-sensitive delivery.
    for (const broker of brokers) await broker.apply(event, current, next, alerts);
    for (const alert of alerts) await deliveries.sendAlert(alert, event);
    await deliveries.sendEvent(event);
    return next;
  }

  const inOrder = inGameOrder({
    store: new GameStore(commands, botPrefix),
    apply: applyEvent,
    gapWaitMs: options.gapWaitMs ?? 2_000,
    logger,
  });

  async function evaluateEvent(job: Job<GameEvent>): Promise<string> {
    return wantsGame(botFilter, job.data) ? inOrder(job.data) : 'filtered';
  }

  // Built stopped: the process registers as one of the bot's before it takes any event.
  const worker = new Worker<GameEvent>(eventsQueue, evaluateEvent, {
    connection,
    prefix: bullPrefix(prefix, eventsQueue),
    // Evaluation is a few Redis round trips; 4 overlaps them without starving the event loop.
    concurrency: options.concurrency ?? 4,
    autorun: false,
  });
  const fanOutWorker = new Worker<GameEvent>(EVENTS_QUEUE, fanOut.fanOut, {
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

  const sampler = sampleQueueDepths([
    [EVENTS_QUEUE, shared],
    [eventsQueue, events],
    [webhooksQueue, webhooks],
  ]);

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
      await Promise.all([webhooks.close(), shared.close(), ...fanOut.queues().map((q) => q.close())]);
      connection.disconnect();
      fanOutConnection.disconnect();
      commands.disconnect();
    },
  });
}

/** MQTT subscribers are published to from the worker, in each game's order, not through delivery jobs. */
function mqttBrokers(
  config: AlertsConfig,
  parts: { commands: Redis; botPrefix: string; logger: Logger; now: () => number },
): MqttDestination[] {
  return config.subscribers.flatMap((sub) =>
    sub.kind === 'mqtt'
      ? [
          new MqttDestination(sub, {
            ...parts,
            leagues: config.leagues,
            staleAfterSeconds: config.staleAfterSeconds,
          }),
        ]
      : [],
  );
}

/** Samples the queues' depths (waiting, delayed, prioritized) into the gauge, every DEPTH_SAMPLE_MS. */
function sampleQueueDepths(queues: ReadonlyArray<readonly [name: string, queue: Queue]>): NodeJS.Timeout {
  const sampler = setInterval(() => {
    void Promise.all(queues.map(([, queue]) => queue.getJobCounts('waiting', 'delayed', 'prioritized')))
      .then((counts) => {
        queues.forEach(([name], i) => queueDepth.set({ queue: name }, sum(counts[i] ?? {})));
      })
      .catch(() => undefined);
  }, DEPTH_SAMPLE_MS);
  sampler.unref();
  return sampler;
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
