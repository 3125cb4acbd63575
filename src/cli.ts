#!/usr/bin/env node
import { Command } from 'commander';
import { VERSION } from './core/version.js';

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
};

export async function buildProgram(argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command('courtside')
    .description(
      "Live event streams, alerts and typed tables from ESPN's public basketball API (NBA and WNBA)",
    )
    .version(VERSION)
    .showHelpAfterError()
    .addHelpText(
      'after',
      `
Examples:
  $ courtside demo                                 # simulator + daemon, open the printed overlay URL
  $ courtside serve --port 8080                    # the daemon against ESPN
  $ courtside op mens_scoreboard --dates 20240317  # one operation, as a table
  $ courtside watch --league mens                  # a live terminal feed from a running daemon`,
    );
  const name = argv[2];
  const only = name !== undefined ? COMMANDS[name] : undefined;
  for (const load of only ? [only] : Object.values(COMMANDS)) (await load())(program);
  return program;
}

await (await buildProgram()).parseAsync(process.argv);
