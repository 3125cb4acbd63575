import type { League } from '../core/leagues.js';
import {
  arr,
  isObject,
  obj,
  toCharacter,
  toClockSeconds,
  toColour,
  toInteger,
  toLogical,
  toSeasonYear,
} from './cells.js';
import type { ScoreboardRow } from './schema.js';

// ESPN marks an unranked competitor with curatedRank.current 99; only 1..98 count as ranked.
const UNRANKED = 99;

function rank(competitor: Record<string, unknown>): string | null {
  const current = toInteger(obj(competitor.curatedRank).current);
  return current !== null && current > 0 && current < UNRANKED ? String(current) : null;
}

function logo(team: Record<string, unknown>): string | null {
  const direct = toCharacter(team.logo);
  if (direct !== null) return direct;
  return toCharacter(obj(arr(team.logos)[0]).href);
}

/** `broadcast` as upstream joins it (e.g. "NBC/Peacock"), else the broadcasts' names joined with "/". */
function broadcast(competition: Record<string, unknown>): string | null {
  const joined = toCharacter(competition.broadcast);
  if (joined !== null) return joined;
  const names: string[] = [];
  for (const b of arr(competition.broadcasts)) {
    for (const name of arr(obj(b).names)) if (typeof name === 'string' && name !== '') names.push(name);
  }
  return names.length ? names.join('/') : null;
}

function note(competition: Record<string, unknown>): string | null {
  for (const n of arr(competition.notes)) {
    const headline = toCharacter(obj(n).headline);
    if (headline !== null) return headline;
  }
  return null;
}

function side(competitors: readonly unknown[], homeAway: 'home' | 'away'): Record<string, unknown> {
  for (const c of competitors) if (isObject(c) && c.homeAway === homeAway) return c;
  return {};
}

/** One scoreboard row for one event. */
export function scoreboardRow(event: Record<string, unknown>): ScoreboardRow {
  const competition = obj(arr(event.competitions)[0]);
  const competitors = arr(competition.competitors);
  const season = obj(event.season);
  const status = obj(event.status);
  const statusType = obj(status.type);
  const venue = obj(competition.venue);
  const address = obj(venue.address);
  const home = side(competitors, 'home');
  const away = side(competitors, 'away');
  const homeTeam = obj(home.team);
  const awayTeam = obj(away.team);
  return {
    game_id: toCharacter(event.id),
    uid: toCharacter(event.uid),
    date: toCharacter(event.date),
    name: toCharacter(event.name),
    short_name: toCharacter(event.shortName),
    season_slug: toCharacter(season.slug),
    status_type_id: toCharacter(statusType.id),
    status_type_name: toCharacter(statusType.name),
    status_type_state: toCharacter(statusType.state),
    status_type_description: toCharacter(statusType.description),
    status_type_detail: toCharacter(statusType.detail),
    status_type_short_detail: toCharacter(statusType.shortDetail),
    status_display_clock: toCharacter(status.displayClock),
    venue_id: toCharacter(venue.id),
    venue_full_name: toCharacter(venue.fullName),
    venue_city: toCharacter(address.city),
    venue_state: toCharacter(address.state),
    broadcast: broadcast(competition),
    note: note(competition),
    season_year: toSeasonYear(season.year),
    season_type: toInteger(season.type),
    status_period: toInteger(status.period),
    attendance: toInteger(competition.attendance),
    status_clock: toClockSeconds(status.clock),
    status_type_completed: toLogical(statusType.completed),
    neutral_site: toLogical(competition.neutralSite),
    conference_competition: toLogical(competition.conferenceCompetition),
    venue_indoor: toLogical(venue.indoor),
    home_id: toCharacter(homeTeam.id),
    home_name: toCharacter(homeTeam.name),
    home_abbreviation: toCharacter(homeTeam.abbreviation),
    home_display_name: toCharacter(homeTeam.displayName),
    home_location: toCharacter(homeTeam.location),
    home_color: toColour(homeTeam.color),
    home_alternate_color: toColour(homeTeam.alternateColor),
    home_logo: logo(homeTeam),
    home_score: toCharacter(home.score),
    home_rank: rank(home),
    home_winner: toLogical(home.winner),
    away_id: toCharacter(awayTeam.id),
    away_name: toCharacter(awayTeam.name),
    away_abbreviation: toCharacter(awayTeam.abbreviation),
    away_display_name: toCharacter(awayTeam.displayName),
    away_location: toCharacter(awayTeam.location),
    away_color: toColour(awayTeam.color),
    away_alternate_color: toColour(awayTeam.alternateColor),
    away_logo: logo(awayTeam),
    away_score: toCharacter(away.score),
    away_rank: rank(away),
    away_winner: toLogical(away.winner),
  };
}

/**
 * The scoreboard: one row per event in `events`. Both leagues share the columns; `league` is
 * part of the contract so a league difference can be honoured without changing callers.
 * `home_rank` / `away_rank` are always set here (null when unranked); the tabular form drops
 * them when no team on the scoreboard is ranked.
 */
export function parseScoreboard(raw: unknown, _league: League): ScoreboardRow[] {
  const out: ScoreboardRow[] = [];
  for (const event of arr(obj(raw).events)) if (isObject(event)) out.push(scoreboardRow(event));
  return out;
}
