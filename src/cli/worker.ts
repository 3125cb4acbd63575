import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CourtsideError, InvalidOptionsError } from '../core/errors.js';
import { chooseLogFormat, createLogger, type Logger } from '../core/log.js';
import { registry } from '../core/metrics.js';
import { commandGroup } from './command-group.js';
import { fail } from './fail.js';
import { checkRedis } from './redis-check.js';
import { prefixOf, redisOptions, redisUrlOf, type RedisFlags } from './redis-options.js';
import { exitOnSignals } from './shutdown.js';
import { defaultAlertsConfig, loadAlertsConfig, type AlertsConfig } from '../../workers/rules-file.js';
import { createAlertWorker } from '../../workers/alerts/worker.js';
import { createWebhookWorker } from '../../workers/webhooks/worker.js';
import { assertSubscribersDeliverable } from '../../workers/subscriber-addresses.js';

/**
 * `courtside worker alerts|webhooks`: BullMQ workers, each its own process (several may run).
 * `alerts` evaluates the rules on `courtside-events` and, unless `--no-webhooks`, also delivers
 * `courtside-webhooks` in the same process; `webhooks` delivers only.
 */
interface WorkerFlags extends RedisFlags {
  rules?: string;
  concurrency?: string;
  webhookConcurrency?: string;
  webhooks?: boolean;
  metricsPort?: string;
  logLevel?: string;
  logFormat?: string;
}

const EXAMPLES = `
Examples:
  $ REDIS_URL=redis://127.0.0.1:6379 courtside worker alerts --rules rules.yaml
  $ courtside worker alerts --redis redis://redis:6379 --rules rules.json --concurrency 8 --metrics-port 9464
  $ courtside worker webhooks --rules rules.yaml        # deliveries only
  $ DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/... courtside worker alerts --rules examples/discord-bot.yaml
  $ courtside worker alerts --rules examples/home-assistant.yaml   # teams as Home Assistant devices over MQTT
The rules file format, and the chat destinations (discord, slack, telegram, ntfy), are in docs/alerts.md;
MQTT and Home Assistant in docs/home-assistant.md.`;

// Grace for in-flight jobs on SIGTERM; BullMQ re-queues anything still active after a crash anyway.
const HARD_EXIT_MS = 10_000;

/** The options both workers take, listed after each one's own. */
function workerOptions(cmd: Command): Command {
  const withRules = cmd.option(
    '--rules <file>',
    'rules file, JSON or YAML (COURTSIDE_RULES; default: every rule, no subscribers)',
  );
  return redisOptions(withRules)
    .option('--metrics-port <port>', 'serve Prometheus /metrics on this port (default: none)')
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent (LOG_LEVEL, default info)')
    .option(
      '--log-format <format>',
      'pretty|json|auto: logs as readable lines or JSON; auto is pretty on a terminal (LOG_FORMAT, default auto)',
    );
}

export function registerWorker(program: Command): void {
  const subcommand = commandGroup(
    program,
    { name: 'worker', description: 'run a BullMQ worker process (alerts, webhooks)', examples: EXAMPLES },
    workerOptions,
  );
  subcommand((worker) =>
    worker
      .command('alerts')
      .description('Evaluate alert rules on courtside-events; deliver webhooks unless --no-webhooks')
      .option('--concurrency <n>', 'events evaluated at once (default 4)')
      .option('--webhook-concurrency <n>', 'webhook deliveries in flight at once (default 16)')
      .option('--no-webhooks', 'do not deliver webhooks in this process'),
  ).action(async (flags: WorkerFlags) => {
    await runWorker('alerts', flags);
  });
  subcommand((worker) =>
    worker
      .command('webhooks')
      .description('Deliver courtside-webhooks jobs (signed POSTs and chat messages, with retries)')
      .option('--webhook-concurrency <n>', 'deliveries in flight at once (default 16)'),
  ).action(async (flags: WorkerFlags) => {
    await runWorker('webhooks', { ...flags, webhooks: true });
  });
}

function positive(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidOptionsError(`--${flag}: "${value}" is not a positive integer`);
  }
  return n;
}

