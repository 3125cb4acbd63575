import { InvalidParamsError, UnknownOperationError, type OperationSuggestion } from '../core/errors.js';
import { LEAGUE_SEGMENT, LEAGUES, type League } from '../core/leagues.js';
import { PARAM_RULES, validateParam, type ParamName } from './params.js';
import { closest } from '../core/suggest.js';

/**
 * The operation registry: the 24 suffixes of ESPN's basketball endpoints, expanded to the 44
 * operations (`mens_<suffix>`, `womens_<suffix>`; the women's league has no athlete operations
 * and no standings). Everything that routes, validates, documents or caches reads this table.
 */

/** The tabular result of each suffix; the tables module maps these to parsers. */
export type ResultKind =
  | 'scoreboard'
  | 'summary'
  | 'news'
  | 'injuries'
  | 'teams'
  | 'roster'
  | 'schedule'
  | 'standings'
  | 'generic_items'
  | 'generic_groups'
  | 'single_entity';

export interface QueryParamSpec {
  /** Name on the client side (options object, HTTP API query, CLI flag with `-` for `_`). */
  readonly name: ParamName;
  /** Name sent upstream. */
  readonly upstream: string;
  /** Without it the upstream answers nothing useful, so a call without it is refused. */
  readonly required?: boolean;
}

/**
 * What a call does when the upstream has nothing: a 404, or a success with an empty body
 * (docs/operations.md, "When ESPN answers nothing"; docs/upstream.md).
 * - `not-found`: the call fails with `UPSTREAM_NOT_FOUND`, naming the address.
 * - `empty-list`: an empty body is an empty list (an empty payload `{}`, zero rows) with a notice
 *   saying so; a 404 still fails with `UPSTREAM_NOT_FOUND` (the id is unknown).
 * - `scoreboard-calendar`: the calendar is answered from the default scoreboard's
 *   `leagues[0].calendar`, the same list of dates, with a notice naming the source.
 */
export type WhenMissing = 'not-found' | 'empty-list' | 'scoreboard-calendar';

/** Suffixes offered in both leagues. */
export type SharedSuffix =
  | 'scoreboard'
  | 'summary'
  | 'calendar'
  | 'news'
  | 'injuries'
  | 'transactions'
  | 'conferences'
  | 'statistics_league'
  | 'draft'
  | 'teams_site'
  | 'team'
  | 'team_roster'
  | 'team_schedule'
  | 'team_record'
  | 'team_depthcharts'
  | 'team_injuries'
  | 'team_transactions'
  | 'team_history'
  | 'team_news'
  | 'team_leaders';
/** Suffixes ESPN serves for the men's league only (athletes and standings). */
export type MensOnlySuffix = 'player_info' | 'player_bio' | 'player_news' | 'standings';
export type Suffix = SharedSuffix | MensOnlySuffix;

/** The 44 operation names, as a type: the client's method names. */
export type OperationName = `mens_${Suffix}` | `womens_${SharedSuffix}`;

export interface SuffixSpec {
  readonly suffix: Suffix;
  readonly leagues: readonly League[];
  /** Path after the base URL, with `{league}` and `{team_id}` / `{athlete_id}` placeholders. */
  readonly path: string;
  readonly pathParams: readonly ParamName[];
  readonly queryParams: readonly QueryParamSpec[];
  readonly result: ResultKind;
  /** How long a response stays fresh in the client cache; why: live data changes every few seconds, reference data hourly. */
  readonly ttlMs: number;
  readonly whenMissing: WhenMissing;
}

export interface OperationSpec extends SuffixSpec {
  readonly name: OperationName;
  readonly league: League;
  /** All client parameter names: path first, then query. */
  readonly params: readonly ParamName[];
}

const SITE = '/apis/site/v2/sports/basketball/{league}';
const BOTH: readonly League[] = LEAGUES;
const MENS: readonly League[] = ['mens'];
const q = (name: ParamName, upstream: string = name): QueryParamSpec => ({ name, upstream });
const required = (name: ParamName, upstream: string = name): QueryParamSpec => ({
  name,
  upstream,
  required: true,
});

// Lists where "nothing" is a true answer (no injuries, no transactions, no news): an empty body
// is read as an empty list. Everything else that answers nothing is an error saying so.
const EMPTY_LIST_SUFFIXES: ReadonlySet<Suffix> = new Set<Suffix>([
  'injuries',
  'transactions',
  'news',
  'team_injuries',
  'team_transactions',
  'team_news',
  'team_leaders',
  'player_news',
]);

