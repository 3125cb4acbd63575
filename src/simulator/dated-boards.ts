import type { League } from '../core/leagues.js';
import { easternInstant } from '../espn/eastern-day.js';
import type { FixtureStore } from './fixture-store.js';
import { scoreboardLeague, SEASON_YEAR } from './generated-common.js';
import { statusObject } from './game-status.js';
import { hashString } from './random.js';
import { LEAGUE_UID, TEAMS, teamObject } from './team-catalog.js';

/**
 * Scoreboards of past dates, as ESPN answers `dates=YYYYMMDD`, `YYYYMM` and `YYYY`: the games of
 * each Eastern day of the date, from the recording of that day when there is one, else a slate of
 * finished games made up for the day (deterministic, ids starting with 9 as every made-up id).
 * Some days have no games; every slate of three or more ends with a 22:30 Eastern tip-off, which is
 * the next day in UTC, so that filing by the Eastern day is exercised.
 */

type Json = Record<string, unknown>;

// Tip-off times (Eastern wall clock, hour and minute) of a slate, earliest first.
const TIP_OFFS: readonly (readonly [number, number])[] = [
  [19, 0],
  [19, 30],
  [20, 0],
  [21, 0],
  [22, 0],
];
const LATE_TIP_OFF: readonly [number, number] = [22, 30];
// Up to seven games a day: about an NBA evening's slate.
const MAX_GAMES_PER_DAY = 7;

/** The days `dates` covers (YYYYMMDD, YYYYMM or YYYY), or undefined for any other form. */
export function daysOf(dates: string): string[] | undefined {
  if (/^[0-9]{8}$/.test(dates)) return [dates];
  const year = Number(dates.slice(0, 4));
  const months = /^[0-9]{6}$/.test(dates)
    ? [Number(dates.slice(4, 6))]
    : /^[0-9]{4}$/.test(dates)
      ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
      : undefined;
  if (!months || months.some((m) => m < 1 || m > 12)) return undefined;
  const days: string[] = [];
  for (const month of months) {
    const count = new Date(Date.UTC(year, month, 0)).getUTCDate();
    for (let day = 1; day <= count; day++) {
      days.push(`${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`);
    }
  }
  return days;
}

/**
 * The scoreboard text for `dates`, or undefined when `dates` is not a day, month or year. A day
 * with a recording is the recording itself, byte for byte.
 */
export function datedScoreboard(league: League, dates: string, store: FixtureStore): string | undefined {
  const days = daysOf(dates);
  if (!days) return undefined;
  const recordingOf = (day: string) => store.byKey(league, 'scoreboard', day);
  const single = days.length === 1 ? recordingOf(days[0] as string) : undefined;
  if (single) return store.text(single);
  const events: unknown[] = [];
  for (const day of days) {
    const recording = recordingOf(day);
    if (recording) {
      const payload = JSON.parse(store.text(recording)) as Json;
      if (Array.isArray(payload.events)) events.push(...(payload.events as unknown[]));
    } else {
      events.push(...slate(league, day));
    }
  }
  const first = days[0] as string;
  return JSON.stringify({
    leagues: [scoreboardLeague(league)],
    season: { type: 2, year: SEASON_YEAR[league] },
    ...(days.length === 1
      ? { day: { date: `${first.slice(0, 4)}-${first.slice(4, 6)}-${first.slice(6)}` } }
      : {}),
    events,
  });
}

/** The made-up finished games of one Eastern day. */
export function slate(league: League, day: string): Json[] {
  const seed = hashString(`${league}/${day}`);
  const count = seed % (MAX_GAMES_PER_DAY + 1);
  const teams = [...TEAMS[league]];
  // A deterministic shuffle, so each day pairs different teams.
  for (let i = teams.length - 1; i > 0; i--) {
    const j = hashString(`${seed}/${i}`) % (i + 1);
    [teams[i], teams[j]] = [teams[j] as (typeof teams)[number], teams[i] as (typeof teams)[number]];
  }
  const games: Json[] = [];
  for (let i = 0; i < count && 2 * i + 1 < teams.length; i++) {
    const late = count >= 3 && i === count - 1;
    const [hour, minute] = late ? LATE_TIP_OFF : (TIP_OFFS[i % TIP_OFFS.length] as readonly [number, number]);
    const date = new Date(easternInstant(day, hour, minute)).toISOString().replace(/:00\.000Z$/, 'Z');
    const home = teams[2 * i] as (typeof teams)[number];
    const away = teams[2 * i + 1] as (typeof teams)[number];
    const homeScore = 90 + (hashString(`${seed}/${i}/h`) % 40);
    let awayScore = 90 + (hashString(`${seed}/${i}/a`) % 40);
    if (awayScore === homeScore) awayScore += 1;
    games.push(finishedGame(league, datedGameId(league, day, i), date, home, away, homeScore, awayScore));
  }
  return games;
}

/** `9`, the league (1 men's, 2 women's), `YYMMDD`, the game's place in the day. */
export function datedGameId(league: League, day: string, index: number): string {
  return `9${league === 'mens' ? 1 : 2}${day.slice(2)}${index}`;
}

function finishedGame(
  league: League,
  id: string,
  date: string,
  home: (typeof TEAMS)[League][number],
  away: (typeof TEAMS)[League][number],
  homeScore: number,
  awayScore: number,
): Json {
  const status = statusObject({
    state: 'post',
    period: 4,
    displayClock: '0.0',
    endOfPeriod: true,
    league,
  });
  const side = (team: typeof home, homeAway: 'home' | 'away', score: number, won: boolean): Json => ({
    id: team.id,
    uid: teamObject(league, team).uid,
    type: 'team',
    order: homeAway === 'home' ? 0 : 1,
    homeAway,
    winner: won,
    team: teamObject(league, team),
    score: String(score),
    linescores: [],
  });
  const homeTeam = teamObject(league, home);
  const awayTeam = teamObject(league, away);
  return {
    id,
    uid: `${LEAGUE_UID[league]}~e:${id}`,
    date,
    name: `${String(awayTeam.displayName)} at ${String(homeTeam.displayName)}`,
    shortName: `${away.abbreviation} @ ${home.abbreviation}`,
    season: { year: SEASON_YEAR[league], type: 2, slug: 'regular-season' },
    competitions: [
      {
        id,
        uid: `${LEAGUE_UID[league]}~e:${id}~c:${id}`,
        date,
        attendance: 0,
        type: { id: '1', abbreviation: 'STD' },
        timeValid: true,
        neutralSite: false,
        conferenceCompetition: false,
        playByPlayAvailable: true,
        recent: false,
        competitors: [
          side(home, 'home', homeScore, homeScore > awayScore),
          side(away, 'away', awayScore, awayScore > homeScore),
        ],
        notes: [],
        status,
        broadcasts: [],
        format: { regulation: { periods: 4 } },
        startDate: date,
      },
    ],
    links: [],
    status,
  };
}
