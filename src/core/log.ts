import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** Human-readable lines instead of JSON; default: when stderr (where logs go) is a terminal. */
  pretty?: boolean;
}

/**
 * The process logger, writing to stderr. On a terminal (a person watching) one readable line per
 * record; anywhere else JSON lines, for collectors and for the tests that parse them. Secrets
 * (bearer tokens, webhook secrets) are redacted wherever they appear in a logged object.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  // The logs' own stream decides: `serve > out.txt` on a terminal still shows readable logs, and
  // `serve 2> logs.json` still writes JSON. Under a test runner the terminal is the runner's.
  const pretty = options.pretty ?? (process.stderr.isTTY === true && process.env.NODE_ENV !== 'test');
  return pino(
    {
      name: options.name ?? 'courtside',
      level,
      redact: {
        paths: [
          'token',
          '*.token',
          'tokens',
          '*.tokens',
          'secret',
          '*.secret',
          'authorization',
          '*.authorization',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    pretty ? prettyStream() : pino.destination(2),
  );
}

/**
 * pino-pretty in this thread, loaded only here: a JSON-logging process never loads it. One line
 * per record (its fields after the message) keeps a failing poll to one line on the terminal;
 * synchronous, so the last lines before an exit are not lost.
 */
function prettyStream(): DestinationStream {
  const require = createRequire(import.meta.url);
  const build = require('pino-pretty') as (options: Record<string, unknown>) => DestinationStream;
  return build({
    destination: 2,
    sync: true,
    colorize: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,component',
    messageFormat: '{if component}{component}: {end}{msg}',
  });
}

/** A logger that drops everything, for library use and tests that do not look at logs. */
export const silentLogger: Logger = pino({ level: 'silent' });
