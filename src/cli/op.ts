import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { createEspnClient, type CallNotice, type EspnClient } from '../espn-client/client.js';
import { getOperation, OPERATION_NAMES, type OperationSpec } from '../espn/operations.js';
import { PARAM_RULES, type ParamName } from '../espn/params.js';
import { CourtsideError, InvalidConfigError, InvalidOptionsError } from '../core/errors.js';
import { createLogger, silentLogger } from '../core/log.js';
import { isSummaryTable, operationCsv, SUMMARY_TABLE_NAMES, tableToIpc } from '../tables/index.js';
import { EXIT_OK, EXIT_USAGE, exitCodeOf, fail } from './fail.js';

/**
 * `courtside op <operation>`: one call of the client, printed. Exit codes: 0 success,
 * 1 upstream (or parsing) failure, 2 invalid call (nothing is sent upstream).
 */

const FORMATS = ['json', 'csv', 'arrow', 'raw'] as const;
type Format = (typeof FORMATS)[number];

const PARAM_FLAGS: readonly ParamName[] = [
  'event_id',
  'dates',
  'season_type',
  'team_id',
  'athlete_id',
  'standings_type',
  'limit',
  'season',
  'week',
  'groups',
  'group',
];

interface OpFlags {
  list?: boolean;
  format: Format;
  table?: string;
  out?: string;
  upstream?: string;
  timeout?: string;
  retries?: string;
  userAgent?: string;
  forceUserAgent?: boolean;
  [flag: string]: unknown;
}

// Without the network (or with ESPN down) the simulator answers the same paths.
const OFFLINE_HINT =
  '; without the network, call the simulator instead: start it (`courtside upstream --simulate 4` prints its URL; `npm run demo` in a checkout runs it with a daemon) and give its URL with --upstream <url> (or COURTSIDE_UPSTREAM)';

/** A mistake in the call that names its own remedy, so it gets no pointer to `--help`. */
class UsageError extends InvalidOptionsError {}

const EXAMPLES = `
Examples:
  $ courtside op --list
  $ courtside op mens_scoreboard --dates 20241201 --format raw
  $ courtside op mens_scoreboard --dates 20240301-20240317 --season-type 2 --format csv
  $ courtside op mens_scoreboard --dates 202412 --limit 50    # a month (or YYYY), merged
  $ courtside op mens_summary --event-id 401585607 --table plays --format csv
  $ courtside op womens_team_roster --team-id 20 --format json
  $ courtside op mens_summary --event-id 401585607 --table boxscore_player --format arrow --out box.arrow
  $ COURTSIDE_UPSTREAM=http://127.0.0.1:4000 courtside op mens_standings --season 2024

Exit status: 0 success, 1 upstream failure, 2 invalid call (no request is made).`;

export function registerOp(program: Command): void {
  const command = program
    .command('op')
    .description('call one of the 44 operations and print its result')
    .argument('[operation]', 'operation name, e.g. mens_scoreboard (see --list)')
    .option('--list', 'print the operation names, one per line')
    .addOption(
      new Option('--format <format>', 'json (rows), csv, arrow (IPC stream) or raw (upstream JSON)')
        .choices(FORMATS)
        .default('json'),
    )
    .option('--table <name>', 'one table of a summary (required for csv and arrow)')
    .option('--out <file>', 'write to a file instead of stdout')
    .option(
      '--upstream <url>',
      'upstream base URL (default: $COURTSIDE_UPSTREAM or https://site.api.espn.com)',
    )
    .option('--timeout <ms>', 'per-request timeout in ms (default 10000)')
    .option('--retries <n>', 'retries on network errors, 429 and 5xx (default 3)')
    .option(
      '--user-agent <agent>',
      'User-Agent sent upstream, of the form "Name/version (+https://...)" (default courtside\'s own)',
    )
    .option('--force-user-agent', 'send --user-agent even in a form ESPN blocks');
  for (const name of PARAM_FLAGS) {
    command.option(`--${flagName(name)} <value>`, `${name}: ${PARAM_RULES[name].expected}`);
  }
  command
    .addHelpText('after', EXAMPLES)
    .allowExcessArguments(false)
    .action(async (operation: string | undefined, flags: OpFlags) => {
      process.exitCode = await runOp(operation, flags);
    });
}

