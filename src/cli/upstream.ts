import type { Command } from 'commander';

// Placeholder until this command is built.
export function registerUpstream(program: Command): void {
  program.command('upstream').description('(not built yet)');
}
