import type { League } from '../core/leagues.js';
import type { FixtureStore } from './fixture-store.js';
import { generatePayload } from './generated-payloads.js';
import type { SimulatedGame } from './replay-game.js';
import type { RouteMatch } from './routes.js';
import { buildScoreboard } from './scoreboard.js';

/** What answers a matched request, as JSON text. */
export interface Resolved {
  readonly text: string;
  readonly source: 'game' | 'fixture' | 'generated';
  /** The simulated game served, for summary requests of one. */
  readonly game?: SimulatedGame;
}

/** The parameter a recording's qualifier is keyed by, per operation (ids before dates). */
const KEY_PARAMS = ['event_id', 'team_id', 'athlete_id', 'dates'] as const;
// Id-keyed requests with no recording get a generated payload for that id, never another id's recording.
const ID_PARAMS = new Set<string>(['event_id', 'team_id', 'athlete_id']);

/** Request parameters under their client names: path params, then the operation's query params. */
export function clientParams(match: RouteMatch, query: URLSearchParams): Record<string, string> {
  const params: Record<string, string> = { ...match.pathParams };
  for (const { name, upstream } of match.operation.queryParams) {
    const value = query.get(upstream);
    if (value !== null) params[name] = value;
  }
  return params;
}

export function findGame(
  games: readonly SimulatedGame[],
  league: League,
  id: string | undefined,
): SimulatedGame | undefined {
  return id === undefined ? undefined : games.find((g) => g.league === league && g.id === id);
}

export function resolve(
  match: RouteMatch,
  params: Readonly<Record<string, string>>,
  store: FixtureStore,
  games: readonly SimulatedGame[],
  now: number,
): Resolved {
  const { league, suffix } = match.operation;
  if (suffix === 'summary') {
    const game = findGame(games, league, params.event_id);
    if (game) return { text: game.summaryText(now), source: 'game', game };
  }
  if (suffix === 'scoreboard' && games.some((g) => g.league === league)) {
    return { text: JSON.stringify(buildScoreboard(league, games, now)), source: 'game' };
  }
  const keyParam = KEY_PARAMS.find((p) => params[p] !== undefined);
  const key = keyParam === 'dates' ? params.dates?.slice(0, 8) : keyParam ? params[keyParam] : undefined;
  const recording =
    key !== undefined
      ? (store.byKey(league, suffix, key) ??
        (ID_PARAMS.has(keyParam ?? '') ? undefined : store.byDefault(league, suffix)))
      : store.byDefault(league, suffix);
  if (recording) return { text: store.text(recording), source: 'fixture' };
  return { text: JSON.stringify(generatePayload(suffix, league, params)), source: 'generated' };
}
