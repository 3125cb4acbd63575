import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { chooseLogFormat } from '../../src/core/log.js';

/**
 * The process logger as a user meets it: a child process that logs one warning, once with its
 * stderr on a pipe (a collector, a test) and once on a real terminal (`script` gives it a
 * pseudo-terminal). The child also says whether pino-pretty was loaded.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HAVE_SCRIPT = spawnSync('script', ['--version']).status === 0;
if (!HAVE_SCRIPT)
  console.warn('[skip] `script` (util-linux) is absent: the terminal case needs it for a pseudo-terminal');

const dir = mkdtempSync(join(tmpdir(), 'courtside-log-'));
const child = join(dir, 'child.ts');
writeFileSync(
  child,
  `import { createRequire } from 'node:module';
import { createLogger } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src', 'core', 'log.ts')).href)};
createLogger().warn({ code: 'UPSTREAM_NETWORK', token: 'abc123' }, 'poll failed: nothing answers');
const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => /[\\\\/]pino-pretty[\\\\/]/.test(k));
process.stdout.write('pretty-loaded=' + loaded + '\\n');
`,
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The test runner's NODE_ENV=test turns pretty output off; the child runs as a user would.
  delete env.NODE_ENV;
  delete env.LOG_LEVEL;
  delete env.LOG_FORMAT;
  return { ...env, ...extra };
}

describe('createLogger', () => {
  it('writes JSON lines when stderr is not a terminal, and never loads pino-pretty', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', child], {
      cwd: ROOT,
      env: childEnv(),
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const lines = run.stderr.split('\n').filter((l) => l.length > 0);
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(record).toMatchObject({
      level: 40,
      name: 'courtside',
      code: 'UPSTREAM_NETWORK',
      token: '[redacted]',
      msg: 'poll failed: nothing answers',
    });
    expect(run.stdout).toContain('pretty-loaded=false');
  });

  it.skipIf(!HAVE_SCRIPT)('writes one readable line per record on a terminal', () => {
    const command = [process.execPath, '--import', 'tsx', child].map((a) => `'${a}'`).join(' ');
    const run = spawnSync('script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT,
      env: childEnv(),
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    // Colours off for the comparison; the pseudo-terminal ends lines with \r\n.
    const output = stripVTControlCharacters(run.stdout).replace(/\r/g, '');
    const lines = output.split('\n').filter((l) => l.length > 0);
    const record = lines.filter((l) => l.includes('poll failed: nothing answers'));
    expect(record).toHaveLength(1);
    expect(record[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN \(courtside\): poll failed: nothing answers /);
    // The fields follow on the same line, the token redacted.
    expect(record[0]).toContain('"code":"UPSTREAM_NETWORK"');
    expect(record[0]).toContain('"token":"[redacted]"');
    expect(output).not.toContain('abc123');
    expect(output).not.toContain('"level":40');
    expect(output).toContain('pretty-loaded=true');
  });
});

describe('chooseLogFormat', () => {
  const terminal = { isTTY: true };
  const pipe = { isTTY: false };
  const user = {};

  it('picks pretty on a terminal and JSON elsewhere when nothing (or auto) is asked', () => {
    for (const asked of [undefined, '', 'auto']) {
      expect(chooseLogFormat(asked, terminal, user)).toBe('pretty');
      expect(chooseLogFormat(asked, pipe, user)).toBe('json');
      expect(chooseLogFormat(asked, {}, user)).toBe('json');
    }
    // A test runner's terminal is not a person's.
    expect(chooseLogFormat('auto', terminal, { NODE_ENV: 'test' })).toBe('json');
  });

  it('gives the format asked for whatever the stream is', () => {
    expect(chooseLogFormat('json', terminal, user)).toBe('json');
    expect(chooseLogFormat('pretty', pipe, user)).toBe('pretty');
    expect(chooseLogFormat('pretty', terminal, { NODE_ENV: 'test' })).toBe('pretty');
  });

  it('refuses an unknown format, naming the flag, the variable and the forms', () => {
    expect(() => chooseLogFormat('text', pipe, user)).toThrow(InvalidOptionsError);
    expect(() => chooseLogFormat('text', pipe, user)).toThrow(
      '--log-format (LOG_FORMAT): expected auto, pretty, json, got "text"',
    );
  });
});

describe('LOG_FORMAT', () => {
  it('pretty writes readable lines into a pipe', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', child], {
      cwd: ROOT,
      env: childEnv({ LOG_FORMAT: 'pretty' }),
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const lines = stripVTControlCharacters(run.stderr)
      .split('\n')
      .filter((l) => l.length > 0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN \(courtside\): poll failed: nothing answers /);
    expect(run.stdout).toContain('pretty-loaded=true');
  });

  it.skipIf(!HAVE_SCRIPT)('json writes JSON lines on a terminal', () => {
    const command = [process.execPath, '--import', 'tsx', child].map((a) => `'${a}'`).join(' ');
    const run = spawnSync('script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT,
      env: childEnv({ LOG_FORMAT: 'json' }),
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const output = stripVTControlCharacters(run.stdout).replace(/\r/g, '');
    const record = output.split('\n').filter((l) => l.includes('poll failed: nothing answers'));
    expect(record).toHaveLength(1);
    expect(JSON.parse(record[0] ?? '')).toMatchObject({ level: 40, msg: 'poll failed: nothing answers' });
    expect(output).toContain('pretty-loaded=false');
  });
});
