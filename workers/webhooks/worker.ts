import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';
import { silentLogger, type Logger } from '../../src/core/log.js';
import { webhookDeliveries } from '../../src/core/metrics.js';
import type { AlertsConfig, SubscriberConfig } from '../rules-file.js';
import { logQueueErrors } from '../queue-errors.js';
import { WEBHOOKS_QUEUE, bullPrefix, createRedisConnection, prefixForRedis, queueName } from '../queues.js';
import { createChatDelivery } from '../destinations/chat-delivery.js';
import { workerHandle } from '../worker-handle.js';
import { deliverWebhook } from './deliver.js';
import type { WebhookJobData } from './jobs.js';

export interface WebhookWorkerOptions {
  redisUrl: string;
  prefix?: string;
  config: Pick<AlertsConfig, 'name' | 'subscribers' | 'allowPrivateAddresses' | 'timeoutMs'>;
  /** Deliveries in flight at once in this process. */
  concurrency?: number;
  logger?: Logger;
  /** Called after each successful delivery (benchmarks, tests). */
  onDelivered?: (job: WebhookJobData, status: number) => void;
  /** Chat destinations: waits longer than this go to the delayed set (default 30 s). */
  maxInlineWaitMs?: number;
}

export interface WebhookWorker {
  /** Resolves once connected and consuming. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

// A delivery in the shared queue of the previous version whose subscriber is another bot's is left
// for that bot's workers this long (re-offered every HANDOFF_DELAY_MS) before it fails.
const HANDOFF_MS = 10 * 60_000;
const HANDOFF_DELAY_MS = 1_000;

/**
 * Consumes the bot's `courtside-webhooks.<bot>` (and what is left in the shared `courtside-webhooks`
 * that workers of the previous version filled): POSTs each delivery, signed with the subscriber's current secret,
 * or, for a chat subscriber (Discord, Slack, Telegram, ntfy), posts it formatted for the chat.
 * A non-2xx answer throws, so BullMQ retries with the job's exponential backoff; after the last
 * attempt the job stays in the failed set (see `webhooks failed` / `webhooks retry`).
 */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const logger = options.logger ?? silentLogger;
  const prefix = prefixForRedis(options.redisUrl, options.prefix);
  const subscribers = new Map<string, SubscriberConfig>(options.config.subscribers.map((s) => [s.id, s]));
  const connection: Redis = createRedisConnection(options.redisUrl);
  const legacyConnection: Redis = createRedisConnection(options.redisUrl);
  const commands: Redis = createRedisConnection(options.redisUrl);
  const chats = createChatDelivery({
    commands,
    prefix,
    timeoutMs: options.config.timeoutMs,
    allowPrivateAddresses: options.config.allowPrivateAddresses,
    logger,
    maxInlineWaitMs: options.maxInlineWaitMs,
    onDelivered: options.onDelivered,
  });

  async function deliverLegacyJob(job: Job<WebhookJobData>, token?: string): Promise<{ status: number }> {
    if (!subscribers.has(job.data.subscriberId) && token && Date.now() - job.timestamp < HANDOFF_MS) {
      // Queued when every bot shared this queue: perhaps another bot's subscriber. Offer it again
      // without spending an attempt, so that bot's workers may take it.
      await job.moveToDelayed(Date.now() + HANDOFF_DELAY_MS, token);
      throw new DelayedError();
    }
    return deliverJob(job, token);
  }

  async function deliverJob(job: Job<WebhookJobData>, token?: string): Promise<{ status: number }> {
    const data = job.data;
    const subscriber = subscribers.get(data.subscriberId);
    if (!subscriber) {
      webhookDeliveries.inc({ outcome: 'refused' });
      throw new UnrecoverableError(`subscriber ${data.subscriberId} is not in the rules file`);
    }
    if ((data.destination ?? 'webhook') !== subscriber.kind) {
      webhookDeliveries.inc({ outcome: 'refused' });
      throw new UnrecoverableError(
        `subscriber ${data.subscriberId} is now of kind ${subscriber.kind}, not ${data.destination ?? 'webhook'}`,
      );
    }
    if (subscriber.kind === 'mqtt') {
      // The alert worker publishes to MQTT itself, in each game's order: no job is queued for it.
      webhookDeliveries.inc({ outcome: 'refused' });
      throw new UnrecoverableError(
        `subscriber ${data.subscriberId} is an MQTT broker, not delivered by jobs`,
      );
    }
    if (subscriber.kind !== 'webhook') return chats.deliver(job, token, subscriber);
    try {
      const result = await deliverWebhook({
        url: subscriber.url,
        secret: subscriber.secret,
        body: JSON.stringify(data.payload),
        idempotencyKey: data.idempotencyKey,
        timeoutMs: options.config.timeoutMs,
        allowPrivateAddresses: options.config.allowPrivateAddresses,
      });
      webhookDeliveries.inc({ outcome: 'delivered' });
      options.onDelivered?.(data, result.status);
      return { status: result.status };
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'WEBHOOK_REFUSED') {
        webhookDeliveries.inc({ outcome: 'refused' });
        logger.warn({ subscriber: subscriber.id, err: (err as Error).message }, 'webhook refused');
        // Retrying cannot make a forbidden address allowed.
        throw new UnrecoverableError((err as Error).message);
      }
      webhookDeliveries.inc({ outcome: 'failed' });
      logger.info(
        { subscriber: subscriber.id, attempt: job.attemptsMade + 1, err: (err as Error).message },
        'webhook delivery failed',
      );
      throw err;
    }
  }

  const botQueue = queueName(WEBHOOKS_QUEUE, options.config.name);
  const worker = new Worker<WebhookJobData>(botQueue, deliverJob, {
    connection,
    prefix: bullPrefix(prefix, botQueue),
    // Deliveries wait on the network, not the CPU: many in flight cost little.
    concurrency: options.concurrency ?? 16,
  });
  logQueueErrors(worker, logger, 'webhook worker');
  const legacy = new Worker<WebhookJobData>(WEBHOOKS_QUEUE, deliverLegacyJob, {
    connection: legacyConnection,
    prefix: bullPrefix(prefix, WEBHOOKS_QUEUE),
    // Only what an upgrade left behind: a trickle, then nothing.
    concurrency: 4,
  });
  logQueueErrors(legacy, logger, 'webhook worker (shared queue)');

  return workerHandle([worker, legacy], {
    release: () => {
      connection.disconnect();
      legacyConnection.disconnect();
      commands.disconnect();
    },
  });
}
