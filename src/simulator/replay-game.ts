import type { League } from '../core/leagues.js';
import { arr, obj } from '../tables/cells.js';
import type { JsonObject } from './espn-shapes.js';
import { ReplayDocuments } from './replay-documents.js';
import { ReplayPlays } from './replay-plays.js';
import { replayTimeline } from './replay-timeline.js';
import { buildScoreboardEvent } from './scoreboard.js';
import type { SimulatedGame } from './simulated-game.js';

/**
 * A finished summary replayed as a live game: its timeline (replay-timeline.ts) reveals the
 * plays, the stat crews edit them (replay-plays.ts), and the documents served at a moment
 * (replay-documents.ts) come from both.
 */

export { revealSchedule, type RevealSchedule } from './replay-timeline.js';

export interface ReplayOptions {
  readonly league: League;
  /** A finished summary; its `plays` are revealed by their wallclocks. */
  readonly final: Readonly<JsonObject>;
  readonly startAt: number;
  /** Game-time multiplier (2 = twice real speed). */
  readonly speed: number;
  /** The game was made up by the simulator rather than recorded; default false. */
  readonly synthetic?: boolean;
}

export function createReplayGame(options: ReplayOptions): SimulatedGame {
  const { league, final, startAt } = options;
  const speed = options.speed > 0 ? options.speed : 1;
  const recorded: readonly JsonObject[] = arr(final.plays).map(obj);
  const header = obj(final.header);
  const competition = obj(arr(header.competitions)[0]);
  const id = String(header.id ?? competition.id ?? 'unknown');
  const timeline = replayTimeline(recorded, startAt, speed);
  const plays = new ReplayPlays(recorded, arr(competition.competitors).map(obj));
  const documents = new ReplayDocuments(league, final, timeline, plays);
  let cache: { key: string; text: string } | undefined;

  /** The plays the stat crews may change at `now`: revealed, live, never the latest one. */
  const candidates = (now: number): number[] => {
    const count = timeline.revealedCount(now);
    if (timeline.stateOf(count) !== 'in') return [];
    // Never the latest play (its score drives the status) and never a period boundary.
    return timeline.revealed(count - 1).filter((i) => plays.editable(i));
  };

  return {
    league,
    id,
    synthetic: options.synthetic ?? false,
    final,
    startAt,
    endAt: timeline.endAt,
    state: (now) => documents.view(now),
    summary: (now) => documents.summary(now),
    summaryText(now) {
      const key = `${timeline.revealedCount(now)}|${plays.version}`;
      if (cache?.key !== key) cache = { key, text: JSON.stringify(documents.summary(now)) };
      return cache.text;
    },
    scoreboardEvent: (now) =>
      buildScoreboardEvent(league, final, documents.view(now), (count) => documents.linescores(count)),
    correctPlay: (now, random) => plays.correct(candidates(now), random),
    insertPlay: (now, random) => plays.insert(candidates(now), random),
    rescorePlay: (now, random) => plays.rescore(candidates(now), random),
    removePlay: (now, random) => plays.remove(candidates(now), random),
  };
}
