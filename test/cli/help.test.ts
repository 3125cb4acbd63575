import { describe, expect, it } from 'vitest';
import { runCli } from './harness.js';

/**
 * `--help` on every command ends with examples. Commands are read from `courtside --help`, so a
 * command added later is checked too. `worker` and `webhooks` are groups: they and each of their
 * subcommands are checked.
 */
async function help(args: string[]): Promise<string> {
  const run = runCli([...args, '--help']);
  const exit = await run.exited;
  expect(exit.code, run.stderr()).toBe(0);
  return run.stdout();
}

function commandsOf(text: string): string[] {
  const section = text.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)]
    .map((m) => m[1] ?? '')
    .filter((c) => c && c !== 'help');
}

describe('courtside --help', () => {
  it('every command documents itself with examples', async () => {
    const top = commandsOf(await help([]));
    expect(top).toEqual(
      expect.arrayContaining(['op', 'upstream', 'serve', 'worker', 'webhooks', 'watch', 'record', 'demo']),
    );
    const texts = new Map<string, string>();
    await Promise.all(top.map(async (name) => texts.set(name, await help([name]))));
    const groups = [...texts].filter(([, text]) => commandsOf(text).length > 0);
    for (const [name, text] of groups) {
      await Promise.all(
        commandsOf(text).map(async (sub) => texts.set(`${name} ${sub}`, await help([name, sub]))),
      );
    }
    expect(texts.size).toBeGreaterThan(top.length);
    const missing: string[] = [];
    for (const [path, text] of texts) {
      // At least one example line that runs the command itself.
      if (!/^Examples:$/m.test(text) || !text.includes(`courtside ${path}`)) missing.push(path);
    }
    expect(missing, 'commands whose --help has no examples').toEqual([]);
  }, 120_000);
});
