import type { GameEvent, TeamRef } from '../model/events.js';
import type { SubscriptionFilter } from './viewer-protocol.js';

/**
 * Finds the subscriptions an event matches without testing every subscription. Each subscription
 * is filed under its most selective field only (games, then teams, then conferences, then types,
 * then leagues; none: the catch-all list), so an event's candidates are the union of a handful of
 * buckets: its game, its two teams (id and abbreviation), their conferences, its type, its league,
 * and the catch-alls (which only `ranked` can narrow). Each candidate is
 * then checked against its whole filter (a few Set lookups). Cost per event is proportional to the
 * subscriptions that could match, not to all subscriptions.
 */
export interface Indexed {
  readonly filter: SubscriptionFilter;
}

type Field = 'games' | 'teams' | 'conferences' | 'types' | 'leagues' | 'all';

export interface SubscriptionIndex<S extends Indexed> {
  add(sub: S): void;
  remove(sub: S): void;
  /** Calls `visit` once for each subscription that matches `event`. */
  match(event: GameEvent, visit: (sub: S) => void): void;
  readonly size: number;
  /** Some subscription names this game in its `games` filter: someone is watching it. */
  watches(gameId: string): boolean;
}

export function createSubscriptionIndex<S extends Indexed>(): SubscriptionIndex<S> {
  const buckets = {
    games: new Map<string, Set<S>>(),
    teams: new Map<string, Set<S>>(),
    conferences: new Map<string, Set<S>>(),
    types: new Map<string, Set<S>>(),
    leagues: new Map<string, Set<S>>(),
  };
  const all = new Set<S>();
  let size = 0;
  // Per-event dedupe without allocating: a sub filed under two of the event's keys (a team's id
  // and its abbreviation) is visited once.
  const seen = new WeakMap<S, number>();
  let stamp = 0;

  function fieldOf(filter: SubscriptionFilter): Field {
    if (filter.games) return 'games';
    if (filter.teams) return 'teams';
    if (filter.conferences) return 'conferences';
    if (filter.types) return 'types';
    if (filter.leagues) return 'leagues';
    return 'all';
  }

  function keysOf(sub: S, field: Exclude<Field, 'all'>): Iterable<string> {
    return sub.filter[field] as ReadonlySet<string>;
  }

  return {
    get size() {
      return size;
    },
    watches(gameId) {
      return (buckets.games.get(gameId)?.size ?? 0) > 0;
    },
    add(sub) {
      const field = fieldOf(sub.filter);
      size += 1;
      if (field === 'all') {
        all.add(sub);
        return;
      }
      const map = buckets[field];
      for (const key of keysOf(sub, field)) {
        let set = map.get(key);
        if (!set) map.set(key, (set = new Set()));
        set.add(sub);
      }
    },
    remove(sub) {
      const field = fieldOf(sub.filter);
      if (field === 'all') {
        if (all.delete(sub)) size -= 1;
        return;
      }
      const map = buckets[field];
      let removed = false;
      for (const key of keysOf(sub, field)) {
        const set = map.get(key);
        if (set?.delete(sub)) removed = true;
        if (set?.size === 0) map.delete(key);
      }
      if (removed) size -= 1;
    },
    match(event, visit) {
      stamp += 1;
      const home = event.teams.home.abbreviation.toUpperCase();
      const away = event.teams.away.abbreviation.toUpperCase();
      const ranked = hasRankedTeam(event.teams);
      for (const sub of all) if (ranked || sub.filter.ranked === undefined) visit(sub);
      const visitSet = (set: Set<S> | undefined): void => {
        if (!set) return;
        for (const sub of set) {
          if (seen.get(sub) === stamp) continue;
          seen.set(sub, stamp);
          if (matchesFilter(sub.filter, event)) visit(sub);
        }
      };
      visitSet(buckets.games.get(event.gameId));
      visitSet(buckets.teams.get(event.teams.home.id));
      visitSet(buckets.teams.get(home));
      visitSet(buckets.teams.get(event.teams.away.id));
      visitSet(buckets.teams.get(away));
      const homeConference = event.teams.home.conference?.id;
      const awayConference = event.teams.away.conference?.id;
      if (homeConference !== undefined) visitSet(buckets.conferences.get(homeConference));
      if (awayConference !== undefined) visitSet(buckets.conferences.get(awayConference));
      visitSet(buckets.types.get(event.type));
      visitSet(buckets.leagues.get(event.league));
    },
  };
}

/** The same test the index applies, for one subscription (replay and snapshots use it). */
export function matchesFilter(filter: SubscriptionFilter, event: GameEvent): boolean {
  if (filter.leagues && !filter.leagues.has(event.league)) return false;
  if (filter.games && !filter.games.has(event.gameId)) return false;
  if (filter.types && !filter.types.has(event.type)) return false;
  return teamsMatch(filter, event.teams);
}

/** The filter's team fields (teams, conferences, ranked) against a game's two teams. */
export function teamsMatch(filter: SubscriptionFilter, game: { home: TeamRef; away: TeamRef }): boolean {
  if (filter.teams && !playsIn(filter.teams, game)) return false;
  if (filter.conferences && !inConference(filter.conferences, game)) return false;
  return !filter.ranked || hasRankedTeam(game);
}

/** True when either team's conference id is in `conferences`. */
function inConference(conferences: ReadonlySet<string>, game: { home: TeamRef; away: TeamRef }): boolean {
  const home = game.home.conference?.id;
  const away = game.away.conference?.id;
  return (home != null && conferences.has(home)) || (away != null && conferences.has(away));
}

/** True when either team carries a poll rank. */
export function hasRankedTeam(game: { home: TeamRef; away: TeamRef }): boolean {
  return game.home.rank != null || game.away.rank != null;
}

/** True when either team is named in `teams` (by id or upper-case abbreviation). */
export function playsIn(teams: ReadonlySet<string>, game: { home: TeamRef; away: TeamRef }): boolean {
  const { home, away } = game;
  return (
    teams.has(home.id) ||
    teams.has(home.abbreviation.toUpperCase()) ||
    teams.has(away.id) ||
    teams.has(away.abbreviation.toUpperCase())
  );
}
