import { LEAGUE_SEGMENT, isCollege, type League } from '../core/leagues.js';
import { conferenceOf, pollRank } from './generated-college-payloads.js';
import { periodFormat } from '../core/periods.js';
import { rosterFor } from './athletes.js';
import { createRandom, hashString, randomInt } from './random.js';
import { leagueIdentity } from './generated-common.js';
import { LEAGUE_UID, TEAMS, displayName, teamObject, type CatalogTeam } from './team-catalog.js';
import { OVERTIME_SECONDS, PERIOD_SECONDS, simulatePlays, type SimulatedPlays } from './synthetic-plays.js';
import { boxscore, leaders } from './synthetic-boxscore.js';
import type { FinishedSummary, JsonObject } from './espn-shapes.js';
import { statusObject } from './game-status.js';
import { tournamentGame } from './tournament-games.js';
import { SYNTHETIC_ID_PREFIX } from './synthetic-ids.js';

/**
 * Synthetic finished games: a summary payload of the recorded shape (header, box score,
 * plays, win probability, leaders, game info, format), deterministic for (league, id, seed).
 */

type Json = JsonObject;

// Tip-off dates are fixed (a January evening for the men, a June one for the women, January
// afternoons for college) so that a seed
// gives the same payload on any day.
const BASE_TIPOFF: Readonly<Record<League, number>> = {
  mens: Date.UTC(2025, 0, 15, 0, 10),
  womens: Date.UTC(2025, 5, 15, 23, 10),
  'mens-college': Date.UTC(2025, 0, 18, 17, 0),
  'womens-college': Date.UTC(2025, 0, 19, 18, 0),
};
// Consecutive synthetic games tip off a few minutes apart, like an evening slate.
const TIPOFF_GAP_MS = 5 * 60_000;

const isoMinute = (ms: number): string => new Date(ms).toISOString().slice(0, 16) + 'Z';
const isoSecond = (ms: number): string => new Date(ms).toISOString().replace('.000', '');

/**
 * A college team's conference in the header's `team.groups`, as ESPN's college summaries carry it
 * (the conference's group id, Division I its parent); nothing for a pro team or an unknown one.
 */
function collegeGroups(league: League, team: CatalogTeam): Json {
  const conference = isCollege(league) ? conferenceOf(team) : undefined;
  if (!conference) return {};
  return {
    groups: {
      id: conference.id,
      parent: { id: '50', name: 'NCAA Division I', slug: 'ncaa-division-i' },
      isConference: true,
    },
  };
}

/** The header competitor's `rank`, only for a ranked team: its place in the simulator's AP poll. */
function collegeRank(league: League, team: CatalogTeam): Json {
  const rank = isCollege(league) ? pollRank(league, team) : null;
  return rank === null ? {} : { rank };
}

/**
 * The teams of a game. A college game given its `slot` (its place among the league's games of a
 * slate) takes the slot's pair of a seeded shuffle of the league's teams, so that a slate of up to
 * half the league's teams plays each at most once; otherwise a random pair.
 */
function pairTeams(
  league: League,
  random: () => number,
  seed: number,
  slot: number | undefined,
): [number, number] {
  const n = TEAMS[league].length;
  if (slot === undefined || !isCollege(league)) {
    const h = randomInt(random, 0, n - 1);
    return [h, (h + randomInt(random, 1, n - 1)) % n];
  }
  // The real teams are shuffled first and the synthetic ones after them, so a small slate plays
  // the main conferences' teams (and their ranked ones), as the televised games of a day do.
  const shuffle = createRandom(hashString(`${league}/slate/${seed}`));
  const real = TEAMS[league].filter((t) => !t.id.startsWith(SYNTHETIC_ID_PREFIX)).length;
  const order = [...shuffled(shuffle, 0, real), ...shuffled(shuffle, real, n)];
  const k = (2 * slot) % (n - (n % 2));
  return [order[k] as number, order[k + 1] as number];
}

/** The integers `from` … `to - 1` in a seeded random order. */
function shuffled(random: () => number, from: number, to: number): number[] {
  const out = Array.from({ length: to - from }, (_, i) => from + i);
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(random, 0, i);
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}

export function generateFinishedSummary(
  league: League,
  id: string,
  options: { seed?: number; index?: number; slot?: number } = {},
): FinishedSummary {
  const seed = options.seed ?? 0;
  const index = options.index ?? 0;
  const random = createRandom(hashString(`${league}/${id}/${seed}`));
  const teams = TEAMS[league];
  const [h, a] = pairTeams(league, random, seed, options.slot);
  const homeTeam = teams[h] as CatalogTeam;
  const awayTeam = teams[a] as CatalogTeam;
  const home = { id: homeTeam.id, name: homeTeam.name, roster: rosterFor(league, homeTeam) };
  const away = { id: awayTeam.id, name: awayTeam.name, roster: rosterFor(league, awayTeam) };
  const scheduled = BASE_TIPOFF[league] + index * TIPOFF_GAP_MS;
  // Tip-off follows the scheduled time by ten minutes or so, as on ESPN.
  const sim = simulatePlays(league, id, home, away, scheduled + randomInt(random, 8, 13) * 60_000, random);
  const game: SyntheticGame = {
    league,
    id,
    sim,
    teams: [homeTeam, awayTeam],
    scheduled,
    tournament: options.slot === undefined ? undefined : tournamentGame(league, options.slot),
  };
  return {
    boxscore: boxscore(league, sim, game.teams),
    format: gameFormat(league),
    gameInfo: gameInfo(homeTeam, random),
    leaders: leaders(league, sim, game.teams),
    seasonseries: [],
    injuries: [],
    broadcasts: [],
    pickcenter: [],
    odds: [],
    againstTheSpread: [],
    header: summaryHeader(game),
    news: { header: `${LEAGUE_SEGMENT[league].toUpperCase()} News`, articles: [] },
    plays: sim.plays,
    article: recap(game),
    videos: [],
    wallclockAvailable: true,
    meta: {
      gameState: 'post',
      firstPlayWallClock: isoSecond(sim.firstWallclock),
      lastPlayWallClock: isoSecond(sim.lastWallclock),
    },
    winprobability: sim.winprobability,
    standings: { header: 'Standings', groups: [] },
  };
}

