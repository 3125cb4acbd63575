import type { Command } from 'commander';

/**
 * A command whose work is in subcommands (`courtside worker alerts`, `courtside webhooks retry`).
 * The group's examples show in its own help and in each subcommand's: whoever reads one
 * subcommand's help is often choosing between them. Returns the function that adds a subcommand:
 * `define` declares it on the group with its own options, then `shared` adds the options every
 * subcommand takes, so they are listed after the subcommand's own.
 */
export function commandGroup(
  program: Command,
  group: { name: string; description: string; examples: string },
  shared: (subcommand: Command) => Command,
): (define: (group: Command) => Command) => Command {
  const parent = program
    .command(group.name)
    .description(group.description)
    .addHelpText('after', group.examples);
  return (define) => shared(define(parent)).addHelpText('after', group.examples);
}