async function runOp(operationName: string | undefined, flags: OpFlags): Promise<number> {
  if (flags.list) {
    await write(undefined, `${OPERATION_NAMES.join('\n')}\n`);
    return EXIT_OK;
  }
  let client: EspnClient | undefined;
  try {
    if (!operationName) throw new UsageError('missing <operation>; `courtside op --list` prints them');
    const operation = getOperation(operationName);
    checkTable(operation, flags);
    if (flags.format === 'arrow' && !flags.out && process.stdout.isTTY) {
      throw new UsageError('--format arrow writes binary: give --out FILE or pipe stdout');
    }
    const params: Record<string, string> = {};
    for (const name of PARAM_FLAGS) {
      const value = flags[camel(flagName(name))];
      if (typeof value === 'string') params[name] = value;
    }
    client = withFlagNames(() =>
      createEspnClient({
        ...(flags.upstream !== undefined ? { upstream: flags.upstream } : {}),
        ...(flags.timeout !== undefined ? { timeoutMs: integer('--timeout', flags.timeout) } : {}),
        ...(flags.retries !== undefined ? { retries: integer('--retries', flags.retries) } : {}),
        ...(flags.userAgent !== undefined
          ? { userAgent: flags.userAgent, forceUserAgent: flags.forceUserAgent === true }
          : {}),
        logger: process.env.LOG_LEVEL ? createLogger() : silentLogger,
      }),
    );
    const output = await render(client, operation, params, flags);
    await write(flags.out, output);
    return EXIT_OK;
  } catch (error) {
    const code = error instanceof CourtsideError ? error.code : undefined;
    const hint =
      code === 'UNKNOWN_OPERATION'
        ? '; `courtside op --list` prints the operations'
        : code === 'UPSTREAM_NETWORK' || code === 'UPSTREAM_TIMEOUT'
          ? OFFLINE_HINT
          : exitCodeOf(error) === EXIT_USAGE && !(error instanceof UsageError)
            ? ' (see courtside op --help)'
            : '';
    return fail('op', error, { hint });
  } finally {
    await client?.close();
  }
}

// The client names its options (`userAgent`); on the command line the user typed a flag.
const CLIENT_OPTION_FLAGS: Readonly<Record<string, string>> = {
  upstream: '--upstream',
  userAgent: '--user-agent',
};

function withFlagNames<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    const flag = CLIENT_OPTION_FLAGS[error.field];
    if (!flag) throw error;
    throw new InvalidConfigError(flag, error.message.slice(error.field.length + 2));
  }
}

async function render(
  client: EspnClient,
  operation: OperationSpec,
  params: Record<string, string>,
  flags: OpFlags,
): Promise<string | Uint8Array> {
  // What the call changed or answered another way than asked goes to stderr, beside the result.
  const onNotice = (notice: CallNotice): void => {
    process.stderr.write(`courtside op: note: ${notice.message}\n`);
  };
  const table = { ...(flags.table !== undefined ? { table: flags.table } : {}), onNotice };
  if (flags.format === 'raw') {
    const raw = await client.call(operation.name, params, { returnParsed: false, onNotice });
    return `${JSON.stringify(raw, null, process.stdout.isTTY && !flags.out ? 2 : undefined)}\n`;
  }
  if (flags.format === 'json') {
    const rows = await client.call(operation.name, params, { flavour: 'rows', ...table });
    return `${JSON.stringify(rows, jsonValue)}\n`;
  }
  if (flags.format === 'csv') {
    // From the raw payload, so the CSV has exactly the table's columns (optional ones included).
    const raw = await client.call(operation.name, params, { returnParsed: false, onNotice });
    return operationCsv(operation.name, raw, flags.table);
  }
  const arrow = await client.call(operation.name, params, { flavour: 'arrow', ...table });
  return tableToIpc(arrow as Parameters<typeof tableToIpc>[0]);
}

function checkTable(operation: OperationSpec, flags: OpFlags): void {
  const isSummary = operation.result === 'summary';
  if (flags.table !== undefined && !isSummary) {
    throw new UsageError(`--table applies only to summary operations, not ${operation.name}`);
  }
  const names = SUMMARY_TABLE_NAMES.join(', ');
  if (isSummary && flags.table === undefined && (flags.format === 'csv' || flags.format === 'arrow')) {
    throw new UsageError(`--format ${flags.format} of ${operation.name} needs --table, one of: ${names}`);
  }
  if (isSummary && flags.table !== undefined && !isSummaryTable(flags.table)) {
    throw new UsageError(`unknown table "${flags.table}"; one of: ${names}`);
  }
}

function jsonValue(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

function integer(flag: string, value: string): number {
  if (!/^[0-9]{1,9}$/.test(value))
    throw new UsageError(`${flag} must be a non-negative integer, got "${value}"`);
  return Number(value);
}

function flagName(name: ParamName): string {
  return name.replaceAll('_', '-');
}

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

async function write(file: string | undefined, data: string | Uint8Array): Promise<void> {
  if (file) return writeFile(file, data);
  // A reader that stops early (`| head`) closes the pipe: that is not a failure of the call.
  const isEpipe = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'EPIPE';
  // Left attached: the 'error' event can follow the write callback by a tick.
  process.stdout.once('error', (error) => {
    if (!isEpipe(error)) throw error;
  });
  // Wait for the write to flush so a large result reaches a pipe before the process ends.
  await new Promise<void>((resolve, reject) => {
    process.stdout.write(data, (error) => (error && !isEpipe(error) ? reject(error) : resolve()));
  });
}
