import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEAGUES } from '../../src/core/leagues.js';
import type { ConfigFlags } from '../../src/daemon/config.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream, type UpstreamOptions } from '../../src/simulator/index.js';
import { testDaemonConfig } from '../support/daemon-config.js';
import { finishedSummaries } from '../support/fixtures.js';
import { waitFor } from '../support/wait-for.js';

/**
 * What the CLI, overlay and README tests share: a real simulator + daemon (memory bus, overlay
 * route), the `courtside` CLI as a child process, and polling waits with generous timeouts.
 */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A recorded, finished NBA game (not the round-trip copy). */
export const MENS_FINAL = finishedSummaries().find(
  (f) => f.league === 'mens' && !f.qualifier.includes('roundtrip'),
);

/**
 * A daemon against `upstream` with the overlay page, memory bus and one poll a second; `flags`
 * adds to its configuration (`tokens`, say).
 */
export async function startDaemon(upstream: string, port = 0, flags: ConfigFlags = {}): Promise<Daemon> {
  const config = testDaemonConfig(upstream, { port, leagues: LEAGUES.join(','), ...flags });
  const daemon = createDaemon(config, {
    logger: silentLogger,
    client: { timeoutMs: 5_000, retries: 1 },
  });
  await daemon.start();
  return daemon;
}

export interface Stack {
  upstream: RunningUpstream;
  daemon: Daemon;
  close(): Promise<void>;
}

export async function startStack(options: UpstreamOptions): Promise<Stack> {
  const upstream = await startUpstream({ logger: silentLogger, ...options });
  const daemon = await startDaemon(upstream.url);
  return {
    upstream,
    daemon,
    async close() {
      await daemon.close();
      await upstream.close();
    },
  };
}

export interface CliRun {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
}

/** `courtside <args>` as a child process, run from source the way `npm run courtside` does. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): CliRun {
  return runProcess(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], env);
}

/** Any program as a child process in the repository root, output collected. */
export function runProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { cwd?: string; detached?: boolean } = {},
): CliRun {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', ...env };
  // The test chooses the bus and the auth: never inherit them from the environment.
  if (!('REDIS_URL' in env)) delete childEnv.REDIS_URL;
  if (!('COURTSIDE_TOKENS' in env)) delete childEnv.COURTSIDE_TOKENS;
  // Child output is piped, so it must come out plain even if the parent runs on a terminal.
  delete childEnv.FORCE_COLOR;
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitForStdout(pattern, timeoutMs = 30_000) {
      let match: RegExpExecArray | null = null;
      await waitFor(
        () => {
          match = pattern.exec(out);
          if (!match && child.exitCode !== null) {
            throw new Error(`${command} ${args.join(' ')} exited ${child.exitCode}:\n${out}\n${err}`);
          }
          return match !== null;
        },
        timeoutMs,
        `${pattern} in the output of ${args.join(' ')}\n--- stdout ---\n${out.slice(-2000)}\n--- stderr ---\n${err.slice(-2000)}`,
      );
      return match as unknown as RegExpExecArray;
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Polls `check` every 100 ms; fails naming `what` after `timeoutMs`. */
