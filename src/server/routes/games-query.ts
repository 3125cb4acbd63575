import { LEAGUES, isLeague, type League } from '../../core/leagues.js';
import type { PushFeedStatus } from '../../../streams/engine-types.js';
import { teamsMatch } from '../subscription-index.js';
import type { GameSnapshot } from '../../model/events.js';

/**
 * The query parameters that narrow a list of live games (`/v1/games/live` and `/`): by league, by
 * conference (either team in it), to games with a ranked team, and a compact form of each game.
 * A Saturday has 150+ games at once; a client that wants one conference's should not read them all.
 */
export interface GamesQuery {
  leagues?: ReadonlySet<League>;
  conferences?: ReadonlySet<string>;
  ranked?: true;
  view: 'full' | 'compact';
}

/** A bad parameter: which one, and the message that names its expected form. */
export interface GamesQueryError {
  param: string;
  message: string;
}

// ESPN's group ids are small integers (2 ACC, 8 Big 12, 23 SEC); the stream filters take the same form.
const CONFERENCE = /^[0-9]{1,6}$/;
// More values than there are leagues or conferences is a mistake, not a filter.
const MAX_VALUES = 100;
const RANKED_VALUES: Readonly<Record<string, boolean>> = {
  '': true,
  '1': true,
  true: true,
  '0': false,
  false: false,
};
const VIEWS = ['full', 'compact'] as const;

/** Reads the filter parameters; every other parameter (e.g. `token`) is left to its own reader. */
export function parseGamesQuery(
  params: URLSearchParams,
): { ok: true; query: GamesQuery } | { ok: false; error: GamesQueryError } {
  const query: GamesQuery = { view: 'full' };
  for (const name of ['ranked', 'view']) {
    const count = params.getAll(name).length;
    if (count > 1) return refuse(name, `${name} is given ${count} times; expected it once`);
  }
  const leagues = listOf(params, 'league');
  if (leagues.length > 0) {
    const bad = leagues.find((l) => !isLeague(l));
    if (bad !== undefined)
      return refuse(
        'league',
        `league ${show(bad)} is invalid; expected one or more of ${LEAGUES.join(', ')}, comma-separated`,
      );
    query.leagues = new Set(leagues as League[]);
  }
  const conferences = listOf(params, 'conference');
  if (conferences.length > MAX_VALUES)
    return refuse('conference', `conference lists ${conferences.length} ids; expected at most ${MAX_VALUES}`);
  if (conferences.length > 0) {
    const bad = conferences.find((c) => !CONFERENCE.test(c));
    if (bad !== undefined)
      return refuse(
        'conference',
        `conference ${show(bad)} is invalid; expected ESPN conference ids (digits, e.g. 2 for the ACC), comma-separated`,
      );
    query.conferences = new Set(conferences);
  }
  const ranked = single(params, 'ranked');
  if (ranked !== undefined) {
    if (!Object.hasOwn(RANKED_VALUES, ranked))
      return refuse(
        'ranked',
        `ranked ${show(ranked)} is invalid; expected true (only games with a ranked team) or false`,
      );
    if (RANKED_VALUES[ranked]) query.ranked = true;
  }
  const view = single(params, 'view');
  if (view !== undefined) {
    if (!(VIEWS as readonly string[]).includes(view))
      return refuse('view', `view ${show(view)} is invalid; expected ${VIEWS.join(' or ')}`);
    query.view = view as GamesQuery['view'];
  }
  return { ok: true, query };
}

/** A live game as `liveGames` (games.ts) lists it: its snapshot, and how it is fed. */
export type LiveGame = GameSnapshot & { feed?: PushFeedStatus };

/** The games the query keeps, in their order; the team test is the stream filters' own. */
export function filterGames<G extends LiveGame>(games: readonly G[], query: GamesQuery): G[] {
  const teamFilter = {
    ...(query.conferences ? { conferences: query.conferences } : {}),
    ...(query.ranked ? { ranked: true as const } : {}),
  };
  return games.filter(
    (g) => (!query.leagues || query.leagues.has(g.league)) && teamsMatch(teamFilter, g.teams),
  );
}

/** One team in the compact form. */
export interface CompactTeam {
  abbreviation: string;
  rank: number | null;
  score: number;
}

/** One game in a few fields: what a dashboard of 165 games shows per row. */
export interface CompactGame {
  id: string;
  league: League;
  state: LiveGame['state'];
  away: CompactTeam;
  home: CompactTeam;
  period: string | null;
  clock: string | null;
  /** How this instance follows the game (push, polling, standby); null when it does not track it. */
  feed: PushFeedStatus['source'] | null;
}

export function compactGame(g: LiveGame): CompactGame {
  const team = (side: 'home' | 'away'): CompactTeam => ({
    abbreviation: g.teams[side].abbreviation,
    rank: g.teams[side].rank ?? null,
    score: g.score[side],
  });
  return {
    id: g.gameId,
    league: g.league,
    state: g.state,
    away: team('away'),
    home: team('home'),
    period: g.periodLabel ?? null,
    clock: g.clock,
    feed: g.feed?.source ?? null,
  };
}

/** A list parameter as the stream filters take it: repeated, comma-separated, or both. */
function listOf(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

function single(params: URLSearchParams, name: string): string | undefined {
  return params.get(name) ?? undefined;
}

function refuse(param: string, message: string): { ok: false; error: GamesQueryError } {
  return { ok: false, error: { param, message } };
}

function show(value: string): string {
  return JSON.stringify(value.slice(0, 40));
}
