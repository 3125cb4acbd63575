import { getHeapStatistics } from 'node:v8';
import type { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../daemon/config.js';
import { createDaemon, type Daemon } from '../daemon/daemon.js';
import { loadPushConfig, type LoadedPushConfig, type PushFlags } from '../daemon/push-config.js';
import { planPush } from '../daemon/push-plan.js';
import { CourtsideError } from '../core/errors.js';
import { createLogger, type Logger } from '../core/log.js';
import { loadRuleSettings, type RuleSettings } from '../../workers/rules-file.js';
import { EXIT_FAILURE, fail } from './fail.js';
import { checkRedis } from './redis-check.js';
import { exitOnSignals } from './shutdown.js';

/**
 * `courtside serve`: the daemon in the foreground. Prints `courtside listening on <url>` on
 * stdout once the port is bound (scripts and tests read the port from it); logs go to stderr.
 * SIGTERM or SIGINT shuts it down gracefully and exits 0 within 5 s.
 */
const EXAMPLES = `
Examples:
  $ courtside serve                                              # ESPN, port 8080, in-memory log
  $ courtside serve --port 0 --upstream http://127.0.0.1:4000    # against the simulator
  $ REDIS_URL=redis://127.0.0.1:6379 courtside serve             # shared log, job queue, leases
  $ courtside serve --leagues womens --summary-interval 5000 --tokens s3cret
  $ courtside serve --rules examples/rules.yaml                  # lower thirds by the alert worker's rules
Every flag has an environment variable (flags win); see docs/configuration.md.`;

// The orchestrator's grace period is usually 10 s; ours is 5 s, so a hung step cannot stall exit.
const HARD_EXIT_MS = 5_000;

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the daemon: pollers, event log, WebSocket/SSE streams and the HTTP API')
    .option('--port <port>', 'port to listen on, 0 for a free one (PORT, default 8080)')
    .option('--host <host>', 'address to bind (HOST, default 0.0.0.0)')
    .option(
      '--upstream <url>',
      'ESPN-compatible base URL (COURTSIDE_UPSTREAM, default https://site.api.espn.com)',
    )
    .option('--redis <url>', 'Redis URL for the shared log, queues and leases (REDIS_URL; unset: in memory)')
    .option('--prefix <prefix>', 'Redis key prefix (COURTSIDE_PREFIX, default courtside:)')
    .option('--leagues <list>', 'leagues to poll, comma-separated (COURTSIDE_LEAGUES, default mens,womens)')
    .option(
      '--summary-interval <ms>',
      'live summary poll interval, >= 1000 (COURTSIDE_SUMMARY_INTERVAL_MS, default 3000)',
    )
    .option(
      '--live-budget <n>',
      'summary requests a second shared by all live games, 1-50 (COURTSIDE_LIVE_BUDGET, default 30)',
    )
    .option('--tokens <list>', 'bearer tokens, comma-separated (COURTSIDE_TOKENS; unset: no auth)')
    .option('--origins <list>', 'allowed browser origins, comma-separated (COURTSIDE_ORIGINS; unset: any)')
    .option('--retention <n>', 'most events kept in the log per league (COURTSIDE_RETENTION, default 250000)')
    .option(
      '--retention-hours <h>',
      'events younger than this are kept (COURTSIDE_RETENTION_HOURS, default 36)',
    )
    .option(
      '--finished-game-ttl <seconds>',
      'how long a finished game stays listed (COURTSIDE_FINISHED_GAME_TTL, default 86400)',
    )
    .option(
      '--previous-day-until <HH:MM>',
      "read the previous Eastern day's board until this Eastern time (COURTSIDE_PREVIOUS_DAY_UNTIL, default 06:00)",
    )
    .option(
      '--user-agent <agent>',
      'User-Agent sent upstream, of the form "Name/version (+https://...)" (COURTSIDE_USER_AGENT)',
    )
    .option('--force-user-agent', 'send --user-agent even in a form ESPN blocks (COURTSIDE_FORCE_USER_AGENT)')
    .option(
      '--rules <file>',
      "the lower thirds' rules: the `rules` of an alert rules file, JSON or YAML (COURTSIDE_RULES; default: every rule)",
    )
    .option('--push <on|off>', "live games over FastCast, ESPN's push service (COURTSIDE_PUSH, default on)")
    .option(
      '--fastcast-url <url>',
      "FastCast's discovery URL (COURTSIDE_FASTCAST_URL; default ESPN's, or the --upstream's own when it is not ESPN)",
    )
    .option(
      '--reconcile-interval <ms>',
      'summary poll of a game fed by push (COURTSIDE_RECONCILE_MS, default 15000)',
    )
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent (LOG_LEVEL, default info)')
    .option(
      '--log-format <format>',
      'pretty|json|auto: logs as readable lines or JSON; auto is pretty on a terminal (LOG_FORMAT, default auto)',
    )
    .option(
      '--wait-replicas <n>',
      'Redis replicas that must acknowledge each commit before its events go out (COURTSIDE_WAIT_REPLICAS, default 0)',
    )
    .option(
      '--role <role>',
      'all|poller|gateway: poll and serve, only poll, or only serve viewers from the shared log (COURTSIDE_ROLE, default all)',
    )
    .option(
      '--on-demand-rate <n>',
      'on-demand upstream requests a second (COURTSIDE_ON_DEMAND_RATE, default 10)',
    )
    .option(
      '--on-demand-burst <n>',
      'on-demand upstream requests at once (COURTSIDE_ON_DEMAND_BURST, default 10)',
    )
    .option(
      '--rate-limit <rate/burst>',
      'each HTTP API client, or off (COURTSIDE_RATE_LIMIT, default 50/100)',
    )
    .option('--token-rate-limits <list>', 'token=rate/burst per token (COURTSIDE_TOKEN_RATE_LIMITS)')
    .option('--trusted-proxies <list>', 'proxies whose X-Forwarded-For counts (COURTSIDE_TRUSTED_PROXIES)')
    .option(
      '--stream-connections-per-address <n>',
      'streams one address may hold (COURTSIDE_STREAM_CONNECTIONS_PER_ADDRESS, default 500)',
    )
    .option(
      '--subscribe-rate-limit <rate/burst>',
      'subscribes and resumes per address, or off (COURTSIDE_SUBSCRIBE_RATE_LIMIT, default 20/100)',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (flags: ServeFlags) => {
      await runServe(flags);
    });
}

