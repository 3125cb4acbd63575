#!/usr/bin/env node
import { Command } from 'commander';
import { VERSION } from './version.js';
import { registerOp } from './cli/op.js';
import { registerUpstream } from './cli/upstream.js';
import { registerServe } from './cli/serve.js';
import { registerWorker } from './cli/worker.js';
import { registerWebhooks } from './cli/webhooks.js';
import { registerWatch } from './cli/watch.js';
import { registerRecord } from './cli/record.js';
import { registerDemo } from './cli/demo.js';

/** The `courtside` command. Each subcommand lives in `src/cli/<name>.ts` and registers itself here. */
export function buildProgram(): Command {
  const program = new Command('courtside')
    .description(
      "Live event streams, alerts and typed tables from ESPN's public basketball API (NBA and WNBA)",
    )
    .version(VERSION)
    .showHelpAfterError();
  registerOp(program);
  registerUpstream(program);
  registerServe(program);
  registerWorker(program);
  registerWebhooks(program);
  registerWatch(program);
  registerRecord(program);
  registerDemo(program);
  return program;
}

await buildProgram().parseAsync(process.argv);
