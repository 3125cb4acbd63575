import { isCollege, type League } from '../core/leagues.js';
import { easternDay, easternDayOf } from '../espn/eastern-day.js';
import { arr, obj } from '../tables/cells.js';
import type { JsonObject, Scoreboard, ScoreboardCompetitor, ScoreboardEvent } from './espn-shapes.js';
import { periodFormat } from '../core/periods.js';
import { statusObject } from './game-status.js';
import { datedScoreboard, daysOf } from './dated-boards.js';
import { scoreboardLeague } from './generated-common.js';
import type { FixtureStore } from './fixture-store.js';
import type { GameView, SimulatedGame } from './simulated-game.js';
import type { EspnRules } from './types.js';

// ESPN's college boards give an unranked team this curated rank.
const UNRANKED = 99;
// ESPN's group id of NCAA Division I: a college board lists all of it only when asked for it.
const DIVISION_I = '50';

/**
 * Whether a college game is on a board asked for `groups`: Division I (50) lists every game, a
 * conference's id its games, and no `groups` only the featured ones, which ESPN picks among the
 * ranked teams' games (the recorded default board has one game, of a ranked team).
 */
function inGroups(game: SimulatedGame, groups: string | undefined): boolean {
  if (!isCollege(game.league) || groups === DIVISION_I) return true;
  const competitors = arr(obj(arr(obj(game.final.header).competitions)[0]).competitors).map(obj);
  if (groups === undefined) return competitors.some((c) => typeof c.rank === 'number' && c.rank <= 25);
  return competitors.some((c) => String(obj(obj(c.team).groups).id) === groups);
}

/** One game as a scoreboard `events[]` entry, following the game's current view. */
export function buildScoreboardEvent(
  league: League,
  final: Readonly<JsonObject>,
  view: GameView,
  linescores: (revealed: number) => { home: number[]; away: number[] },
): ScoreboardEvent {
  const regulationPeriods = periodFormat(league).regulation;
  const college = isCollege(league);
  const header = obj(final.header);
  const competition = obj(arr(header.competitions)[0]);
  const competitors = arr(competition.competitors).map(obj);
  // A payload that does not mark the sides is read home first, as ESPN lists them.
  const sideAt = (homeAway: string, index: number): JsonObject =>
    obj(competitors.find((c) => c.homeAway === homeAway) ?? competitors[index]);
  const home = sideAt('home', 0);
  const away = sideAt('away', 1);
  const status = statusObject({
    state: view.state,
    period: view.period,
    displayClock: view.displayClock,
    endOfPeriod: view.endOfPeriod,
    league,
  });
  const lines = view.state === 'pre' ? { home: [], away: [] } : linescores(view.revealed);
  const side = (c: JsonObject, score: number, ls: number[], won: boolean): ScoreboardCompetitor => {
    const team = obj(c.team);
    return {
      id: String(c.id ?? team.id),
      uid: c.uid ?? team.uid,
      type: 'team',
      order: c.order ?? (c.homeAway === 'home' ? 0 : 1),
      homeAway: c.homeAway,
      winner: won,
      team: {
        id: String(team.id ?? c.id),
        uid: team.uid,
        location: team.location,
        name: team.name,
        abbreviation: team.abbreviation,
        displayName: team.displayName,
        shortDisplayName: team.shortDisplayName ?? team.name,
        color: team.color,
        alternateColor: team.alternateColor,
        isActive: true,
        logo: team.logo ?? obj(arr(team.logos)[0]).href,
        ...(college && obj(team.groups).id !== undefined
          ? { conferenceId: String(obj(team.groups).id) }
          : {}),
      },
      // College boards rank every team, 99 standing for unranked; the summary header has `rank` only when ranked.
      ...(college ? { curatedRank: { current: typeof c.rank === 'number' ? c.rank : UNRANKED } } : {}),
      score: view.state === 'pre' ? '0' : String(score),
      linescores: ls.map((value, i) => ({ value, displayValue: String(value), period: i + 1 })),
    };
  };
  const post = view.state === 'post';
  const competitorsOut = [
    side(home, view.homeScore, lines.home, post && view.homeScore > view.awayScore),
    side(away, view.awayScore, lines.away, post && view.awayScore > view.homeScore),
  ];
  const gameInfo = obj(final.gameInfo);
  const venue = gameInfo.venue ? obj(gameInfo.venue) : undefined;
  const awayName = obj(away.team).displayName ?? 'Away';
  const homeName = obj(home.team).displayName ?? 'Home';
  const id = String(header.id ?? competition.id);
  const season = obj(header.season);
  return {
    id,
    uid: header.uid ?? competition.uid,
    date: competition.date,
    name: `${String(awayName)} at ${String(homeName)}`,
    shortName: `${String(obj(away.team).abbreviation ?? 'AWY')} @ ${String(obj(home.team).abbreviation ?? 'HOM')}`,
    season: {
      year: season.year,
      type: season.type,
      slug: season.type === 3 ? 'post-season' : 'regular-season',
    },
    competitions: [
      {
        id,
        uid: competition.uid,
        date: competition.date,
        attendance: gameInfo.attendance ?? 0,
        type: { id: '1', abbreviation: 'STD' },
        timeValid: true,
        neutralSite: competition.neutralSite ?? false,
        conferenceCompetition: competition.conferenceCompetition ?? false,
        playByPlayAvailable: true,
        recent: view.state !== 'pre',
        venue: venue
          ? { id: venue.id, fullName: venue.fullName, address: venue.address, indoor: true }
          : undefined,
        competitors: competitorsOut,
        notes: typeof header.gameNote === 'string' ? [{ type: 'event', headline: header.gameNote }] : [],
        ...(competition.tournamentId !== undefined ? { tournamentId: competition.tournamentId } : {}),
        status,
        broadcasts: [],
        format: { regulation: { periods: regulationPeriods } },
        startDate: competition.date,
        broadcast: '',
      },
    ],
    links: [],
    status,
  };
}