/** `serve`'s flags: the daemon's configuration, and the rules file its lower thirds follow. */
export type ServeFlags = ConfigFlags & PushFlags & { rules?: string };

export async function runServe(
  flags: ServeFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Daemon | undefined> {
  let config;
  let momentRules: RuleSettings | undefined;
  let push: LoadedPushConfig | null;
  try {
    config = loadConfig({ env, flags });
    push = loadPushConfig({ env, flags, upstream: config.upstream });
    const rulesFile = flags.rules ?? (env.COURTSIDE_RULES || undefined);
    if (rulesFile !== undefined) momentRules = await readMomentRules(rulesFile);
    // Before anything connects: the bus, the producer and the health check would each retry it.
    if (config.redisUrl) await checkRedis(config.redisUrl);
  } catch (err) {
    fail('serve', err, { logLevel: flags.logLevel ?? env.LOG_LEVEL });
    return undefined;
  }
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  installCrashGuards(logger);
  // One line that says what push will do: which FastCast, or that push is off and why.
  const plan = await planPush(push, { role: config.role });
  logger.info({ push: plan.push === null ? 'off' : plan.push.fastcastUrl }, plan.notice);

  const daemon = createDaemon(config, {
    logger,
    push: plan.push,
    pushNotice: plan.notice,
    ...(momentRules ? { momentRules } : {}),
  });
  try {
    await daemon.start();
  } catch (err) {
    await daemon.close();
    process.exit(fail('serve', err, { logLevel: config.logLevel, logger }));
  }
  // The heap limit sets how far V8 lets the old space grow between collections (see
  // docs/configuration.md, "Memory"): logged so an operator sees which one is in force.
  const heapLimitMb = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
  logger.info({ url: daemon.url, upstream: config.upstream, heapLimitMb }, 'courtside listening');
  process.stdout.write(`courtside listening on ${daemon.url}\n`);

  exitOnSignals({ logger, close: () => daemon.close(), hardExitMs: HARD_EXIT_MS });
  return daemon;
}

/**
 * The `rules` of a rules file (the alert worker's, `docs/alerts.md`), for the lower thirds' defaults.
 * A file that cannot be read is a mistake in the call, named by its flag, as `courtside worker` says.
 */
async function readMomentRules(file: string): Promise<RuleSettings> {
  try {
    return await loadRuleSettings(file);
  } catch (err) {
    if (err instanceof CourtsideError) throw err;
    // "ENOENT: no such file or directory, open 'rules.yaml'": the path is already in our sentence.
    const reason = (err instanceof Error ? err.message : String(err)).replace(/, \w+ '.*'$/, '');
    throw new CourtsideError('INVALID_OPTIONS', `--rules: cannot read ${file}: ${reason}`, { cause: err });
  }
}

/**
 * A stray rejected promise (a component's bug, a library's late error) is logged, not fatal: the
 * daemon keeps serving. An uncaught exception leaves state unknown, so it is logged and the
 * process exits non-zero for the supervisor to restart it.
 */
function installCrashGuards(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    const code = reason instanceof CourtsideError ? reason.code : undefined;
    logger.error({ err: reason, code }, 'unhandled promise rejection (ignored, still serving)');
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception; exiting');
    process.exit(EXIT_FAILURE);
  });
}
