import type { Command } from 'commander';

// Placeholder until this command is built.
export function registerWebhooks(program: Command): void {
  program.command('webhooks').description('(not built yet)');
}
