import type { Logger } from '../core/log.js';

export interface ShutdownOptions {
  logger: Logger;
  /** What a graceful stop does; the process exits 0 when it settles. */
  close(): Promise<unknown>;
  /** Exit 0 anyway after this long, so a hung step cannot stall a supervisor's restart. */
  hardExitMs: number;
}

/**
 * SIGTERM or SIGINT stops the process gracefully and exits 0. The handlers stay installed for the
 * whole shutdown: a second signal (Ctrl-C twice, an impatient supervisor) exits at once with 1,
 * rather than falling to Node's default action mid-shutdown.
 */
export function exitOnSignals({ logger, close, hardExitMs }: ShutdownOptions): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error(`shutdown took longer than ${hardExitMs / 1000} s; exiting anyway`);
      process.exit(0);
    }, hardExitMs).unref();
    void close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