function whenMissingOf(name: Suffix): WhenMissing {
  if (name === 'calendar') return 'scoreboard-calendar';
  return EMPTY_LIST_SUFFIXES.has(name) ? 'empty-list' : 'not-found';
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
// Live endpoints: a little under the fastest poll interval, so concurrent readers share one call.
const LIVE_TTL = 2 * SECOND;
const SCOREBOARD_TTL = 5 * SECOND;
const NEWS_TTL = 5 * MINUTE;
const REFERENCE_TTL = HOUR;

export const SUFFIXES: readonly SuffixSpec[] = [
  suffix(
    'scoreboard',
    BOTH,
    '/scoreboard',
    [q('dates'), q('week'), q('season_type', 'seasontype'), q('groups'), q('limit')],
    'scoreboard',
    SCOREBOARD_TTL,
  ),
  suffix('summary', BOTH, '/summary', [required('event_id', 'event')], 'summary', LIVE_TTL),
  suffix('calendar', BOTH, '/calendar', [], 'generic_items', REFERENCE_TTL),
  suffix('news', BOTH, '/news', [q('limit')], 'news', NEWS_TTL),
  suffix('injuries', BOTH, '/injuries', [], 'injuries', NEWS_TTL),
  suffix('transactions', BOTH, '/transactions', [], 'generic_items', NEWS_TTL),
  suffix('conferences', BOTH, '/groups', [], 'generic_groups', REFERENCE_TTL),
  suffix('statistics_league', BOTH, '/statistics', [], 'generic_items', REFERENCE_TTL),
  suffix('draft', BOTH, '/draft', [], 'generic_items', REFERENCE_TTL),
  suffix('teams_site', BOTH, '/teams', [q('limit')], 'teams', REFERENCE_TTL),
  suffix('team', BOTH, '/teams/{team_id}', [], 'single_entity', REFERENCE_TTL),
  suffix('team_roster', BOTH, '/teams/{team_id}/roster', [], 'roster', REFERENCE_TTL),
  suffix('team_schedule', BOTH, '/teams/{team_id}/schedule', [q('season')], 'schedule', REFERENCE_TTL),
  suffix('team_record', BOTH, '/teams/{team_id}/record', [], 'generic_items', REFERENCE_TTL),
  suffix('team_depthcharts', BOTH, '/teams/{team_id}/depthcharts', [], 'generic_items', REFERENCE_TTL),
  suffix('team_injuries', BOTH, '/teams/{team_id}/injuries', [], 'injuries', NEWS_TTL),
  suffix('team_transactions', BOTH, '/teams/{team_id}/transactions', [], 'generic_items', NEWS_TTL),
  suffix('team_history', BOTH, '/teams/{team_id}/history', [], 'generic_items', REFERENCE_TTL),
  suffix('team_news', BOTH, '/teams/{team_id}/news', [q('limit')], 'news', NEWS_TTL),
  suffix('team_leaders', BOTH, '/teams/{team_id}/leaders', [], 'generic_items', REFERENCE_TTL),
  suffix('player_info', MENS, '/athletes/{athlete_id}', [], 'single_entity', REFERENCE_TTL),
  suffix('player_bio', MENS, '/athletes/{athlete_id}/bio', [], 'single_entity', REFERENCE_TTL),
  suffix('player_news', MENS, '/athletes/{athlete_id}/news', [], 'news', NEWS_TTL),
  {
    suffix: 'standings',
    leagues: MENS,
    // The one operation outside the `site` tree (spec, "Path layout").
    path: '/apis/v2/sports/basketball/{league}/standings',
    pathParams: [],
    queryParams: [q('season'), q('group'), q('standings_type', 'type')],
    result: 'standings',
    ttlMs: REFERENCE_TTL,
    whenMissing: 'not-found',
  },
];

/** A suffix under the site tree; its path parameters are the placeholders of its path, in order. */
function suffix(
  name: Suffix,
  leagues: readonly League[],
  tail: string,
  queryParams: readonly QueryParamSpec[],
  result: ResultKind,
  ttlMs: number,
): SuffixSpec {
  const path = `${SITE}${tail}`;
  return {
    suffix: name,
    leagues,
    path,
    pathParams: placeholders(path),
    queryParams,
    result,
    ttlMs,
    whenMissing: whenMissingOf(name),
  };
}

function placeholders(path: string): ParamName[] {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).filter((n) => n !== 'league');
  for (const name of names) {
    // A programming error in the table above, caught when the module loads.
    if (!Object.hasOwn(PARAM_RULES, name)) throw new Error(`operations: unknown path parameter {${name}}`);
  }
  return names as ParamName[];
}

