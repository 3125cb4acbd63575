import type { League } from '../core/leagues.js';
import type { GameEvent, Score, TeamRef } from '../model/events.js';
import { compareOffsets, OFFSET_PATTERN, type Bus, type Offset } from '../bus/types.js';

/**
 * Moments for the lower thirds: what the alert rules fire on a game's events, computed by the
 * server from the event log for a page that asks. The rules themselves live with the alert worker
 * (workers/alerts/rules.ts); the server and the workers may not import each other, so the daemon,
 * which composes both, hands the server a `MomentRules` built on them.
 *
 * A page asks for the moments `through` the newest event it has applied, so a page behind a spoiler
 * delay never learns of a moment before its own delayed stream has brought the play behind it.
 */
export interface Moment {
  /** Stable per game and moment: `<rule>:<league>:<gameId>:<moment>`. */
  id: string;
  rule: string;
  text: string;
  /** The event that fired it, and that event's offset in the log. */
  eventId: string;
  offset: Offset;
  seq: number;
  at: string;
  teams: { home: TeamRef; away: TeamRef };
  score: Score;
  period: number | null;
  clock: string | null;
  details: Record<string, unknown>;
}

/** The rules' view the server needs: settings from a page's query, and one evaluation step. */
export interface MomentRules {
  /** Rule names, in the order the docs list them. */
  readonly names: readonly string[];
  /** Whether a query parameter is one of the rules' (`rules`, `<rule>.<setting>`). */
  accepts(param: string): boolean;
  /**
   * The settings a query asks for, and a key naming them (equal settings, equal key). Throws
   * `InvalidParamsError` naming the parameter and the expected form.
   */
  settings(query: URLSearchParams): { key: string; settings: unknown };
  /** Pure: the game's rule state and one event in, the new state and the moments it fires out. */
  evaluate(
    state: unknown,
    event: GameEvent,
    settings: unknown,
  ): { state: unknown; moments: Array<Omit<Moment, 'offset'>> };
}

interface Evaluation {
  state: unknown;
  /** Events of the game evaluated so far. */
  done: number;
  moments: Moment[];
}

interface GameLog {
  events: GameEvent[];
  /** The newest log offset read for this game (events of other games included). */
  cursor: Offset | null;
  evaluations: Map<string, Evaluation>;
  usedAt: number;
  /** Reads and evaluations of one game run one at a time. */
  queue: Promise<unknown>;
}

// Pages ask after every few events; one log page a request is plenty, and a first request reads
// the log from its oldest event in pages of this size.
const READ_PAGE = 1_000;
// A game no page asked about for this long is forgotten (its events are read again if asked).
const IDLE_MS = 15 * 60_000;
// Games kept at once: a day's slate of both leagues with room to spare.
const MAX_GAMES = 64;
// Rule settings evaluated per game: pages of one broadcast share a few; a query that changes
// with every load must not grow the cache.
const MAX_EVALUATIONS = 16;

export interface MomentsSource {
  /** The moments of a game fired by its events up to `through` (inclusive), oldest first. */
  moments(
    league: League,
    gameId: string,
    through: Offset,
    query: { key: string; settings: unknown },
  ): Promise<Moment[]>;
}

export function createMomentsSource(options: {
  bus: Pick<Bus, 'read'>;
  rules: MomentRules;
  now?: () => number;
}): MomentsSource {
  const { bus, rules } = options;
  const now = options.now ?? Date.now;
  const games = new Map<string, GameLog>();

  function forgetIdle(): void {
    const t = now();
    for (const [key, game] of games) if (t - game.usedAt > IDLE_MS) games.delete(key);
    while (games.size > MAX_GAMES) {
      const oldest = [...games.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt)[0];
      if (!oldest) break;
      games.delete(oldest[0]);
    }
  }

  async function readThrough(game: GameLog, league: League, gameId: string, through: Offset): Promise<void> {
    while (game.cursor === null || compareOffsets(game.cursor, through) < 0) {
      const page = await bus.read(game.cursor, READ_PAGE);
      if (page.length === 0) return;
      for (const event of page) {
        if (event.league === league && event.gameId === gameId) game.events.push(event);
      }
      game.cursor = page[page.length - 1]?.offset ?? game.cursor;
      if (page.length < READ_PAGE) return;
    }
  }

  function evaluateThrough(game: GameLog, key: string, settings: unknown, through: Offset): Moment[] {
    let evaluation = game.evaluations.get(key);
    if (!evaluation) {
      evaluation = { state: undefined, done: 0, moments: [] };
      if (game.evaluations.size >= MAX_EVALUATIONS) {
        const first = game.evaluations.keys().next().value;
        if (first !== undefined) game.evaluations.delete(first);
      }
      game.evaluations.set(key, evaluation);
    }
    while (evaluation.done < game.events.length) {
      const event = game.events[evaluation.done] as GameEvent;
      if (event.offset === undefined || compareOffsets(event.offset, through) > 0) break;
      const step = rules.evaluate(evaluation.state, event, settings);
      evaluation.state = step.state;
      for (const moment of step.moments) evaluation.moments.push({ ...moment, offset: event.offset });
      evaluation.done += 1;
    }
    return evaluation.moments.filter((m) => compareOffsets(m.offset, through) <= 0);
  }

  return {
    moments(league, gameId, through, query) {
      if (!OFFSET_PATTERN.test(through)) throw new Error(`not an offset: ${through}`);
      const key = `${league}:${gameId}`;
      let game = games.get(key);
      if (!game) {
        game = { events: [], cursor: null, evaluations: new Map(), usedAt: now(), queue: Promise.resolve() };
        games.set(key, game);
        forgetIdle();
      }
      const held = game;
      held.usedAt = now();
      const work = held.queue.then(async () => {
        await readThrough(held, league, gameId, through);
        return evaluateThrough(held, query.key, query.settings, through);
      });
      held.queue = work.catch(() => undefined);
      return work;
    },
  };
}
