#!/usr/bin/env node
import { Command } from 'commander';
import { VERSION } from './core/version.js';
import { fail } from './cli/fail.js';

type Register = (program: Command) => void;

/**
 * The `courtside` command. Each subcommand lives in `src/cli/<name>.ts` and registers itself.
 * Only the module of the command being run is loaded (the others pull in Arrow, BullMQ, the
 * engine...), so `courtside op` starts in a fraction of the time; `--help` loads them all.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  op: async () => (await import('./cli/op.js')).registerOp,
  upstream: async () => (await import('./cli/upstream.js')).registerUpstream,
  serve: async () => (await import('./cli/serve.js')).registerServe,
  worker: async () => (await import('./cli/worker.js')).registerWorker,
  webhooks: async () => (await import('./cli/webhooks.js')).registerWebhooks,
  watch: async () => (await import('./cli/watch.js')).registerWatch,
  record: async () => (await import('./cli/record.js')).registerRecord,
  demo: async () => (await import('./cli/demo.js')).registerDemo,
  doctor: async () => (await import('./cli/doctor.js')).registerDoctor,
};

export async function buildProgram(argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command('courtside')
    .description(
      "Live event streams, alerts and typed tables from ESPN's public basketball API (NBA and WNBA)",
    )
    .version(VERSION)
    .addHelpText(
      'after',
      `
Examples:
  $ courtside demo                                 # simulator + daemon, open the printed overlay URL
  $ courtside serve --port 8080                    # the daemon against ESPN
  $ courtside op mens_scoreboard --dates 20240317  # one operation, as a table
  $ courtside watch --league mens                  # a live terminal feed from a running daemon
The docs/ and examples/ the commands' help names are in the package's folder (node_modules/courtside/
when installed), as in the repository.`,
    );
  const name = argv[2];
  const only = name !== undefined ? COMMANDS[name] : undefined;
  for (const load of only ? [only] : Object.values(COMMANDS)) (await load())(program);
  return program;
}

/**
 * Runs the command line. Whatever a command throws, and every command-line mistake commander
 * finds, ends here and is reported once by `fail` (src/cli/fail.ts), in the name of the command
 * it belongs to.
 */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  // The command a failure belongs to: the one commander was parsing, or the one whose action ran.
  let current: Command | undefined;
  try {
    const program = await buildProgram(argv);
    current = program;
    for (const command of commandTree(program)) {
      command.configureOutput({ outputError: () => undefined }).exitOverride((error) => {
        current = command;
        throw error;
      });
    }
    program.hook('preAction', (_program, action) => {
      current = action;
    });
    await program.parseAsync(argv);
  } catch (error) {
    const logLevel: unknown = current?.opts().logLevel;
    fail(current ? commandPath(current) : '', error, {
      logLevel: typeof logLevel === 'string' ? logLevel : undefined,
    });
  }
}

function commandTree(command: Command): Command[] {
  return [command, ...command.commands.flatMap(commandTree)];
}

/** `worker alerts` for that subcommand, empty for the program. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

await main();