export function buildScoreboard(league: League, games: readonly SimulatedGame[], now: number): Scoreboard {
  const events = games.filter((g) => g.league === league).map((g) => g.scoreboardEvent(now));
  const first = games.find((g) => g.league === league);
  const header = obj(first?.final.header);
  const season = obj(header.season);
  const date = String(obj(arr(header.competitions)[0]).date ?? new Date(now).toISOString()).slice(0, 10);
  return {
    // ESPN's board always carries the league's calendar of game days (clients read it there).
    leagues: [scoreboardLeague(league)],
    season: { type: season.type ?? 2, year: season.year },
    day: { date },
    events,
  };
}

/** The Eastern day a simulated game is filed under: that of its tip-off on the simulated clock. */
export const gameDay = (game: SimulatedGame): string => easternDay(game.startAt);

/** The Eastern day of the game's recorded (or generated) date, when it has one. */
function recordedDay(game: SimulatedGame): string | undefined {
  return easternDayOf(obj(arr(obj(game.final.header).competitions)[0]).date);
}

/**
 * The scoreboard of a league that has simulated games, as JSON text. Under the `legacy` rules every
 * game is on every board, whatever `dates` says. Under the `2026` rules a board holds the games of
 * its Eastern days, as ESPN files them: the default board (no `dates`) those of the simulated
 * clock's current Eastern day, so it turns over at Eastern midnight while a late game may still be
 * live, and `dates=<that day>` still shows that game. A date with no simulated game is answered as
 * any past date is (a recording of the day, or a made-up slate of finished games). A dated board
 * also shows a game under the Eastern day of the date its payload carries.
 */
export function liveScoreboardText(
  league: League,
  games: readonly SimulatedGame[],
  now: number,
  dates: string | undefined,
  rules: EspnRules,
  store: FixtureStore,
  groups?: string,
): string | undefined {
  if (rules === 'legacy') return JSON.stringify(buildScoreboard(league, games, now));
  const days = dates === undefined ? [easternDay(now)] : daysOf(dates);
  if (days === undefined) return undefined;
  const wanted = new Set(days);
  // A dated board also shows a game under the day of its recorded date, so that the date a
  // replayed payload carries finds it; the default board follows the simulated clock only.
  const filed = (g: SimulatedGame): boolean =>
    wanted.has(gameDay(g)) || (dates !== undefined && wanted.has(recordedDay(g) ?? ''));
  const onBoard = games.filter((g) => g.league === league && filed(g) && inGroups(g, groups));
  if (dates !== undefined && onBoard.length === 0) return datedScoreboard(league, dates, store);
  const first = days[0] as string;
  const board: Scoreboard = {
    // The season comes from a game of the league, on this board or not.
    ...buildScoreboard(
      league,
      onBoard.length > 0 ? onBoard : games.filter((g) => g.league === league).slice(0, 1),
      now,
    ),
    leagues: [scoreboardLeague(league)],
    ...(days.length === 1
      ? { day: { date: `${first.slice(0, 4)}-${first.slice(4, 6)}-${first.slice(6)}` } }
      : {}),
    events: onBoard
      .slice()
      .sort((a, b) => a.startAt - b.startAt)
      .map((g) => g.scoreboardEvent(now)),
  };
  return JSON.stringify(board);
}
