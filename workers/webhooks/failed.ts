import { Queue, type Job } from 'bullmq';
import { WEBHOOKS_QUEUE, bullPrefix, createRedisConnection, prefixForRedis, queueName } from '../queues.js';
import { knownBots } from '../bots.js';
import type { DestinationKind } from '../destinations/schema.js';
import type { WebhookJobData } from './jobs.js';

export interface FailedDelivery {
  id: string;
  /** The bot that queued it; null for the shared queue that workers of the previous version used. */
  bot: string | null;
  /** The subscriber's kind: `webhook`, `discord`, `slack`, `telegram` or `ntfy`. */
  kind: DestinationKind;
  /** Where it went; tokens in chat URLs are redacted. */
  url: string;
  subscriberId: string;
  idempotencyKey: string;
  attempts: number;
  lastError: string;
  failedAt: string | null;
}

export interface FailedDeliveries {
  /** The failed set of every bot (or of `bot` only), bot by bot. */
  list(limit?: number, bot?: string): Promise<FailedDelivery[]>;
  /**
   * Moves failed deliveries back to waiting with a fresh attempt count, in every bot's queue (or in
   * `bot`'s only). An id failed in two bots' queues (two bots with one subscriber id) retries both.
   */
  retry(
    selection: { all: true } | { ids: readonly string[] },
    bot?: string,
  ): Promise<{ retried: string[]; missing: string[] }>;
  close(): Promise<void>;
}

// Pages of failed jobs read at once: one Redis round trip each.
const PAGE = 500;

/** Inspection and re-drive of the webhook failed sets (`courtside webhooks failed|retry`). */
export function openFailedDeliveries(options: { redisUrl: string; prefix?: string }): FailedDeliveries {
  const prefix = prefixForRedis(options.redisUrl, options.prefix);
  // A command-line tool: give up after a few seconds rather than wait for Redis forever.
  const connection = createRedisConnection(options.redisUrl, {
    maxRetriesPerRequest: 2,
    connectTimeout: 3_000,
    retryStrategy: (times) => (times > 3 ? null : 500),
  });
  const queues = new Map<string | null, Queue<WebhookJobData>>();

  function queueOf(bot: string | null): Queue<WebhookJobData> {
    let queue = queues.get(bot);
    if (!queue) {
      const name = queueName(WEBHOOKS_QUEUE, bot ?? undefined);
      queue = new Queue<WebhookJobData>(name, { connection, prefix: bullPrefix(prefix, name) });
      queue.on('error', () => undefined);
      queues.set(bot, queue);
    }
    return queue;
  }

  /** The queues to look in: one bot's, or the shared one and every bot's. */
  async function queuesOf(bot: string | undefined): Promise<Array<[string | null, Queue<WebhookJobData>]>> {
    const bots: Array<string | null> =
      bot !== undefined ? [bot] : [null, ...(await knownBots(connection, prefix))];
    return bots.map((b) => [b, queueOf(b)]);
  }

  function describe(job: Job<WebhookJobData>, bot: string | null): FailedDelivery {
    return {
      id: job.id ?? '',
      bot,
      kind: job.data.destination ?? 'webhook',
      url: job.data.url,
      subscriberId: job.data.subscriberId,
      idempotencyKey: job.data.idempotencyKey,
      attempts: job.attemptsMade,
      lastError: job.failedReason ?? '',
      failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    };
  }

  async function allFailed(queue: Queue<WebhookJobData>, limit: number): Promise<Job<WebhookJobData>[]> {
    const out: Job<WebhookJobData>[] = [];
    for (let start = 0; out.length < limit; start += PAGE) {
      const page = (await queue.getFailed(start, start + PAGE - 1)) as Job<WebhookJobData>[];
      out.push(...page.filter((job) => job !== undefined));
      if (page.length < PAGE) break;
    }
    return out.slice(0, limit);
  }

  let closing: Promise<void> | null = null;
  return {
    async list(limit = Number.MAX_SAFE_INTEGER, bot) {
      const out: FailedDelivery[] = [];
      for (const [name, queue] of await queuesOf(bot)) {
        if (out.length >= limit) break;
        out.push(...(await allFailed(queue, limit - out.length)).map((job) => describe(job, name)));
      }
      return out;
    },
    async retry(selection, bot) {
      const retried: string[] = [];
      const found = new Set<string>();
      for (const [, queue] of await queuesOf(bot)) {
        const jobs: Array<Job<WebhookJobData> | undefined> =
          'all' in selection
            ? await allFailed(queue, Number.MAX_SAFE_INTEGER)
            : await Promise.all(
                selection.ids.map(async (id) => (await queue.getJob(id)) as Job<WebhookJobData> | undefined),
              );
        for (const job of jobs) {
          if (!job?.id || !(await job.isFailed())) continue;
          await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
          retried.push(job.id);
          found.add(job.id);
        }
      }
      const missing = 'all' in selection ? [] : selection.ids.filter((id) => !found.has(id));
      return { retried, missing };
    },
    close() {
      closing ??= (async () => {
        await Promise.all([...queues.values()].map((queue) => queue.close()));
        connection.disconnect();
      })();
      return closing;
    },
  };
}
