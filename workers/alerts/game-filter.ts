import type { GameEvent, TeamRef } from '../../src/model/events.js';

/** Which games a bot (or one of its subscribers) wants: leagues, teams, conferences, ranks. */
export interface GameFilter {
  leagues: readonly string[];
  /** Team ids and abbreviations, upper case; null: every team. */
  teams: ReadonlySet<string> | null;
  /** Conference ids; null: every conference (and games without one). */
  conferences: ReadonlySet<string> | null;
  /** Games with a team ranked this high or higher (true: any rank); null: every game. */
  ranked: number | null;
}

/** The filter a rules file (or a subscriber) describes; `leagues` is already resolved. */
export function gameFilter(config: {
  leagues: readonly string[];
  teams?: readonly string[] | undefined;
  conferences?: readonly string[] | undefined;
  ranked?: true | number | undefined;
}): GameFilter {
  return {
    leagues: config.leagues,
    teams: config.teams ? new Set(config.teams.map((t) => t.toUpperCase())) : null,
    conferences: config.conferences ? new Set(config.conferences) : null,
    ranked:
      config.ranked === undefined ? null : config.ranked === true ? Number.POSITIVE_INFINITY : config.ranked,
  };
}

export function wantsGame(filter: GameFilter, event: Pick<GameEvent, 'league' | 'teams'>): boolean {
  if (!filter.leagues.includes(event.league)) return false;
  const sides: TeamRef[] = [event.teams.home, event.teams.away];
  const { teams, conferences, ranked } = filter;
  if (teams && !sides.some((t) => teams.has(t.id.toUpperCase()) || teams.has(t.abbreviation.toUpperCase())))
    return false;
  if (conferences && !sides.some((t) => t.conference != null && conferences.has(t.conference.id)))
    return false;
  return ranked === null || sides.some((t) => t.rank != null && t.rank <= ranked);
}
