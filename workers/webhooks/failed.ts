import { Queue, type Job } from 'bullmq';
import { WEBHOOKS_QUEUE, bullPrefix, createRedisConnection } from '../queues.js';
import type { DestinationKind } from '../destinations/schema.js';
import type { WebhookJobData } from './jobs.js';

export interface FailedDelivery {
  id: string;
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
  list(limit?: number): Promise<FailedDelivery[]>;
  /** Moves failed deliveries back to waiting with a fresh attempt count. */
  retry(
    selection: { all: true } | { ids: readonly string[] },
  ): Promise<{ retried: string[]; missing: string[] }>;
  close(): Promise<void>;
}

// Pages of failed jobs read at once: one Redis round trip each.
const PAGE = 500;

/** Inspection and re-drive of the webhook failed set (`courtside webhooks failed|retry`). */
export function openFailedDeliveries(options: { redisUrl: string; prefix?: string }): FailedDeliveries {
  // A command-line tool: give up after a few seconds rather than wait for Redis forever.
  const connection = createRedisConnection(options.redisUrl, {
    maxRetriesPerRequest: 2,
    connectTimeout: 3_000,
    retryStrategy: (times) => (times > 3 ? null : 500),
  });
  const queue = new Queue<WebhookJobData>(WEBHOOKS_QUEUE, {
    connection,
    prefix: bullPrefix(options.prefix, WEBHOOKS_QUEUE),
  });
  queue.on('error', () => undefined);

  function describe(job: Job<WebhookJobData>): FailedDelivery {
    return {
      id: job.id ?? '',
      kind: job.data.destination ?? 'webhook',
      url: job.data.url,
      subscriberId: job.data.subscriberId,
      idempotencyKey: job.data.idempotencyKey,
      attempts: job.attemptsMade,
      lastError: job.failedReason ?? '',
      failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    };
  }

  async function allFailed(limit: number): Promise<Job<WebhookJobData>[]> {
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
    async list(limit = Number.MAX_SAFE_INTEGER) {
      return (await allFailed(limit)).map(describe);
    },
    async retry(selection) {
      const retried: string[] = [];
      const missing: string[] = [];
      const jobs: Array<Job<WebhookJobData> | undefined> =
        'all' in selection
          ? await allFailed(Number.MAX_SAFE_INTEGER)
          : await Promise.all(
              selection.ids.map(async (id) => (await queue.getJob(id)) as Job<WebhookJobData> | undefined),
            );
      const ids = 'all' in selection ? jobs.map((job) => job?.id ?? '') : selection.ids;
      for (const [i, job] of jobs.entries()) {
        const id = ids[i] ?? '';
        if (!job || !(await job.isFailed())) {
          missing.push(id);
          continue;
        }
        await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        retried.push(id);
      }
      return { retried, missing };
    },
    close() {
      closing ??= (async () => {
        await queue.close();
        connection.disconnect();
      })();
      return closing;
    },
  };
}
