import type { Worker } from 'bullmq';

/** A part of a worker process as the process sees it: ready once consuming, and a way to stop. */
export interface WorkerHandle {
  /** Resolves once connected and consuming. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The handle of a part built around one BullMQ worker. `close` runs `stop` (timers that must not
 * fire while closing), closes the worker, which lets its jobs in flight finish, then `release`s
 * what the part opened besides; a second call returns the first call's promise.
 */
export function workerHandle(
  worker: Worker,
  parts: { stop?: () => void; release: () => Promise<void> | void },
): WorkerHandle {
  let closing: Promise<void> | null = null;
  return {
    async ready() {
      await worker.waitUntilReady();
    },
    close() {
      closing ??= (async () => {
        parts.stop?.();
        await worker.close();
        await parts.release();
      })();
      return closing;
    },
  };
}
