import type { League } from '../core/leagues.js';
import { arr, obj } from '../tables/cells.js';
import type { JsonObject, Scoreboard, ScoreboardCompetitor, ScoreboardEvent } from './espn-shapes.js';
import { leagueObject } from './generated-common.js';
import { statusObject } from './game-status.js';
import type { GameView, SimulatedGame } from './simulated-game.js';

/** One game as a scoreboard `events[]` entry, following the game's current view. */
export function buildScoreboardEvent(
  league: League,
  final: Readonly<JsonObject>,
  view: GameView,
  linescores: (revealed: number) => { home: number[]; away: number[] },
  regulationPeriods: number,
): ScoreboardEvent {
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
    regulationPeriods,
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
      },
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
        notes: [],
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
    leagues: [leagueObject(league)],
    season: { type: season.type ?? 2, year: season.year },
    day: { date },
    events,
  };
}
