import { parseAlertsConfig, type AlertsConfig } from '../../workers/rules-file.js';
import type { Alert } from '../../workers/alerts/types.js';
import { createAlertWorker } from '../../workers/alerts/worker.js';
import { createEventProducer } from '../../workers/producer.js';
import { createWebhookWorker } from '../../workers/webhooks/worker.js';
import type { TestRedis } from '../support/redis.js';
import { createLogger } from '../../src/core/log.js';

// COURTSIDE_TEST_LOGS=debug shows the workers' logs when a test needs explaining.
const logger = createLogger({ level: process.env.COURTSIDE_TEST_LOGS ?? 'silent', pretty: false });

export const SECRET = 'test-secret-0123456789';

/** Producer → alert worker → webhook worker on a test Redis prefix, subscribers on loopback. */
export async function startPipeline(
  redis: TestRedis,
  rulesFile: Record<string, unknown>,
  options: {
    concurrency?: number;
    alertWorkers?: number;
    gapWaitMs?: number;
    /** Delivering worker processes' worth of webhook workers (default 1). */
    webhookWorkers?: number;
    maxInlineWaitMs?: number;
  } = {},
): Promise<{
  config: AlertsConfig;
  producer: ReturnType<typeof createEventProducer>;
  alerts: Alert[];
  close(): Promise<void>;
}> {
  const config = parseAlertsConfig({ allowPrivateAddresses: true, backoffMs: 20, ...rulesFile });
  const alerts: Alert[] = [];
  const producer = createEventProducer({ redisUrl: redis.url, prefix: redis.prefix, logger });
  const workers = Array.from({ length: options.alertWorkers ?? 1 }, () =>
    createAlertWorker({
      redisUrl: redis.url,
      prefix: redis.prefix,
      config,
      concurrency: options.concurrency ?? 4,
      gapWaitMs: options.gapWaitMs ?? 2_000,
      onAlert: (alert) => alerts.push(alert),
      logger,
    }),
  );
  const deliverers = Array.from({ length: options.webhookWorkers ?? 1 }, () =>
    createWebhookWorker({
      redisUrl: redis.url,
      prefix: redis.prefix,
      config,
      concurrency: 8,
      logger,
      maxInlineWaitMs: options.maxInlineWaitMs,
    }),
  );
  await Promise.all([...workers.map((w) => w.ready()), ...deliverers.map((d) => d.ready())]);
  return {
    config,
    producer,
    alerts,
    async close() {
      await producer.close();
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(deliverers.map((d) => d.close()));
    },
  };
}
