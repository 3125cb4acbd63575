import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * The process logger. Pretty output only on a TTY (humans); JSON lines otherwise (collectors).
 * Secrets (bearer tokens, webhook secrets) are redacted wherever they appear in a logged object.
 */
export function createLogger(options: { level?: string; name?: string; pretty?: boolean } = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const pretty = options.pretty ?? (process.stdout.isTTY === true && process.env.NODE_ENV !== 'test');
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
      ...(pretty
        ? { transport: { target: 'pino-pretty', options: { colorize: true, destination: 2 } } }
        : {}),
    },
    pretty ? undefined : pino.destination(2),
  );
}

/** A logger that drops everything, for library use and tests that do not look at logs. */
export const silentLogger: Logger = pino({ level: 'silent' });
