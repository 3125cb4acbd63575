/**
 * One lane of upstream requests: at most `slots` in flight, the rest waiting first come, first
 * served. The client has two (live and on-demand), each with its own connections, so a request of
 * one lane never waits for a slot or a socket held by the other.
 */
export const LANES = ['live', 'on-demand'] as const;
export type Lane = (typeof LANES)[number];

export class LaneSlots {
  #inFlight = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly slots: number) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** Resolves once a slot is held; call the returned function (once) to give it back. */
  async acquire(): Promise<() => void> {
    if (this.#inFlight < this.slots) {
      this.#inFlight++;
    } else {
      // The slot is handed over by `release`, so `#inFlight` stays counted across the hand-over.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#inFlight--;
    };
  }
}
