import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import { InvalidOptionsError } from './errors.js';

export type { Logger } from 'pino';

/** `pretty`: one readable line per record; `json`: JSON lines; `auto`: pretty on a terminal only. */
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** `--log-format`; default `LOG_FORMAT`, else `auto`. */
  format?: string | undefined;
}

/**
 * The format logs are written in: the one asked for (`--log-format`, else `LOG_FORMAT`), or with
 * `auto` (or nothing asked) pretty when the logs' own stream, stderr, is a terminal and JSON
 * otherwise. The logs' stream decides, not stdout: `serve > out.txt` on a terminal still shows
 * readable logs, and `serve 2> logs.json` still writes JSON. Under a test runner the terminal is
 * the runner's, so `auto` means JSON there.
 */
export function chooseLogFormat(
  requested: string | undefined,
  stream: { isTTY?: boolean } = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): 'pretty' | 'json' {
  const format = requested === undefined || requested === '' ? 'auto' : requested;
  if (!(LOG_FORMATS as readonly string[]).includes(format))
    throw new InvalidOptionsError(
      `--log-format (LOG_FORMAT): expected ${LOG_FORMATS.join(', ')}, got "${format}"`,
    );
  if (format === 'pretty' || format === 'json') return format;
  return stream.isTTY === true && env.NODE_ENV !== 'test' ? 'pretty' : 'json';
}

/**
 * The process logger, writing to stderr in the format `chooseLogFormat` picks: on a terminal (a
 * person watching) one readable line per record; anywhere else JSON lines, for collectors and for
 * the tests that parse them. Secrets (bearer tokens, webhook secrets) are redacted wherever they
 * appear in a logged object. Throws `InvalidOptionsError` for a format it does not know.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const pretty = chooseLogFormat(options.format ?? process.env.LOG_FORMAT) === 'pretty';
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
