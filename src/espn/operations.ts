import { InvalidParamsError, UnknownOperationError, type OperationSuggestion } from '../core/errors.js';
import { DEFAULT_LEAGUES, LEAGUE_INFO, LEAGUE_SEGMENT, LEAGUES, type League } from '../core/leagues.js';
import { PARAM_RULES, validateParam, type ParamName } from './params.js';
import { closest } from '../core/suggest.js';

/**
 * The operation registry: the suffixes of ESPN's basketball endpoints, expanded to one operation
 * per league that ESPN serves them for (`mens_<suffix>`, `womens_<suffix>`,
 * `mens_college_<suffix>`, `womens_college_<suffix>`; docs/operations.md says which exist where,
 * and why). Everything that routes, validates, documents or caches reads this table.
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
  | 'single_entity'
  | 'rankings';

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

/** Suffixes offered in both professional leagues. */
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
/**
 * Suffixes ESPN serves for the two college leagues: the pro suffixes with college payloads or
 * public college clients behind them, and the polls (docs/operations.md, "College leagues").
 */
export type CollegeSuffix =
  | 'scoreboard'
  | 'summary'
  | 'calendar'
  | 'news'
  | 'injuries'
  | 'conferences'
  | 'teams_site'
  | 'team'
  | 'team_roster'
  | 'team_schedule'
  | 'team_news'
  | 'standings'
  | 'rankings';
export type Suffix = SharedSuffix | MensOnlySuffix | CollegeSuffix;

/** Every operation name, as a type: the client's method names. */
export type OperationName =
  | `mens_${SharedSuffix | MensOnlySuffix}`
  | `womens_${SharedSuffix}`
  | `mens_college_${CollegeSuffix}`
  | `womens_college_${CollegeSuffix}`;

/** The name of a league's operation: `mens_college` and `scoreboard` make `mens_college_scoreboard`. */
export function operationName(league: League, suffix: Suffix): OperationName {
  return `${LEAGUE_INFO[league].prefix}_${suffix}` as OperationName;
}

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
  /** Query parameters sent when the call gives none (the college team list's `limit`). */
  readonly defaults: Readonly<Partial<Record<ParamName, string>>>;
}

// ESPN's college team list answers 50 teams by default; Division I has ~360 men's and as many
// women's teams, and 500 is the largest limit ESPN honours.
const COLLEGE_TEAMS_LIMIT = '500';

function defaultsOf(league: League, suffix: Suffix): Readonly<Partial<Record<ParamName, string>>> {
  return LEAGUE_INFO[league].college && suffix === 'teams_site' ? { limit: COLLEGE_TEAMS_LIMIT } : {};
}

const SITE = '/apis/site/v2/sports/basketball/{league}';
const PRO: readonly League[] = DEFAULT_LEAGUES;
const MENS: readonly League[] = ['mens'];
const COLLEGE: readonly League[] = LEAGUES.filter((league) => LEAGUE_INFO[league].college);
const ALL: readonly League[] = LEAGUES;
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
    ALL,
    '/scoreboard',
    [q('dates'), q('week'), q('season_type', 'seasontype'), q('groups'), q('limit')],
    'scoreboard',
    SCOREBOARD_TTL,
  ),
  suffix('summary', ALL, '/summary', [required('event_id', 'event')], 'summary', LIVE_TTL),
  suffix('calendar', ALL, '/calendar', [], 'generic_items', REFERENCE_TTL),
  suffix('news', ALL, '/news', [q('limit')], 'news', NEWS_TTL),
  suffix('injuries', ALL, '/injuries', [], 'injuries', NEWS_TTL),
  suffix('transactions', PRO, '/transactions', [], 'generic_items', NEWS_TTL),
  suffix('conferences', ALL, '/groups', [], 'generic_groups', REFERENCE_TTL),
  suffix('statistics_league', PRO, '/statistics', [], 'generic_items', REFERENCE_TTL),
  suffix('draft', PRO, '/draft', [], 'generic_items', REFERENCE_TTL),
  suffix('teams_site', ALL, '/teams', [q('limit')], 'teams', REFERENCE_TTL),
  suffix('team', ALL, '/teams/{team_id}', [], 'single_entity', REFERENCE_TTL),
  suffix('team_roster', ALL, '/teams/{team_id}/roster', [], 'roster', REFERENCE_TTL),
  suffix('team_schedule', ALL, '/teams/{team_id}/schedule', [q('season')], 'schedule', REFERENCE_TTL),
  suffix('team_record', PRO, '/teams/{team_id}/record', [], 'generic_items', REFERENCE_TTL),
  suffix('team_depthcharts', PRO, '/teams/{team_id}/depthcharts', [], 'generic_items', REFERENCE_TTL),
  suffix('team_injuries', PRO, '/teams/{team_id}/injuries', [], 'injuries', NEWS_TTL),
  suffix('team_transactions', PRO, '/teams/{team_id}/transactions', [], 'generic_items', NEWS_TTL),
  suffix('team_history', PRO, '/teams/{team_id}/history', [], 'generic_items', REFERENCE_TTL),
  suffix('team_news', ALL, '/teams/{team_id}/news', [q('limit')], 'news', NEWS_TTL),
  suffix('team_leaders', PRO, '/teams/{team_id}/leaders', [], 'generic_items', REFERENCE_TTL),
  // The AP and coaches' polls: one document of every poll of the current week.
  suffix('rankings', COLLEGE, '/rankings', [], 'rankings', REFERENCE_TTL),
  suffix('player_info', MENS, '/athletes/{athlete_id}', [], 'single_entity', REFERENCE_TTL),
  suffix('player_bio', MENS, '/athletes/{athlete_id}/bio', [], 'single_entity', REFERENCE_TTL),
  suffix('player_news', MENS, '/athletes/{athlete_id}/news', [], 'news', NEWS_TTL),
  {
    suffix: 'standings',
    leagues: [...MENS, ...COLLEGE],
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
      const name = operationName(league, s.suffix);
      const params = [...s.pathParams, ...s.queryParams.map((p) => p.name)];
      return [name, { ...s, name, league, params, defaults: defaultsOf(league, s.suffix) }];
    }),
  ),
);

