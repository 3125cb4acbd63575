import type { League } from '../core/leagues.js';
import {
  arr,
  isObject,
  obj,
  toCharacter,
  toClockSeconds,
  toColour,
  toInteger,
  toSeasonYear,
} from './cells.js';
import { byPath, extractRows, type Extractors } from './extract.js';
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

type Side = 'home' | 'away';

function side(competitors: readonly unknown[], homeAway: Side): Record<string, unknown> {
  for (const c of competitors) if (isObject(c) && c.homeAway === homeAway) return c;
  return {};
}

/** One item per event: the event, its (first) competition and the competitors at home and away. */
function scoreboardItem(event: Record<string, unknown>): Record<string, unknown> {
  const competition = obj(arr(event.competitions)[0]);
  const competitors = arr(competition.competitors);
  return { event, competition, home: side(competitors, 'home'), away: side(competitors, 'away') };
}

/** The `<side>_*` columns: the competitor playing at `s`, its team, rank and result. */
function sideExtractors(s: Side): Extractors {
  const team = (i: Record<string, unknown>): Record<string, unknown> => obj(obj(i[s]).team);
  return {
    ...byPath(['id', 'name', 'abbreviation', 'displayName', 'location'], { under: `${s}.team`, prefix: s }),
    [`${s}_color`]: (i) => toColour(team(i).color),
    [`${s}_alternate_color`]: (i) => toColour(team(i).alternateColor),
    [`${s}_logo`]: (i) => logo(team(i)),
    [`${s}_score`]: `${s}.score`,
    [`${s}_rank`]: (i) => rank(obj(i[s])),
    [`${s}_conference_id`]: (i) => toCharacter(team(i).conferenceId),
    [`${s}_winner`]: `${s}.winner`,
  };
}

const SCOREBOARD: Extractors = {
  game_id: 'event.id',
  ...byPath(
    [
      'uid',
      'date',
      'name',
      'shortName',
      'season.slug',
      'season.type',
      'status.type.id',
      'status.type.name',
      'status.type.state',
      'status.type.description',
      'status.type.detail',
      'status.type.shortDetail',
      'status.type.completed',
      'status.displayClock',
      'status.period',
    ],
    { under: 'event' },
  ),
  ...byPath(['attendance', 'neutralSite', 'conferenceCompetition'], { under: 'competition' }),
  ...byPath(['id', 'fullName', 'indoor'], { under: 'competition.venue', prefix: 'venue' }),
  venue_city: 'competition.venue.address.city',
  venue_state: 'competition.venue.address.state',
  broadcast: (i) => broadcast(obj(i.competition)),
  note: (i) => note(obj(i.competition)),
  tournament_id: (i) => toCharacter(obj(i.competition).tournamentId),
  season_year: (i) => toSeasonYear(obj(obj(i.event).season).year),
  status_clock: (i) => toClockSeconds(obj(obj(i.event).status).clock),
  ...sideExtractors('home'),
  ...sideExtractors('away'),
};

/**
 * The scoreboard: one row per event in `events`. Both leagues share the columns; `league` is
 * part of the contract so a league difference can be honoured without changing callers.
 * `home_rank` / `away_rank` are always set here (null when unranked); the tabular form drops
 * them when no team on the scoreboard is ranked.
 */
export function parseScoreboard(raw: unknown, league: League): ScoreboardRow[] {
  const items = arr(obj(raw).events).filter(isObject).map(scoreboardItem);
  return extractRows('scoreboard', league, SCOREBOARD, items) as unknown as ScoreboardRow[];
}
