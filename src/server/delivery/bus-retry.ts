import { BusUnavailableError } from '../../core/errors.js';
import type { Subscription } from './subscription.js';

// A Redis restart or fail-over takes seconds: a subscription set up meanwhile waits this long for
// the bus (its live events are held, within the viewer's byte budget) before giving up.
const BUS_WAIT_MS = 15_000;
const BUS_RETRY_MS = [100, 250, 500, 1_000, 2_000];

/**
 * Runs one of a subscription's set-up reads, retrying while the bus is unavailable (all set-up
 * reads are idempotent); gives up once the subscription is gone.
 */
export async function whileBusUnavailable<T>(sub: Subscription, read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUS_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (
        !(err instanceof BusUnavailableError) ||
        sub.cancelled ||
        sub.sink.closed ||
        Date.now() > deadline
      ) {
        throw err;
      }
      const wait = BUS_RETRY_MS[Math.min(attempt, BUS_RETRY_MS.length - 1)] as number;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
