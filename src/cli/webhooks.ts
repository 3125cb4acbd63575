import type { Command } from 'commander';
import { openFailedDeliveries } from '../../workers/webhooks/failed.js';
import { InvalidOptionsError } from '../core/errors.js';
import { commandGroup } from './command-group.js';
import { EXIT_FAILURE, EXIT_OK, say } from './fail.js';
import { checkRedis } from './redis-check.js';
import { prefixOf, redisOptions, redisUrlOf, type RedisFlags } from './redis-options.js';

/** `courtside webhooks failed|retry`: inspect and re-drive deliveries that used up their attempts. */
interface WebhooksFlags extends RedisFlags {
  json?: boolean;
  limit?: string;
  all?: boolean;
  bot?: string;
}

const EXAMPLES = `
Examples:
  $ courtside webhooks failed                  # id, bot, url, attempts, last error
  $ courtside webhooks failed --bot scores --json
  $ courtside webhooks retry --all --bot scores
  $ courtside webhooks retry --all
  $ courtside webhooks retry w.3f1c... w.9a07...`;

export function registerWebhooks(program: Command): void {
  const subcommand = commandGroup(
    program,
    {
      name: 'webhooks',
      description: 'webhook and chat deliveries: list and retry the failed set',
      examples: EXAMPLES,
    },
    redisOptions,
  );
  subcommand((webhooks) =>
    webhooks
      .command('failed')
      .description('List deliveries in the failed set')
      .option('--json', 'one JSON object per line')
      .option('--bot <name>', "only this bot's deliveries (default every bot's)")
      .option('--limit <n>', 'at most this many (default all)'),
  ).action(async (flags: WebhooksFlags) => {
    process.exitCode = await webhooksFailed(flags);
  });
  subcommand((webhooks) =>
    webhooks
      .command('retry')
      .description('Move failed deliveries back to the queue with fresh attempts')
      .argument('[ids...]', 'job ids from `webhooks failed`')
      .option('--all', 'every failed delivery')
      .option('--bot <name>', "only in this bot's failed set (default every bot's)"),
  ).action(async (ids: string[], flags: WebhooksFlags) => {
    process.exitCode = await webhooksRetry(ids, flags);
  });
}

/** The failed set, once Redis has answered: a wrong URL is one line, not a stream of retries. */
async function open(
  flags: WebhooksFlags,
  env: NodeJS.ProcessEnv,
): Promise<ReturnType<typeof openFailedDeliveries>> {
  const redisUrl = redisUrlOf(flags, env);
  const prefix = prefixOf(flags, env);
  await checkRedis(redisUrl);
  return openFailedDeliveries({ redisUrl, prefix });
}

function limitOf(flags: WebhooksFlags): number | undefined {
  if (flags.limit === undefined) return undefined;
  const limit = Number(flags.limit);
  if (!(Number.isInteger(limit) && limit > 0)) {
    throw new InvalidOptionsError(`--limit: "${flags.limit}" is not a positive integer`);
  }
  return limit;
}

export async function webhooksFailed(
  flags: WebhooksFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const limit = limitOf(flags);
  const failed = await open(flags, env);
  try {
    const rows = await failed.list(limit, flags.bot);
    if (flags.json) {
      for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
    } else if (rows.length === 0) {
      process.stdout.write('no failed deliveries\n');
    } else {
      process.stdout.write('id\tbot\turl\tattempts\tlast error\n');
      for (const row of rows) {
        // `-`: the queue every bot shared before bots had queues of their own.
        process.stdout.write(
          `${row.id}\t${row.bot ?? '-'}\t${row.url}\t${row.attempts}\t${row.lastError.replace(/\s+/g, ' ')}\n`,
        );
      }
    }
    return EXIT_OK;
  } finally {
    await failed.close();
  }
}

export async function webhooksRetry(
  ids: readonly string[],
  flags: WebhooksFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  if (!flags.all && ids.length === 0) throw new InvalidOptionsError('give job ids or --all');
  const failed = await open(flags, env);
  try {
    const { retried, missing } = await failed.retry(flags.all ? { all: true } : { ids }, flags.bot);
    process.stdout.write(`retried ${retried.length} deliveries\n`);
    for (const id of missing) say('webhooks retry', `not in the failed set: ${id}`);
    return missing.length > 0 && !flags.all ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await failed.close();
  }
}