/** A game once played: what its summary's parts are written from. */
interface SyntheticGame {
  readonly league: League;
  readonly id: string;
  readonly sim: SimulatedPlays;
  /** Home, away. */
  readonly teams: readonly [CatalogTeam, CatalogTeam];
  /** The scheduled tip-off (ms). */
  readonly scheduled: number;
  /** The tournament round the game belongs to, when it is one. */
  readonly tournament: ReturnType<typeof tournamentGame>;
}

function gameFormat(league: League): Json {
  return {
    regulation: {
      periods: periodFormat(league).regulation,
      displayName: periodFormat(league).unit,
      slug: periodFormat(league).unit.toLowerCase(),
      clock: PERIOD_SECONDS[league],
    },
    overtime: { displayName: 'Overtime', slug: 'overtime', clock: OVERTIME_SECONDS },
  };
}

/** The venue (the home team's arena), the crowd and the officials. */
function gameInfo(homeTeam: CatalogTeam, random: () => number): Json {
  return {
    venue: {
      id: String(3000 + (Number(homeTeam.id) % 1000)),
      guid: `sim-venue-${homeTeam.id}`,
      fullName: `${homeTeam.location} Arena`,
      shortName: `${homeTeam.location} Arena`,
      address: { city: homeTeam.location, state: '' },
      grass: false,
      images: [],
    },
    attendance: randomInt(random, 9_000, 20_000),
    officials: ['Alex Morgan', 'Sam Rivera', 'Jordan Lee'].map((name, i) => ({
      fullName: name,
      displayName: name,
      position: { name: 'Referee', displayName: 'Referee', id: '40' },
      order: i + 1,
    })),
  };
}

/** The summary's header: season, the competition with both sides' final scores, the league. */
function summaryHeader(game: SyntheticGame): Json {
  const { league, id, tournament, scheduled } = game;
  const [homeTeam, awayTeam] = game.teams;
  const uid = `${LEAGUE_UID[league]}~e:${id}`;
  const finalStatus = statusObject({
    state: 'post',
    period: game.sim.periods,
    displayClock: '0.0',
    endOfPeriod: false,
    league,
  });
  return {
    id,
    uid,
    season: { year: new Date(scheduled).getUTCFullYear(), current: false, type: tournament ? 3 : 2 },
    ...(tournament ? { gameNote: tournament.gameNote } : {}),
    timeValid: true,
    competitions: [
      {
        id,
        uid: `${uid}~c:${id}`,
        date: isoMinute(scheduled),
        ...(tournament ? { tournamentId: tournament.tournamentId } : {}),
        neutralSite: tournament !== undefined,
        conferenceCompetition: false,
        boxscoreAvailable: true,
        commentaryAvailable: false,
        liveAvailable: false,
        shotChartAvailable: true,
        timeoutsAvailable: true,
        possessionArrowAvailable: false,
        onWatchESPN: false,
        recent: false,
        wallclockAvailable: true,
        boxscoreSource: 'full',
        playByPlaySource: 'full',
        competitors: [competitor(game, homeTeam, 'home'), competitor(game, awayTeam, 'away')],
        status: { type: finalStatus.type },
        broadcasts: [],
        boxscoreMinutes: true,
      },
    ],
    links: [],
    league: { ...leagueIdentity(league), isTournament: false, links: [] },
  };
}

function competitor(game: SyntheticGame, team: CatalogTeam, side: 'home' | 'away'): Json {
  const { league, sim } = game;
  const score = side === 'home' ? sim.homeScore : sim.awayScore;
  const won = side === 'home' ? sim.homeScore > sim.awayScore : sim.awayScore > sim.homeScore;
  return {
    id: team.id,
    uid: `${LEAGUE_UID[league]}~t:${team.id}`,
    order: side === 'home' ? 0 : 1,
    homeAway: side,
    winner: won,
    team: { ...teamObject(league, team), ...collegeGroups(league, team) },
    ...collegeRank(league, team),
    score: String(score),
    linescores: sim.linescores[side].map((n) => ({ displayValue: String(n) })),
    record: [{ type: 'total', summary: '20-20', displayValue: '20-20' }],
    possession: false,
  };
}

/** The recap article, published twenty minutes after the last play. */
function recap(game: SyntheticGame): Json {
  const { sim, id } = game;
  const [homeTeam, awayTeam] = game.teams;
  const winner = sim.homeScore > sim.awayScore ? homeTeam : awayTeam;
  return {
    id: 30_000_000 + (hashString(id) % 1_000_000),
    type: 'Recap',
    gameId: id,
    headline: `${displayName(winner)} win ${Math.max(sim.homeScore, sim.awayScore)}-${Math.min(sim.homeScore, sim.awayScore)}`,
    description: 'A simulated game.',
    published: isoSecond(sim.lastWallclock + 20 * 60_000),
  };
}
