import type { Command } from 'commander';
import { DEFAULT_PREFIX } from '../../workers/queues.js';
import { openFailedDeliveries } from '../../workers/webhooks/failed.js';

/** `courtside webhooks failed|retry`: inspect and re-drive deliveries that used up their attempts. */
interface WebhooksFlags {
  redis?: string;
  prefix?: string;
  json?: boolean;
  limit?: string;
  all?: boolean;
}

const EXAMPLES = `
Examples:
  $ courtside webhooks failed                  # id, url, attempts, last error
  $ courtside webhooks failed --json
  $ courtside webhooks retry --all
  $ courtside webhooks retry w.3f1c... w.9a07...`;

export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('webhook deliveries: list and retry the failed set');
  const common = (cmd: Command): Command =>
    cmd
      .option('--redis <url>', 'Redis URL (REDIS_URL, required)')
      .option('--prefix <prefix>', 'Redis key prefix (COURTSIDE_PREFIX, default courtside:)')
      .addHelpText('after', EXAMPLES);
  common(
    webhooks
      .command('failed')
      .description('List deliveries in the failed set')
      .option('--json', 'one JSON object per line')
      .option('--limit <n>', 'at most this many (default all)'),
  ).action(async (flags: WebhooksFlags) => {
    process.exitCode = await reported('failed', () => webhooksFailed(flags));
  });
  common(
    webhooks
      .command('retry')
      .description('Move failed deliveries back to the queue with fresh attempts')
      .argument('[ids...]', 'job ids from `webhooks failed`')
      .option('--all', 'every failed delivery'),
  ).action(async (ids: string[], flags: WebhooksFlags) => {
    process.exitCode = await reported('retry', () => webhooksRetry(ids, flags));
  });
}

/** Prints a failure (Redis unreachable, say) as one line instead of a stack trace. */
async function reported(name: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    process.stderr.write(`courtside webhooks ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

function open(
  flags: WebhooksFlags,
  env: NodeJS.ProcessEnv,
): ReturnType<typeof openFailedDeliveries> | undefined {
  const redisUrl = flags.redis ?? env.REDIS_URL;
  if (!redisUrl) {
    process.stderr.write('courtside webhooks: --redis or REDIS_URL is required\n');
    return undefined;
  }
  return openFailedDeliveries({ redisUrl, prefix: flags.prefix ?? env.COURTSIDE_PREFIX ?? DEFAULT_PREFIX });
}

export async function webhooksFailed(
  flags: WebhooksFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const failed = open(flags, env);
  if (!failed) return 1;
  try {
    const limit = flags.limit === undefined ? undefined : Number(flags.limit);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
      process.stderr.write(
        `courtside webhooks failed: --limit: "${flags.limit}" is not a positive integer\n`,
      );
      return 1;
    }
    const rows = await failed.list(limit);
    if (flags.json) {
      for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
    } else if (rows.length === 0) {
      process.stdout.write('no failed deliveries\n');
    } else {
      process.stdout.write('id\turl\tattempts\tlast error\n');
      for (const row of rows) {
        process.stdout.write(
          `${row.id}\t${row.url}\t${row.attempts}\t${row.lastError.replace(/\s+/g, ' ')}\n`,
        );
      }
    }
    return 0;
  } finally {
    await failed.close();
  }
}

export async function webhooksRetry(
  ids: readonly string[],
  flags: WebhooksFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  if (!flags.all && ids.length === 0) {
    process.stderr.write('courtside webhooks retry: give job ids or --all\n');
    return 1;
  }
  const failed = open(flags, env);
  if (!failed) return 1;
  try {
    const { retried, missing } = await failed.retry(flags.all ? { all: true } : { ids });
    process.stdout.write(`retried ${retried.length} deliveries\n`);
    for (const id of missing) process.stderr.write(`not in the failed set: ${id}\n`);
    return missing.length > 0 && !flags.all ? 1 : 0;
  } finally {
    await failed.close();
  }
}
