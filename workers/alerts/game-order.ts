import type { GameEvent } from '../../src/model/events.js';
import type { Logger } from '../../src/core/log.js';
import type { GameStore } from './game-store.js';
import type { GameRuleState } from './types.js';

/** Applies one event to a game's rule state (rules, their alerts, the event's deliveries): the next state. */
export type ApplyEvent = (state: GameRuleState | undefined, event: GameEvent) => Promise<GameRuleState>;

export interface GameOrderOptions {
  store: GameStore;
  apply: ApplyEvent;
  /** How long an event waits for its predecessor before it is applied anyway. */
  gapWaitMs: number;
  logger: Logger;
}

// Polling for a missing predecessor: short against the gap wait, cheap for Redis.
const GAP_POLL_MS = 15;
// Parked successors applied under one lock hold: far inside the lock's 10 s at a few ms each.
const MAX_CHAIN = 200;

/**
 * Applies each game's events in `seq` order whichever worker takes them: under the game's lock, an
 * event whose predecessor is not applied yet is parked and waits (up to `gapWaitMs`); the one that
 * applies goes on with the successors parked behind it. Resolves to what became of the event
 * (`done` when applied already, `applied:<n>` with the events applied).
 */
export function inGameOrder({
  store,
  apply,
  gapWaitMs,
  logger,
}: GameOrderOptions): (event: GameEvent) => Promise<string> {
  /** Applies `first`, then (when any are parked) each parked successor in turn. */
  async function applyChain(
    state: GameRuleState | undefined,
    first: GameEvent,
    anyParked: boolean,
  ): Promise<{ state: GameRuleState; applied: number[] }> {
    const applied: number[] = [];
    let current = state;
    let event: GameEvent | undefined = first;
    while (event && applied.length < MAX_CHAIN) {
      const next = await apply(current, event);
      current = next;
      applied.push(event.seq);
      event = anyParked ? await store.parked(first.league, first.gameId, next.lastSeq + 1) : undefined;
    }
    // `first` always applies, so the loop ran at least once.
    return { state: current!, applied };
  }

  return async (event) => {
    const { league, gameId } = event;
    const deadline = Date.now() + gapWaitMs;
    let parked = false;
    for (;;) {
      const held = await store.lockAndLoad(league, gameId);
      if (held) {
        let committed = false;
        try {
          const last = held.state?.lastSeq ?? 0;
          if (held.state && event.seq <= last) {
            // Applied already: by a peer that found it parked, or a duplicate delivery.
            if (parked) await store.unpark(league, gameId, [event.seq]);
            return 'done';
          }
          if (event.seq === last + 1 || Date.now() >= deadline) {
            if (event.seq !== last + 1) {
              logger.debug({ game: gameId, seq: event.seq, last }, 'gap in seq; applying anyway');
            }
            const { state, applied } = await applyChain(held.state, event, held.parked > 0);
            committed = true;
            if (!(await store.commit(league, gameId, held.token, state, applied))) {
              logger.warn(
                { game: gameId, seq: event.seq },
                'game lock expired during evaluation; state not saved',
              );
            }
            return `applied:${applied.length}`;
          }
          if (!parked) {
            await store.park(event);
            parked = true;
          }
        } finally {
          if (!committed) await store.release(league, gameId, held.token).catch(() => undefined);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, GAP_POLL_MS));
    }
  };
}
