/**
 * Each chat destination's deliveries in this process, served one at a time in the order they were
 * taken, at most `maxHeld` of them at once: one destination's backlog must not take every delivery
 * slot from the others. The rest are sent to the delayed set, each a spacing after the one before.
 */
export class ChatLanes {
  private readonly lanes = new Map<string, { tail: Promise<void>; held: number; delayedUntil: number }>();

  constructor(private readonly maxHeld: number) {}

  /**
   * When a job for `destination` must come back (the lane is full, or jobs wait in the delayed
   * set before it), else undefined. `slotAt` is the time a returning job was given: it is let in.
   */
  delayUntil(destination: string, spacing: number, slotAt: number | undefined): number | undefined {
    const lane = this.laneOf(destination);
    const now = Date.now();
    const returning = slotAt !== undefined && slotAt <= now + spacing;
    if (returning || (lane.held < this.maxHeld && lane.delayedUntil <= now)) return undefined;
    lane.delayedUntil = Math.max(lane.delayedUntil + spacing, now + (lane.held + 1) * spacing);
    return lane.delayedUntil;
  }

  /** Runs `send` after every delivery the destination's lane holds. Joins the lane synchronously. */
  async run<T>(destination: string, send: () => Promise<T>): Promise<T> {
    const lane = this.laneOf(destination);
    lane.held += 1;
    const run = lane.tail.then(send);
    lane.tail = run.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await run;
    } finally {
      lane.held -= 1;
      if (lane.held === 0 && lane.delayedUntil <= Date.now()) this.lanes.delete(destination);
    }
  }

  private laneOf(destination: string) {
    let lane = this.lanes.get(destination);
    if (!lane) {
      lane = { tail: Promise.resolve(), held: 0, delayedUntil: 0 };
      this.lanes.set(destination, lane);
    }
    return lane;
  }
}