export const OPERATIONS: ReadonlyMap<string, OperationSpec> = new Map(
  SUFFIXES.flatMap((s) =>
    s.leagues.map((league): [string, OperationSpec] => {
      // The leagues lists above keep men's-only suffixes out of the women's names; the
      // registry test checks the 44 names against ESPN's endpoint list.
      const name = `${league}_${s.suffix}` as OperationName;
      const params = [...s.pathParams, ...s.queryParams.map((p) => p.name)];
      return [name, { ...s, name, league, params }];
    }),
  ),
);

export const OPERATION_NAMES: readonly OperationName[] = [...OPERATIONS.keys()] as OperationName[];

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && OPERATIONS.has(name);
}

export function getOperation(name: string): OperationSpec {
  const op = typeof name === 'string' ? OPERATIONS.get(name) : undefined;
  if (!op)
    throw new UnknownOperationError(name, typeof name === 'string' ? suggestOperation(name) : undefined);
  return op;
}

// The names people know the leagues by; the operations are named for ESPN's league slugs.
const LEAGUE_ALIASES: Readonly<Record<string, string>> = { nba: 'mens', wnba: 'womens' };

/**
 * The operation an unknown name was probably meant to be, with why when it is not a plain typo:
 * `nba_scoreboard` gets `mens_scoreboard`, "NBA is mens, WNBA is womens". A name that gives a
 * league is matched within that league only: the other league's operation is not what was meant.
 */
export function suggestOperation(name: string): OperationSuggestion | undefined {
  const prefixed = /^(w?nba|(?:wo)?mens)_(.*)$/i.exec(name);
  if (!prefixed) {
    // A name without its league (`scoreboard`): the operations of both leagues.
    const both = OPERATION_NAMES.filter((n) => n.endsWith(`_${name}`));
    const meant = both.length > 0 ? both.join(' or ') : closest(name, OPERATION_NAMES);
    return meant ? { name: meant } : undefined;
  }
  const typed = prefixed[1]!.toLowerCase();
  const league = LEAGUE_ALIASES[typed] ?? typed;
  const meant = closest(
    `${league}_${prefixed[2]}`,
    OPERATION_NAMES.filter((n) => n.startsWith(`${league}_`)),
  );
  if (!meant) return undefined;
  return league === typed ? { name: meant } : { name: meant, note: 'NBA is mens, WNBA is womens' };
}

/** A validated request: the relative path with query string, ready to append to a base URL. */
export interface BuiltRequest {
  readonly operation: OperationSpec;
  /** Path and query, e.g. `/apis/site/v2/sports/basketball/nba/summary?event=401585607`. */
  readonly pathAndQuery: string;
}

/**
 * Validates `params` for `operation` and builds the upstream path. Throws `InvalidParamsError`
 * for an unknown, missing (path) or malformed parameter; nothing is sent by this function.
 */
export function buildRequest(
  operationName: string,
  params: Readonly<Record<string, unknown>> = {},
): BuiltRequest {
  const operation = getOperation(operationName);
  if (params === null || typeof params !== 'object') {
    throw new InvalidParamsError('params', params, 'an object of parameters', operation.name);
  }
  for (const key of Object.keys(params)) {
    if (!(operation.params as readonly string[]).includes(key)) {
      const allowed = operation.params.length ? operation.params.join(', ') : 'no parameters';
      throw new InvalidParamsError(
        key,
        params[key],
        `one of: ${allowed} (unknown parameter)`,
        operation.name,
      );
    }
  }
  let path = operation.path.replace('{league}', LEAGUE_SEGMENT[operation.league]);
  for (const name of operation.pathParams) {
    const value = params[name];
    if (value === undefined || value === null || value === '') {
      throw new InvalidParamsError(name, value, `${PARAM_RULES[name].expected} (required)`, operation.name);
    }
    path = path.replace(`{${name}}`, encodeURIComponent(validateParam(name, value, operation.name)));
  }
  const query = new URLSearchParams();
  for (const { name, upstream, required: needed } of operation.queryParams) {
    const value = params[name];
    if (needed && (value === undefined || value === null || value === '')) {
      throw new InvalidParamsError(name, value, `${PARAM_RULES[name].expected} (required)`, operation.name);
    }
    if (value === undefined || value === null) continue;
    query.append(upstream, validateParam(name, value, operation.name));
  }
  const qs = query.toString();
  return { operation, pathAndQuery: qs ? `${path}?${qs}` : path };
}