export const OPERATION_NAMES: readonly OperationName[] = [...OPERATIONS.keys()] as OperationName[];

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && OPERATIONS.has(name);
}

export function getOperation(name: string): OperationSpec {
  const op = typeof name === 'string' ? OPERATIONS.get(name) : undefined;
  if (!op) throw unknownOperation(name);
  return op;
}

/** The error for a name that is no operation: with what was probably meant, or where it exists. */
export function unknownOperation(name: string): UnknownOperationError {
  if (typeof name !== 'string') return new UnknownOperationError(name);
  // A real suffix the league lacks: where it exists is the answer, not the nearest spelling.
  const offered = offeredElsewhere(name);
  return new UnknownOperationError(name, offered.length ? undefined : suggestOperation(name), offered);
}

/**
 * The operations of a suffix that the named league lacks, in the leagues that have it:
 * `womens_player_info` gives `mens_player_info`, `mens_college_draft` gives `mens_draft` and
 * `womens_draft`. Empty when the name has no league prefix or no such suffix exists.
 */
export function offeredElsewhere(name: string): string[] {
  for (const league of [...LEAGUES].sort(
    (a, b) => LEAGUE_INFO[b].prefix.length - LEAGUE_INFO[a].prefix.length,
  )) {
    const prefix = `${LEAGUE_INFO[league].prefix}_`;
    if (!name.startsWith(prefix)) continue;
    const suffix = name.slice(prefix.length);
    return OPERATION_NAMES.filter((n) => OPERATIONS.get(n)?.suffix === suffix);
  }
  return [];
}

// The names people know the leagues by; the operations are named for ESPN's league slugs.
const LEAGUE_ALIASES: Readonly<Record<string, League>> = {
  nba: 'mens',
  wnba: 'womens',
  ncaam: 'mens-college',
  ncaaw: 'womens-college',
};
const ALIAS_NOTE: Readonly<Record<League, string>> = {
  mens: 'NBA is mens, WNBA is womens',
  womens: 'NBA is mens, WNBA is womens',
  'mens-college': 'NCAAM is mens_college, NCAAW is womens_college',
  'womens-college': 'NCAAM is mens_college, NCAAW is womens_college',
};

/** The league a typed prefix names: an operation prefix, a league name or an alias. */
function leagueOfPrefix(typed: string): League | undefined {
  const lower = typed.toLowerCase();
  return (
    LEAGUE_ALIASES[lower] ??
    LEAGUES.find((league) => LEAGUE_INFO[league].prefix === lower || league === lower)
  );
}

/**
 * The operation an unknown name was probably meant to be, with why when it is not a plain typo:
 * `nba_scoreboard` gets `mens_scoreboard`, "NBA is mens, …". A name that gives a league is
 * matched within that league only: the other league's operation is not what was meant.
 */
export function suggestOperation(name: string): OperationSuggestion | undefined {
  const prefixed = /^(w?nba|ncaa[mw]|(?:wo)?mens(?:[_-]college)?)_(.*)$/i.exec(name);
  const league = prefixed ? leagueOfPrefix(prefixed[1]!) : undefined;
  if (!prefixed || !league) {
    // A name without its league (`scoreboard`): the operations of every league.
    const all = OPERATION_NAMES.filter((n) => OPERATIONS.get(n)?.suffix === name);
    const meant = all.length > 0 ? all.join(' or ') : closest(name, OPERATION_NAMES);
    return meant ? { name: meant } : undefined;
  }
  const meant = closest(
    operationName(league, prefixed[2]! as Suffix),
    OPERATION_NAMES.filter((n) => OPERATIONS.get(n)?.league === league),
  );
  if (!meant) return undefined;
  const typed = prefixed[1]!.toLowerCase();
  return typed === LEAGUE_INFO[league].prefix ? { name: meant } : { name: meant, note: ALIAS_NOTE[league] };
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
    const value = params[name] ?? operation.defaults[name];
    if (needed && (value === undefined || value === null || value === '')) {
      throw new InvalidParamsError(name, value, `${PARAM_RULES[name].expected} (required)`, operation.name);
    }
    if (value === undefined || value === null) continue;
    query.append(upstream, validateParam(name, value, operation.name));
  }
  const qs = query.toString();
  return { operation, pathAndQuery: qs ? `${path}?${qs}` : path };
}
