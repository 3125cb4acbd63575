import type { Worker } from 'bullmq';

/** A part of a worker process as the process sees it: ready once consuming, and a way to stop. */
export interface WorkerHandle {
  /** Resolves once connected and consuming. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The handle of a part built around BullMQ workers. `ready` runs `start` once (what must happen
 * before consuming, for workers built with `autorun: false`), then waits for every worker; `close`
 * runs `stop` (timers that must not fire while closing), closes the workers, which lets their jobs
 * in flight finish, then `release`s what the part opened besides; a second call returns the first
 * call's promise.
 */
export function workerHandle(
  workers: Worker | readonly Worker[],
  parts: { start?: () => Promise<void>; stop?: () => void; release: () => Promise<void> | void },
): WorkerHandle {
  const all = Array.isArray(workers) ? (workers as readonly Worker[]) : [workers as Worker];
  let starting: Promise<void> | null = null;
  let closing: Promise<void> | null = null;
  return {
    async ready() {
      starting ??= parts.start?.() ?? Promise.resolve();
      await starting;
      await Promise.all(all.map((w) => w.waitUntilReady()));
    },
    close() {
      closing ??= (async () => {
        parts.stop?.();
        await Promise.all(all.map((w) => w.close()));
        await parts.release();
      })();
      return closing;
    },
  };
}
