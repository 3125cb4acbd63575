import type { League } from '../core/leagues.js';
import { statusObject } from './game-status.js';
import type { GameView, SimulatedGame } from './replay-game.js';
import { leagueObject } from './generated-common.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- summary payloads are ESPN's free-form JSON */
type Json = Record<string, any>;

/** One game as a scoreboard `events[]` entry, following the game's current view. */
export function buildScoreboardEvent(
  league: League,
  final: Json,
  view: GameView,
  linescores: (revealed: number) => { home: number[]; away: number[] },
  regulationPeriods: number,
): Json {
  const header: Json = final.header ?? {};
  const competition: Json = header.competitions?.[0] ?? {};
  const competitors: Json[] = competition.competitors ?? [];
  const home = competitors.find((c) => c.homeAway === 'home') ?? competitors[0] ?? {};
  const away = competitors.find((c) => c.homeAway === 'away') ?? competitors[1] ?? {};
  const status = statusObject({
    state: view.state,
    period: view.period,
    displayClock: view.displayClock,
    endOfPeriod: view.endOfPeriod,
    regulationPeriods,
  });
  const lines = view.state === 'pre' ? { home: [], away: [] } : linescores(view.revealed);
  const side = (c: Json, score: number, ls: number[], won: boolean): Json => ({
    id: String(c.id ?? c.team?.id),
    uid: c.uid ?? c.team?.uid,
    type: 'team',
    order: c.order ?? (c.homeAway === 'home' ? 0 : 1),
    homeAway: c.homeAway,
    winner: won,
    team: {
      id: String(c.team?.id ?? c.id),
      uid: c.team?.uid,
      location: c.team?.location,
      name: c.team?.name,
      abbreviation: c.team?.abbreviation,
      displayName: c.team?.displayName,
      shortDisplayName: c.team?.shortDisplayName ?? c.team?.name,
      color: c.team?.color,
      alternateColor: c.team?.alternateColor,
      isActive: true,
      logo: c.team?.logo ?? c.team?.logos?.[0]?.href,
    },
    score: view.state === 'pre' ? '0' : String(score),
    linescores: ls.map((value, i) => ({ value, displayValue: String(value), period: i + 1 })),
  });
  const post = view.state === 'post';
  const competitorsOut = [
    side(home, view.homeScore, lines.home, post && view.homeScore > view.awayScore),
    side(away, view.awayScore, lines.away, post && view.awayScore > view.homeScore),
  ];
  const venue = final.gameInfo?.venue;
  const awayName = away.team?.displayName ?? 'Away';
  const homeName = home.team?.displayName ?? 'Home';
  const id = String(header.id ?? competition.id);
  return {
    id,
    uid: header.uid ?? competition.uid,
    date: competition.date,
    name: `${awayName} at ${homeName}`,
    shortName: `${away.team?.abbreviation ?? 'AWY'} @ ${home.team?.abbreviation ?? 'HOM'}`,
    season: {
      year: header.season?.year,
      type: header.season?.type,
      slug: header.season?.type === 3 ? 'post-season' : 'regular-season',
    },
    competitions: [
      {
        id,
        uid: competition.uid,
        date: competition.date,
        attendance: final.gameInfo?.attendance ?? 0,
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

export function buildScoreboard(league: League, games: readonly SimulatedGame[], now: number): Json {
  const events = games.filter((g) => g.league === league).map((g) => g.scoreboardEvent(now));
  const first = games.find((g) => g.league === league);
  const date = String(first?.final.header?.competitions?.[0]?.date ?? new Date(now).toISOString()).slice(
    0,
    10,
  );
  return {
    leagues: [leagueObject(league)],
    season: { type: first?.final.header?.season?.type ?? 2, year: first?.final.header?.season?.year },
    day: { date },
    events,
  };
}
