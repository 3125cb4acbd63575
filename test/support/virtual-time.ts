import { VirtualTimeScheduler } from 'rxjs';

/**
 * Virtual time for code whose timers run on an rxjs scheduler while its I/O stays real: time
 * moves only when the test says so, or when nothing real is left to wait for. Between two timers
 * the work they started (a discovery, an upgrade, a message, a bus call) is given the time to end.
 */
export class VirtualTime extends VirtualTimeScheduler {
  /**
   * `idle`: resolves once the work started by the last timers may be done; by default 25 ms of
   * real time between turns of the event loop, which a real socket's answer needs.
   */
  constructor(
    start = Date.UTC(2025, 0, 15, 0, 10),
    private readonly idle: () => Promise<void> = () => realIo(25),
  ) {
    super();
    this.frame = start;
  }

  /** Runs every timer due within `ms` of virtual time, letting real I/O end between them. */
  async advance(ms: number): Promise<void> {
    const target = this.frame + ms;
    for (;;) {
      await this.idle();
      const next = this.actions[0];
      if (next === undefined || next.delay > target) break;
      this.runNext();
    }
    this.frame = target;
    await this.idle();
  }

  /**
   * Waits for `check`: while it does not hold, real I/O is given its time, then the next timer
   * runs (virtual time jumps to it), at most `virtualMs` ahead. Fails with `what` after
   * `virtualMs` of virtual time, or `realMs` of real time.
   */
  async until(check: () => boolean, what: string, virtualMs = 600_000, realMs = 20_000): Promise<void> {
    const deadline = this.frame + virtualMs;
    const realDeadline = Date.now() + realMs;
    for (;;) {
      await this.idle();
      if (check()) return;
      const next = this.actions[0];
      if (next !== undefined) {
        if (next.delay > deadline)
          throw new Error(`timed out after ${virtualMs} virtual ms waiting for ${what}`);
        this.runNext();
      }
      if (Date.now() > realDeadline) throw new Error(`timed out after ${realMs} real ms waiting for ${what}`);
    }
  }

  /** Runs the next timer, virtual time moved to it. */
  private runNext(): void {
    const next = this.actions[0];
    if (next === undefined) return;
    this.maxFrames = next.delay;
    this.flush();
  }
}

/** Lets pending promise chains and I/O callbacks run, with `ms` of real time between them. */
export async function realIo(ms: number): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, ms));
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
}
