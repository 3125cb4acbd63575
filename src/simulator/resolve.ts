import type { League } from '../core/leagues.js';
import type { FixtureStore, Recording } from './fixture-store.js';
import { findAthlete, type RosterSpot } from './generated-team-payloads.js';
import { ATHLETE_GENERATORS, LEAGUE_GENERATORS, TEAM_GENERATORS } from './generated-payloads.js';
import type { RouteMatch } from './routes.js';
import { liveScoreboardText } from './scoreboard.js';
import type { SimulatedGame } from './simulated-game.js';
import { findTeam } from './team-catalog.js';
import type { EspnRules } from './types.js';
import { unknownAthlete, unknownEvent, unknownTeam, type UnknownIdAnswer } from './unknown-ids.js';

/** What answers a matched request: a status and its JSON text. */
export interface Resolved {
  readonly status: number;
  readonly text: string;
  /** `unknown-id`: an id the simulator has nothing for, answered with ESPN's error. */
  readonly source: 'game' | 'fixture' | 'generated' | 'unknown-id';
  /** The simulated game served, for summary requests of one. */
  readonly game?: SimulatedGame;
}

type Params = Readonly<Record<string, string>>;

/** Request parameters under their client names: path params, then the operation's query params. */
export function clientParams(match: RouteMatch, query: URLSearchParams): Record<string, string> {
  const params: Record<string, string> = { ...match.pathParams };
  for (const { name, upstream } of match.operation.queryParams) {
    const value = query.get(upstream);
    if (value !== null) params[name] = value;
  }
  return params;
}

export function findGame(
  games: readonly SimulatedGame[],
  league: League,
  id: string | undefined,
): SimulatedGame | undefined {
  return id === undefined ? undefined : games.find((g) => g.league === league && g.id === id);
}

const fromRecording = (store: FixtureStore, recording: Recording): Resolved => ({
  status: 200,
  text: store.text(recording),
  source: 'fixture',
});

const generated = (payload: unknown): Resolved => ({
  status: 200,
  text: JSON.stringify(payload),
  source: 'generated',
});

const refused = ({ status, body }: UnknownIdAnswer): Resolved => ({
  status,
  text: JSON.stringify(body),
  source: 'unknown-id',
});

/**
 * Answers a request as ESPN would from what the simulator has. An id-keyed request is answered for
 * that id or refused, never with another id's payload: a served game or the recording of that id
 * first, then (teams and athletes) a payload generated from the catalog, else ESPN's error for an
 * unknown id. Other requests get the recording of their date, the most faithful recording, or a
 * generated payload.
 */
export function resolve(
  match: RouteMatch,
  params: Params,
  store: FixtureStore,
  games: readonly SimulatedGame[],
  now: number,
  rules: EspnRules = '2026',
): Resolved {
  const { league, suffix } = match.operation;
  const recordingOf = (key: string | undefined): Recording | undefined =>
    key ? store.byKey(league, suffix, key) : undefined;

  if (suffix === 'summary') {
    const eventId = params.event_id ?? '';
    const game = findGame(games, league, eventId);
    if (game) return { status: 200, text: game.summaryText(now), source: 'game', game };
    const recording = recordingOf(eventId);
    return recording ? fromRecording(store, recording) : refused(unknownEvent(league, eventId));
  }

  /** An id-keyed request: the recording of that id, else a payload generated for what the id names. */
  const byId = <T>(
    id: string,
    found: T | undefined,
    generate: (found: T) => unknown,
    refusal: UnknownIdAnswer,
  ) => {
    const recording = recordingOf(id);
    if (recording) return fromRecording(store, recording);
    return found === undefined ? refused(refusal) : generated(generate(found));
  };
  const teamGenerator = TEAM_GENERATORS[suffix];
  const teamId = params.team_id;
  if (teamId !== undefined && teamGenerator) {
    return byId(
      teamId,
      findTeam(league, teamId),
      (team) => teamGenerator(league, team, params),
      unknownTeam(),
    );
  }
  const athleteGenerator = ATHLETE_GENERATORS[suffix];
  const athleteId = params.athlete_id;
  if (athleteId !== undefined && athleteGenerator) {
    const spot = findAthlete(league, athleteId);
    const generate = (found: RosterSpot) => athleteGenerator(league, found, params);
    return byId(athleteId, spot, generate, unknownAthlete(league, athleteId));
  }

  if (suffix === 'scoreboard' && games.some((g) => g.league === league)) {
    const text = liveScoreboardText(league, games, now, params.dates, rules, store, params.groups);
    if (text !== undefined) return { status: 200, text, source: 'game' };
  }
  // ESPN answers every date: without a recording of the one asked for, the most faithful recording stands in.
  const recording = recordingOf(params.dates?.slice(0, 8)) ?? store.byDefault(league, suffix);
  if (recording) return fromRecording(store, recording);
  const generator = LEAGUE_GENERATORS[suffix];
  return generated(generator ? generator(league, params) : {});
}
