import type { Command } from 'commander';

// Placeholder until this command is built.
export function registerServe(program: Command): void {
  program.command('serve').description('(not built yet)');
}
