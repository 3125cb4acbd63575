import type { Command } from 'commander';

// Placeholder until this command is built.
export function registerWorker(program: Command): void {
  program.command('worker').description('(not built yet)');
}
