import { LEAGUE_SEGMENT, type League } from '../core/leagues.js';

/**
 * What ESPN answers for an id it has nothing for. Its site API looks games and athletes up in its
 * core API and passes a miss on as a 404 whose message quotes the internal address it asked; an
 * unknown team is a 400 with a fixed message. The simulator answers the same way for every id it has
 * neither a game, a recording nor a catalog entry for, so a made-up id fails as it would on ESPN
 * instead of getting a made-up payload that looks real.
 */
export interface UnknownIdAnswer {
  readonly status: number;
  readonly body: { readonly code: number; readonly message: string };
}

// ESPN's internal core API, as its error messages name it; it cannot be reached from outside.
const CORE_API = 'http://sports.core.api.espn.pvt/v2/sports/basketball/leagues';

function coreMiss(path: string): UnknownIdAnswer {
  return { status: 404, body: { code: 404, message: `Error invoking GET: ${CORE_API}/${path}, status=404` } };
}

/** A summary of an event that does not exist; a request without an event id gets the same. */
export function unknownEvent(league: League, eventId: string): UnknownIdAnswer {
  const event = `${LEAGUE_SEGMENT[league]}/events/${eventId}`;
  return coreMiss(`${event}/competitions/${eventId}/status`);
}

/** Any team operation for a team id (or abbreviation) the league does not have. */
export function unknownTeam(): UnknownIdAnswer {
  return { status: 400, body: { code: 400, message: 'Failed to get league teams summary' } };
}

/** Any athlete operation for an athlete id the league does not have. */
export function unknownAthlete(league: League, athleteId: string): UnknownIdAnswer {
  return coreMiss(`${LEAGUE_SEGMENT[league]}/athletes/${athleteId}`);
}
