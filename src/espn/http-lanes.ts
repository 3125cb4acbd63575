import { Agent } from 'undici';
import { upstreamQueueWait } from '../core/metrics.js';
import { LaneSlots, type Lane } from './lane.js';

/** The upstream client's two lanes, each with its own slots and connections. */

/** What one lane is doing, and the longest a request of it waited for a slot lately. */
export interface LaneStats {
  readonly slots: number;
  readonly inFlight: number;
  readonly waiting: number;
  /** The longest slot wait of the last minute, in ms, and when it ended (wall clock, ms). */
  readonly longestWait: { readonly ms: number; readonly at: number } | null;
}

export interface LaneState {
  readonly slots: LaneSlots;
  readonly dispatcher: Agent;
  longestWait: { ms: number; at: number } | null;
}

export type Lanes = Record<Lane, LaneState>;

// Keep idle sockets for a few polling intervals (summaries are polled every 3 s).
const KEEP_ALIVE_MS = 30_000;
// How long a lane remembers its longest slot wait: a minute spans many polls of every cadence.
const LONGEST_WAIT_WINDOW_MS = 60_000;

export function createLanes(live: number, onDemand: number): Lanes {
  return { live: createLane(live), 'on-demand': createLane(onDemand) };
}

function createLane(connections: number): LaneState {
  return {
    slots: new LaneSlots(connections),
    dispatcher: new Agent({ connections, keepAliveTimeout: KEEP_ALIVE_MS }),
    longestWait: null,
  };
}

/** Runs `work` holding a slot of `lane`, recording how long the slot took to come. */
export async function inLane<T>(lanes: Lanes, lane: Lane, work: () => Promise<T>): Promise<T> {
  const state = lanes[lane];
  // Waits are real time, whatever clock the cache is given.
  const asked = Date.now();
  const release = await state.slots.acquire();
  const at = Date.now();
  const waitedMs = at - asked;
  upstreamQueueWait.observe({ lane }, waitedMs / 1000);
  const longest = state.longestWait;
  if (!longest || waitedMs >= longest.ms || at - longest.at > LONGEST_WAIT_WINDOW_MS) {
    state.longestWait = { ms: waitedMs, at };
  }
  try {
    return await work();
  } finally {
    release();
  }
}

export function laneStats(lanes: Lanes): Record<Lane, LaneStats> {
  const now = Date.now();
  const stats = (lane: LaneState): LaneStats => ({
    slots: lane.slots.slots,
    inFlight: lane.slots.inFlight,
    waiting: lane.slots.waiting,
    longestWait:
      lane.longestWait && now - lane.longestWait.at <= LONGEST_WAIT_WINDOW_MS ? lane.longestWait : null,
  });
  return { live: stats(lanes.live), 'on-demand': stats(lanes['on-demand']) };
}

export async function closeLanes(lanes: Lanes): Promise<void> {
  await Promise.all(Object.values(lanes).map((lane) => lane.dispatcher.destroy()));
}
