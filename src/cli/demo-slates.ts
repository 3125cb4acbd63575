import type { RunningUpstream, SimulatedGame } from '../simulator/index.js';
import { DEFAULT_INTERVALS } from '../../streams/engine-config.js';

/**
 * The demo runs until it is stopped: when the last game of its slate has ended, a new slate of
 * synthetic games is listed (a new seed, so new ids and new matchups), as the next evening's
 * would be. The simulator stops serving the slate before last, so a demo left running for days
 * holds two slates, not every slate it ever played; the daemon keeps finished games for its
 * finished-game TTL whatever the simulator still serves.
 */
export interface SlateOptions {
  upstream: Pick<RunningUpstream, 'games' | 'addSlate' | 'removeGames'>;
  /** Games a slate has. */
  games: number;
  /** The first slate's seed; slate n plays seed + n - 1. */
  seed: number;
  staggerMs: number;
  /** Told of each new slate (numbered from 2) when it is listed, with its first tip-off. */
  onSlate(slate: number, games: readonly SimulatedGame[], startAt: number): void;
  now?: () => number;
  /** From a slate's listing to its first tip-off; default `SLATE_LEAD_MS`. */
  leadMs?: number;
}

// From the listing of a slate to its first tip-off. With every game final the daemon polls the
// scoreboard once a game-day interval; a slate that tipped off at once would be found minutes of
// game time in. Listed this long ahead, it is seen as scheduled first and followed from its
// first play, like any evening's games.
export const SLATE_LEAD_MS = DEFAULT_INTERVALS.scoreboardGameDayMs + 30_000;

/** Starts the slate cycle after the slate now served; returns a function that stops it. */
export function cycleSlates(options: SlateOptions): () => void {
  const now = options.now ?? Date.now;
  let slate = 1;
  let current: readonly SimulatedGame[] = [...options.upstream.games];
  let previous: readonly SimulatedGame[] = [];
  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    const endsAt = Math.max(now(), ...current.map((g) => g.endAt));
    timer = setTimeout(next, endsAt - now());
  };
  const next = (): void => {
    slate += 1;
    options.upstream.removeGames(previous);
    previous = current;
    const startAt = now() + (options.leadMs ?? SLATE_LEAD_MS);
    const simulate = { games: options.games, seed: options.seed + slate - 1, staggerMs: options.staggerMs };
    current = options.upstream.addSlate(simulate, startAt);
    options.onSlate(slate, current, startAt);
    schedule();
  };
  schedule();
  return () => clearTimeout(timer);
}
