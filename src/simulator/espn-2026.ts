import type { FixtureStore } from './fixture-store.js';
import { datedScoreboard } from './dated-boards.js';
import type { Resolved } from './resolve.js';
import type { RouteMatch } from './routes.js';
import type { SimulatedGame } from './simulated-game.js';

/**
 * ESPN's request-level behaviour as measured in 2026, where it differs from before (docs/upstream.md):
 * date ranges refused, a `limit` above 500 cut to 25 events, `/calendar` and `/athletes/{id}`
 * answering 404, a team's injuries answering an empty body, and past dates answered day by day.
 * Applied only under the `2026` rules; `legacy` skips this module.
 */

type Params = Readonly<Record<string, string>>;

// Above this `limit`, ESPN (measured 2026-08-28) answers exactly LIMIT_FALLBACK events.
const MAX_LIMIT = 500;
const LIMIT_FALLBACK = 25;

const json = (status: number, body: unknown): Resolved => ({
  status,
  text: JSON.stringify(body),
  source: 'generated',
});

/** An answer given before the usual resolution, or undefined to resolve as usual. */
export function answerBefore(
  match: RouteMatch,
  params: Params,
  store: FixtureStore,
  games: readonly SimulatedGame[],
): Resolved | undefined {
  const { league, suffix } = match.operation;
  if (suffix === 'scoreboard' && params.dates !== undefined) {
    // Since 2026-09-15, even a one-day range.
    if (params.dates.includes('-')) return json(400, { message: 'Failed to get events endpoint.' });
    // The live games' board belongs to the simulated games; past dates are answered here.
    if (!games.some((g) => g.league === league)) {
      const text = datedScoreboard(league, params.dates, store);
      if (text !== undefined) return { status: 200, text, source: 'generated' };
    }
  }
  if (suffix === 'calendar' || suffix === 'player_info') {
    return json(404, { code: 404, message: 'Not Found' });
  }
  return undefined;
}

/** The usual answer, changed as ESPN changes it now. */
export function answerAfter(match: RouteMatch, params: Params, resolved: Resolved): Resolved {
  if (resolved.status !== 200) return resolved;
  const { suffix } = match.operation;
  if (suffix === 'team_injuries') return { ...resolved, text: '' };
  if (suffix === 'scoreboard' && params.limit !== undefined && /^[0-9]+$/.test(params.limit)) {
    const limit = Number(params.limit);
    const keep = limit > MAX_LIMIT ? LIMIT_FALLBACK : limit;
    const payload = JSON.parse(resolved.text) as { events?: unknown[] };
    if (Array.isArray(payload.events) && payload.events.length > keep) {
      return { ...resolved, text: JSON.stringify({ ...payload, events: payload.events.slice(0, keep) }) };
    }
  }
  return resolved;
}
