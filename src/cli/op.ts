import type { Command } from 'commander';

// Placeholder until this command is built.
export function registerOp(program: Command): void {
  program.command('op').description('(not built yet)');
}
