import { Command } from 'commander';
import { registerUpstream } from '../../src/cli/upstream.js';

// Only the `upstream` subcommand, so this test does not depend on the other commands' modules.
const program = new Command('courtside');
registerUpstream(program);
await program.parseAsync(process.argv);
