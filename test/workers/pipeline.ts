import { parseAlertsConfig, type AlertsConfig } from '../../workers/rules-file.js';
import type { Alert } from '../../workers/alerts/types.js';
import { createAlertWorker } from '../../workers/alerts/worker.js';
import { createEventProducer } from '../../workers/producer.js';
import { createWebhookWorker } from '../../workers/webhooks/worker.js';
import type { TestRedis } from '../support/redis.js';
import { createLogger, type Logger } from '../../src/core/log.js';
import { evaluateAll } from '../support/alert-rules.js';
import { GameScript } from '../support/events.js';
import type { startReceiver } from '../support/receiver.js';

// COURTSIDE_TEST_LOGS=debug shows the workers' logs when a test needs explaining.
const defaultLogger = createLogger({ level: process.env.COURTSIDE_TEST_LOGS ?? 'silent', format: 'json' });

export const SECRET = 'test-secret-0123456789';

/** Every rule but the upset watch, with a points threshold low enough for `alertingGame`. */
export const ALERTING_RULES = {
  rules: { final_score: {}, lead_change: {}, close_game: {}, run: {}, player_points: { thresholds: [10] } },
};

/** A game (a fresh id each call) whose events trigger every rule of `ALERTING_RULES`: 8 alerts. */
export function alertingGame(): GameScript {
  const g = new GameScript(`40${Math.floor(Math.random() * 1e7)}`);
  g.started();
  for (let i = 0; i < 4; i++)
    g.scores('home', 3, { athlete: '1966', text: 'LeBron James makes three point jumper' });
  g.toPeriod(4, '6:00');
  for (let i = 0; i < 7; i++) g.scores('away', 2, { athlete: '9', text: 'Jayson Tatum makes layup' });
  g.at('1:30');
  g.scores('home', 3, { athlete: '1966', text: 'LeBron James makes three point jumper' });
  g.ended();
  return g;
}

/** The alert ids `rulesFile`'s rules give for a script, evaluated in order without Redis, sorted. */
export function expectedAlertIds(game: GameScript, rulesFile: Record<string, unknown>): string[] {
  const { alerts } = evaluateAll(game.events, parseAlertsConfig(rulesFile, {}).rules);
  return alerts.map((a) => a.id).sort();
}

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
    /** The workers' logger (default: silent, or COURTSIDE_TEST_LOGS's level). */
    logger?: Logger;
    /** Where `${NAME}` in the rules file is read from (default: process.env). */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<{
  config: AlertsConfig;
  producer: ReturnType<typeof createEventProducer>;
  alerts: Alert[];
  close(): Promise<void>;
}> {
  const config = parseAlertsConfig(
    { allowPrivateAddresses: true, backoffMs: 20, ...rulesFile },
    options.env ?? process.env,
  );
  const logger = options.logger ?? defaultLogger;
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

/** The alert ids a webhook receiver accepted, one per delivery (a doubled alert shows twice), sorted. */
export function acceptedAlertIds(receiver: Awaited<ReturnType<typeof startReceiver>>): string[] {
  return receiver
    .accepted()
    .map((r) => JSON.parse(r.body) as { kind: string; id: string })
    .filter((b) => b.kind === 'alert')
    .map((b) => b.id)
    .sort();
}