export async function runWorker(
  kind: 'alerts' | 'webhooks',
  flags: WorkerFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ close(): Promise<void> } | undefined> {
  const logLevel = flags.logLevel ?? env.LOG_LEVEL;
  let config: AlertsConfig;
  let source: string;
  let redisUrl: string;
  let prefix: string;
  let concurrency: number | undefined;
  let webhookConcurrency: number | undefined;
  let metricsPort: number | undefined;
  try {
    chooseLogFormat(flags.logFormat ?? env.LOG_FORMAT);
    redisUrl = redisUrlOf(flags, env);
    prefix = prefixOf(flags, env);
    const rules = flags.rules ?? env.COURTSIDE_RULES;
    config = rules ? await readRules(rules) : defaultAlertsConfig();
    source = rules ? resolve(rules) : '(no rules file)';
    // Refused now rather than at every delivery, into the failed set.
    await assertSubscribersDeliverable(config);
    concurrency = positive('concurrency', flags.concurrency);
    webhookConcurrency = positive('webhook-concurrency', flags.webhookConcurrency);
    metricsPort = positive('metrics-port', flags.metricsPort);
    // Before the queues connect: each would retry a wrong URL forever, one warning at a time.
    await checkRedis(redisUrl);
  } catch (err) {
    fail(`worker ${kind}`, err, { logLevel });
    return undefined;
  }
  const logger = createLogger({
    level: flags.logLevel,
    format: flags.logFormat ?? env.LOG_FORMAT,
    name: `courtside-worker-${kind}`,
  });
  let metrics: Server | undefined;
  try {
    metrics = metricsPort === undefined ? undefined : await serveMetrics(metricsPort, logger);
  } catch (err) {
    fail(`worker ${kind}`, err, { logLevel, logger, portFlag: '--metrics-port' });
    return undefined;
  }

  const parts: Array<{ ready(): Promise<void>; close(): Promise<void> }> = [];
  if (kind === 'alerts') {
    parts.push(
      createAlertWorker({
        redisUrl,
        prefix,
        config,
        source,
        concurrency,
        logger: logger.child({ component: 'alerts' }),
      }),
    );
  }
  if (flags.webhooks !== false) {
    parts.push(
      createWebhookWorker({
        redisUrl,
        prefix,
        config,
        concurrency: webhookConcurrency,
        logger: logger.child({ component: 'webhooks' }),
      }),
    );
  }
  try {
    await Promise.all(parts.map((p) => p.ready()));
  } catch (err) {
    // Another rules file already runs under this bot's name: nothing was consumed.
    await Promise.all(parts.map((p) => p.close().catch(() => undefined)));
    await new Promise<void>((resolve) => (metrics ? metrics.close(() => resolve()) : resolve()));
    fail(`worker ${kind}`, err, { logLevel, logger });
    return undefined;
  }
  logger.info(
    {
      bot: config.name,
      rules: Object.entries(config.rules)
        .filter(([, r]) => r.enabled)
        .map(([n]) => n),
      subscribers: config.subscribers.length,
    },
    `courtside worker ${kind} running`,
  );

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await Promise.all(
        parts.map((p) => p.close().catch((err: unknown) => logger.error({ err }, 'close failed'))),
      );
      await new Promise<void>((resolve) => (metrics ? metrics.close(() => resolve()) : resolve()));
    })();
    return closing;
  };
  exitOnSignals({ logger, close, hardExitMs: HARD_EXIT_MS });
  return { close };
}

async function serveMetrics(port: number, logger: Logger): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    void registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => {
        logger.error({ err }, 'metrics failed');
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** The rules file; one that cannot be read is a mistake in the call, named by its flag. */
async function readRules(file: string): Promise<AlertsConfig> {
  try {
    return await loadAlertsConfig(file);
  } catch (err) {
    if (err instanceof CourtsideError) throw err;
    // "ENOENT: no such file or directory, open 'rules.yaml'": the path is already in our sentence.
    const reason = (err instanceof Error ? err.message : String(err)).replace(/, \w+ '.*'$/, '');
    throw new CourtsideError('INVALID_OPTIONS', `--rules: cannot read ${file}: ${reason}`, { cause: err });
  }
}
