import { inspect } from 'node:util';
import { CommanderError } from 'commander';
import pino from 'pino';
import { CourtsideError, type ErrorCode } from '../core/errors.js';
import type { Logger } from '../core/log.js';

/**
 * How every `courtside` command reports a failure: one line on stderr, `courtside <command>:
 * <message>`, and an exit code that says whose mistake it was. The stack follows the line only at
 * log level debug or trace: the sentence is what a user acts on, the trace is for a bug report.
 */

/** Exit codes of every command (docs/configuration.md, "Signals and exit codes"). */
export const EXIT_OK = 0;
/** Something failed while running: the upstream, Redis, a port already taken, a file system. */
export const EXIT_FAILURE = 1;
/** The command was called wrongly (unknown flag, bad value, unreadable input); nothing was done. */
export const EXIT_USAGE = 2;

/** Codes that mean the caller's input was wrong, not that something failed while running. */
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_PARAMS',
  'UNKNOWN_OPERATION',
  'INVALID_CONFIG',
  'INVALID_OPTIONS',
]);

const STACK_LEVELS: ReadonlySet<string> = new Set(['debug', 'trace']);

export interface FailOptions {
  /** The command's `--log-level` when it has one; `LOG_LEVEL` otherwise. */
  logLevel?: string | undefined;
  /** Appended to the message: where to find the valid values, say. */
  hint?: string;
  /** The flag that sets a port the command listens on, named when that port cannot be bound. */
  portFlag?: string;
  /** The command's logger, flushed first so that the reason is the last line. */
  logger?: Logger;
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  if (error instanceof CourtsideError && USAGE_CODES.has(error.code)) return EXIT_USAGE;
  return EXIT_FAILURE;
}

/**
 * Reports `error` as the failure of `command` (`"serve"`, `"worker alerts"`, `""` for the
 * program itself) and sets the process's exit code; returns that code.
 */
export function fail(command: string, error: unknown, options: FailOptions = {}): number {
  const code = exitCodeOf(error);
  process.exitCode = code;
  // Help and version were printed by commander, and so was a group's help when its subcommand is missing.
  if (error instanceof CommanderError && (code === EXIT_OK || error.code === 'commander.help')) return code;
  if (options.logger) flushSync(options.logger);
  say(command, `${describe(error, options)}${options.hint ?? commandLineHint(command, error)}`);
  if (STACK_LEVELS.has(options.logLevel ?? process.env.LOG_LEVEL ?? '')) {
    process.stderr.write(`${inspect(error, { depth: 6 })}\n`);
  }
  return code;
}

/** One line on stderr in the voice of the errors, for what a command reports and carries on from. */
export function say(command: string, message: string): void {
  process.stderr.write(`courtside${command ? ` ${command}` : ''}: ${oneLine(message)}\n`);
}

/** The message of `error` as a user can act on it. */
export function describe(error: unknown, options: Pick<FailOptions, 'portFlag'> = {}): string {
  if (error instanceof CommanderError) {
    // Commander's "error: " prefix is our "courtside <command>: "; its suggestion is on a line of its own.
    return error.message.replace(/^error: /, '').replace(/\(Did you mean/, '(did you mean');
  }
  const listen = listenProblem(error, options.portFlag ?? '--port');
  if (listen) return listen;
  if (error instanceof Error) return error.message;
  return String(error);
}

function listenProblem(error: unknown, flag: string): string | undefined {
  const err = error as NodeJS.ErrnoException & { port?: number };
  if (!(error instanceof Error) || err.syscall !== 'listen' || err.port === undefined) return undefined;
  if (err.code === 'EADDRINUSE') return `port ${err.port} is in use: try ${flag} <other>`;
  if (err.code === 'EACCES') return `port ${err.port} needs privileges to bind: try ${flag} <above 1023>`;
  return undefined;
}

/** Commander names the mistake but not the valid forms: point at the command's help for those. */
function commandLineHint(command: string, error: unknown): string {
  if (!(error instanceof CommanderError) || /did you mean/i.test(error.message)) return '';
  return ` (see courtside${command ? ` ${command}` : ''} --help)`;
}

/** Pino writes asynchronously: without this, lines logged while stopping follow the reason. */
function flushSync(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, { flushSync?(): void } | undefined>)[
    pino.symbols.streamSym
  ];
  try {
    stream?.flushSync?.();
  } catch {
    // A stream that cannot flush now (still opening) loses only the order of the lines.
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
