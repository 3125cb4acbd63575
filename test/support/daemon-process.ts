import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `courtside serve` as a child process, run from source: where a figure must be the daemon's own
 * (its resident set), not the test's or the upstream's.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface DaemonProcess {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
  /** The peak and current resident set, MB, from /proc (Linux). */
  memory(): { peakMb: number; nowMb: number };
  kill(): void;
}

/**
 * The flags of a daemon on loopback (a free port) that polls `upstream`'s summaries every
 * `summaryIntervalMs` for `league` and is pushed from `fastcastUrl`, with no logs (or `logLevel`'s).
 */
export function pushedServeArgs(options: {
  upstream: string;
  fastcastUrl: string;
  league: string;
  summaryIntervalMs: number;
  /** `silent` unless given: a test that reports the daemon's warnings when it fails asks for `warn`. */
  logLevel?: string;
}): string[] {
  return [
    ...['--port', '0', '--host', '127.0.0.1', '--log-level', options.logLevel ?? 'silent'],
    ...['--upstream', options.upstream, '--fastcast-url', options.fastcastUrl],
    ...['--leagues', options.league, '--summary-interval', String(options.summaryIntervalMs)],
  ];
}

/**
 * Starts `courtside serve <args>` with no COURTSIDE_* nor REDIS_URL inherited; resolves once it
 * listens. From source through tsx, or, `built`, as users run it (`dist/`, after `npm run build`):
 * the loader's own memory is then not counted in the daemon's.
 */
export async function startDaemonProcess(
  args: readonly string[],
  options: { built?: boolean } = {},
): Promise<DaemonProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
  for (const k of Object.keys(env)) if (k.startsWith('COURTSIDE_') || k === 'REDIS_URL') delete env[k];
  const entry = options.built ? ['dist/src/cli.js'] : ['--import', 'tsx', 'src/cli.ts'];
  const child = spawn(process.execPath, [...entry, 'serve', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /courtside listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening:\n${err}`)));
  }).catch((error: unknown) => {
    kill();
    throw error;
  });
  return {
    child,
    url,
    stderr: () => err,
    memory() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const mb = (field: string): number =>
        Math.round(Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024);
      return { peakMb: mb('VmHWM'), nowMb: mb('VmRSS') };
    },
    kill,
  };
}
