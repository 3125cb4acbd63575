import { VirtualClock } from '../streams/helpers.js';

/**
 * Virtual time for a client whose timers run on an rxjs scheduler while its sockets stay real:
 * time moves only when the test says so (`advance`), or when nothing real is left to wait for
 * (`until`). Between two timers the real I/O they started (a discovery, an upgrade, a message) is
 * given `ioMs` of real time to end.
 */
export class VirtualTime extends VirtualClock {
  constructor(start = Date.UTC(2025, 0, 15, 0, 10), ioMs = 25) {
    super(start, () => io(ioMs));
    this.io = () => io(ioMs);
  }

  private readonly io: () => Promise<void>;

  /**
   * Waits for `check`: while it does not hold, real I/O is given its time, then the next timer
   * runs (virtual time jumps to it). Fails with `what` when the next timer is over `virtualMs`
   * ahead, or after `realMs` of real time.
   */
  async until(check: () => boolean, what: string, virtualMs = 600_000, realMs = 20_000): Promise<void> {
    const deadline = this.frame + virtualMs;
    const realDeadline = Date.now() + realMs;
    for (;;) {
      await this.io();
      if (check()) return;
      const next = this.actions[0];
      if (next !== undefined) {
        if (next.delay > deadline)
          throw new Error(`timed out after ${virtualMs} virtual ms waiting for ${what}`);
        this.maxFrames = next.delay;
        this.flush();
      }
      if (Date.now() > realDeadline) throw new Error(`timed out after ${realMs} real ms waiting for ${what}`);
    }
  }
}

/** Lets pending promise chains and I/O callbacks run, for `ms` of real time. */
async function io(ms: number): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, ms));
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
}
