import { InvalidConfigError, InvalidOptionsError, UpstreamNotFoundError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/log.js';
import { checkSummaryTable, parseOperation } from '../tables/index.js';
import { DEFAULT_USER_AGENT } from '../core/version.js';
import {
  createUpstreamHttp,
  DEFAULT_ON_DEMAND_BUDGET,
  DEFAULT_ON_DEMAND_CONCURRENCY,
  DEFAULT_ON_DEMAND_MAX_WAIT_MS,
  type BudgetStats,
  type DocumentRequest,
  type FetchedDocument,
  type GetOptions,
  type LaneStats,
  type UpstreamHttp,
} from '../espn/http.js';
import { LANES, type Lane } from '../espn/lane.js';
import {
  buildRequest,
  OPERATION_NAMES,
  operationName,
  type BuiltRequest,
  type OperationName,
  type OperationSpec,
} from '../espn/operations.js';
import type { Params } from '../espn/params.js';
import {
  ACCEPTED_USER_AGENT_FORM,
  blockedUserAgentForm,
  blockedUserAgentMessage,
} from '../espn/user-agent.js';
import type { CallNotice } from './call-notice.js';
import { MAX_UPSTREAM_LIMIT, mergeBoards, planRange, type RangePlan } from './scoreboard-range.js';

export type { CallNotice, CallNoticeKind } from './call-notice.js';

/**
 * The ESPN client: one method per operation of the registry, plus `call`. Parameters are
 * validated before any I/O; the raw form is the upstream JSON, the default is the tabular form
 * from `parseOperation` (src/tables).
 */

export const DEFAULT_UPSTREAM = 'https://site.api.espn.com';
// ESPN publishes no limits; 10 s is well above its usual sub-second answers.
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRIES = 3;
// Enough for both leagues' pollers, few enough to stay a polite client.
const DEFAULT_CONCURRENCY = 8;
// First retry after 250-500 ms; doubling reaches the 10 s cap by the sixth retry.
const DEFAULT_RETRY_BASE_MS = 500;
const DEFAULT_RETRY_MAX_MS = 10_000;
// A server asking for more than a minute is down for longer than a caller should wait.
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
// A day of summaries for both leagues is under 40 keys; 500 leaves room for on-demand calls.
const DEFAULT_CACHE_ENTRIES = 500;
// 15 live summaries are ~7 MB of JSON; the byte budget, not the count, is what bounds memory.
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

export interface EspnClientOptions {
  /** Base URL; default `COURTSIDE_UPSTREAM` or `https://site.api.espn.com`. */
  upstream?: string;
  /**
   * Default `courtside/<version> (+<project URL>)`. An agent of a form ESPN's edge blocks (a
   * browser's, a bare `Name/version`, node-fetch, Deno, Wget, PostmanRuntime) is refused here.
   */
  userAgent?: string;
  /** Send `userAgent` even when it has a form ESPN's edge blocks; default false. */
  forceUserAgent?: boolean;
  /** Per attempt, default 10000. */
  timeoutMs?: number;
  /** Retries after the first attempt on network errors, timeouts, 429 and 5xx; default 3. */
  retries?: number;
  /** Connections (requests in flight) to the upstream host for the live lane; default 8. */
  concurrency?: number;
  /** The same for the on-demand lane (calls with `lane: 'on-demand'`); default 4. */
  onDemandConcurrency?: number;
  /** Requests a second the on-demand lane may send upstream, retries included; default 10. */
  onDemandRate?: number;
  /** Requests the on-demand lane may send at once after a quiet spell; default 10. */
  onDemandBurst?: number;
  /** Longest an on-demand call waits for the budget before it is refused, in ms; default 1000. */
  onDemandMaxWaitMs?: number;
  /** TTL cache and conditional requests; default true. */
  cache?: boolean;
  /** Backoff scale of the first retry, in ms; default 500. */
  retryBaseMs?: number;
  /** Cap of a computed backoff, in ms; default 10000. */
  retryMaxMs?: number;
  /** A longer `Retry-After` stops retrying; default 60000. */
  maxRetryAfterMs?: number;
  /** Responses held for the TTL cache and conditional requests; default 500. */
  cacheMaxEntries?: number;
  /** Body bytes (decoded JSON) those responses may total; default 33554432 (32 MiB). */
  cacheMaxBytes?: number;
  /** Clock for the TTL cache (ms). */
  now?: () => number;
  logger?: Logger;
}

export interface CallOptions {
  /** Default true: the tabular form; false: the upstream JSON. */
  returnParsed?: boolean;
  /** Spec alias of `returnParsed`. */
  return_parsed?: boolean;
  /** Tabular flavour: Arrow table (default) or plain rows. */
  flavour?: 'arrow' | 'rows';
  /** Spec alias: true means the rows flavour. */
  return_as_pandas?: boolean;
  /** Summary only: one of its tables by name. */
  table?: string;
  /** Stop waiting; a request shared with other callers carries on. */
  signal?: AbortSignal;
  /** Skip the TTL cache (the conditional request is still sent). */
  fresh?: boolean;
  /**
   * The lane the upstream requests go in: `live` (default) or `on-demand`. The lanes have their own
   * connections, so on-demand calls never delay live ones (docs/limits.md, "Lanes").
   */
  lane?: Lane;
  /**
   * Told when the call was changed or answered another way than asked: a capped `limit`, a date
   * range merged from several scoreboards, the calendar read from the scoreboard, an empty body.
   */
  onNotice?: (notice: CallNotice) => void;
}

export type CallParams = Params | Readonly<Record<string, string | number>>;

export type OperationMethod = (params?: CallParams, options?: CallOptions) => Promise<unknown>;

export type EspnClient = {
  readonly [K in OperationName]: OperationMethod;
} & {
  /** The base URL this client calls. */
  readonly upstream: string;
  call(operation: string, params?: CallParams, options?: CallOptions): Promise<unknown>;
  /**
   * A document at a URL the upstream handed out (a FastCast checkpoint), raw, through the same
   * connections, timeouts, retries and decoding as the operations, in the live lane; never cached.
   */
  fetchDocument(request: DocumentRequest, options?: { signal?: AbortSignal }): Promise<FetchedDocument>;
  /** What each lane of upstream requests is doing. */
  lanes(): Readonly<Record<Lane, LaneStats>>;
  /** The on-demand upstream budget now. */
  budget(): BudgetStats;
  /** Idempotent; pending calls fail with `UpstreamNetworkError`. */
  close(): Promise<void>;
};

export function createEspnClient(options: EspnClientOptions = {}): EspnClient {
  const upstream = checkUpstream(options.upstream ?? process.env.COURTSIDE_UPSTREAM ?? DEFAULT_UPSTREAM);
  const http = createEspnHttp(upstream, options);

  const logger = options.logger ?? silentLogger;
  const concurrency = checkInt('concurrency', options.concurrency, DEFAULT_CONCURRENCY, 1, 256);
  const fetchContext: FetchContext = { http, upstream, concurrency };

  async function call(operation: string, params: CallParams = {}, callOptions: CallOptions = {}) {
    const request = buildRequest(operation, params);
    const parsed = callOptions.returnParsed ?? callOptions.return_parsed ?? true;
    if (parsed) checkParseOptions(request.operation, callOptions);
    const notify = (notice: CallNotice): void => {
      logger.info({ operation: request.operation.name, notice: notice.kind }, notice.message);
      try {
        callOptions.onNotice?.(notice);
      } catch {
        // A listener's failure must not fail the call it was told about.
      }
    };
    const getOptions: GetOptions = {
      ...(callOptions.fresh !== undefined ? { fresh: callOptions.fresh } : {}),
      ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      ...(callOptions.lane ? { lane: checkLane(callOptions.lane) } : {}),
      onStale: (ageMs: number) =>
        notify({
          kind: 'stale',
          message: `the on-demand upstream budget is spent: answered from ESPN's answer of ${Math.round(ageMs / 1000)} s ago`,
        }),
    };
    const raw = await fetchRaw(
      fetchContext,
      request,
      params as Readonly<Record<string, unknown>>,
      getOptions,
      notify,
    );
    if (!parsed) return raw;
    return parseOperation(request.operation.name, raw, {
      ...(callOptions.flavour ? { flavour: callOptions.flavour } : {}),
      ...(callOptions.return_as_pandas !== undefined
        ? { return_as_pandas: callOptions.return_as_pandas }
        : {}),
      ...(callOptions.table !== undefined ? { table: callOptions.table } : {}),
    });
  }

  const methods = Object.fromEntries(
    OPERATION_NAMES.map((name): [OperationName, OperationMethod] => [
      name,
      (params, callOptions) => call(name, params, callOptions),
    ]),
  ) as Record<OperationName, OperationMethod>;

  return Object.freeze({
    ...methods,
    upstream,
    call,
    fetchDocument: (request, documentOptions) => http.getDocument(request, documentOptions),
    lanes: () => http.lanes(),
    budget: () => http.budget(),
    close: () => http.close(),
  });
}

/** The upstream HTTP client of `options`, each number checked against its range. */
function createEspnHttp(upstream: string, options: EspnClientOptions): UpstreamHttp {
  return createUpstreamHttp({
    upstream,
    userAgent: checkUserAgent(options.userAgent ?? DEFAULT_USER_AGENT, options.forceUserAgent === true),
    timeoutMs: checkInt('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 1, 600_000),
    retries: checkInt('retries', options.retries, DEFAULT_RETRIES, 0, 10),
    concurrency: checkInt('concurrency', options.concurrency, DEFAULT_CONCURRENCY, 1, 256),
    onDemandConcurrency: checkInt(
      'onDemandConcurrency',
      options.onDemandConcurrency,
      DEFAULT_ON_DEMAND_CONCURRENCY,
      1,
      256,
    ),
    onDemandBudget: {
      rate: checkInt('onDemandRate', options.onDemandRate, DEFAULT_ON_DEMAND_BUDGET.rate, 0, 10_000),
      burst: checkInt('onDemandBurst', options.onDemandBurst, DEFAULT_ON_DEMAND_BUDGET.burst, 1, 10_000),
    },
    onDemandMaxWaitMs: checkInt(
      'onDemandMaxWaitMs',
      options.onDemandMaxWaitMs,
      DEFAULT_ON_DEMAND_MAX_WAIT_MS,
      0,
      60_000,
    ),
    retryBaseMs: checkInt('retryBaseMs', options.retryBaseMs, DEFAULT_RETRY_BASE_MS, 0, 60_000),
    retryMaxMs: checkInt('retryMaxMs', options.retryMaxMs, DEFAULT_RETRY_MAX_MS, 0, 600_000),
    maxRetryAfterMs: checkInt(
      'maxRetryAfterMs',
      options.maxRetryAfterMs,
      DEFAULT_MAX_RETRY_AFTER_MS,
      0,
      3_600_000,
    ),
    cache: options.cache ?? true,
    cacheMaxEntries: checkInt('cacheMaxEntries', options.cacheMaxEntries, DEFAULT_CACHE_ENTRIES, 1, 1e6),
    cacheMaxBytes: checkInt('cacheMaxBytes', options.cacheMaxBytes, DEFAULT_CACHE_BYTES, 1, 2 ** 32),
    now: options.now ?? Date.now,
    logger: options.logger ?? silentLogger,
  });
}

/** What fetching a call's payload needs of its client. */
interface FetchContext {
  http: UpstreamHttp;
  /** The base URL, for the links a merged scoreboard names. */
  upstream: string;
  /** The scoreboards of a date range asked at once. */
  concurrency: number;
}

/** The upstream payload of a validated call, however many requests it takes. */
async function fetchRaw(
  ctx: FetchContext,
  request: BuiltRequest,
  params: Readonly<Record<string, unknown>>,
  getOptions: GetOptions,
  notify: (notice: CallNotice) => void,
): Promise<unknown> {
  const { operation } = request;
  const dates = params.dates === undefined ? undefined : String(params.dates);
  const limit = params.limit === undefined ? undefined : Number(params.limit);
  const plan = operation.result === 'scoreboard' && dates !== undefined ? planRange(dates) : undefined;
  if (plan) return fetchRange(ctx, operation, params, plan, limit, getOptions, notify);

  let sent = request;
  if (limit !== undefined && limit > MAX_UPSTREAM_LIMIT) {
    sent = buildRequest(operation.name, { ...params, limit: MAX_UPSTREAM_LIMIT });
    const more = operation.result === 'scoreboard' ? '; for more games ask a date range' : '';
    notify({
      kind: 'limit-capped',
      message:
        `limit ${limit} lowered to ${MAX_UPSTREAM_LIMIT}: ESPN answers a larger limit with only 25 items ` +
        `and has no paging, so at most ${MAX_UPSTREAM_LIMIT} come back${more}`,
    });
  }
  try {
    return await ctx.http.get(sent, getOptions);
  } catch (error) {
    if (!(error instanceof UpstreamNotFoundError)) throw error;
    if (operation.whenMissing === 'empty-list' && error.status !== 404) {
      notify({
        kind: 'empty-body',
        message: `ESPN answered ${operation.name} with an empty body: read as an empty list (no rows)`,
      });
      return {};
    }
    if (operation.whenMissing === 'scoreboard-calendar') {
      return calendarFromScoreboard(ctx, operation, error, getOptions, notify);
    }
    throw error;
  }
}

async function fetchRange(
  ctx: FetchContext,
  operation: OperationSpec,
  params: Readonly<Record<string, unknown>>,
  plan: RangePlan,
  limit: number | undefined,
  getOptions: GetOptions,
  notify: (notice: CallNotice) => void,
): Promise<unknown> {
  const requests = plan.requests.map((dates) =>
    buildRequest(operation.name, { ...params, dates, limit: MAX_UPSTREAM_LIMIT }),
  );
  const boards = await inPool(requests, ctx.concurrency, (r) => ctx.http.get(r, getOptions));
  const merged = mergeBoards(plan, boards, limit, (dates) => `${ctx.upstream}${requestFor(requests, dates)}`);
  const events = (merged.events as unknown[]).length;
  notify({
    kind: 'range-merged',
    message:
      `dates=${String(params.dates)} answered from ${requests.length} scoreboard(s) ` +
      `(dates=${plan.requests[0]}${requests.length > 1 ? `..${plan.requests.at(-1)}` : ''}, ` +
      `limit=${MAX_UPSTREAM_LIMIT}) merged to ${events} event(s) of Eastern days ${plan.start}-${plan.end}`,
  });
  return merged;
}

async function calendarFromScoreboard(
  ctx: FetchContext,
  operation: OperationSpec,
  missing: UpstreamNotFoundError,
  getOptions: GetOptions,
  notify: (notice: CallNotice) => void,
): Promise<unknown> {
  const board = await ctx.http.get(
    buildRequest(operationName(operation.league, 'scoreboard'), {}),
    getOptions,
  );
  const leagues = (board as { leagues?: unknown } | null)?.leagues;
  const league = Array.isArray(leagues) ? (leagues[0] as Record<string, unknown> | undefined) : undefined;
  if (!league || !Array.isArray(league.calendar)) {
    throw new UpstreamNotFoundError(
      missing.status,
      missing.url,
      `${missing.message.split(': ').at(-1) ?? 'no answer'}, and the scoreboard has no leagues[0].calendar`,
    );
  }
  notify({
    kind: 'calendar-from-scoreboard',
    message:
      `ESPN answered ${missing.status} for ${operation.name}; answered from the scoreboard's ` +
      'leagues[0].calendar, the same list of dates',
  });
  const pick = ['calendarType', 'calendarIsWhitelist', 'calendarStartDate', 'calendarEndDate', 'calendar'];
  return Object.fromEntries(pick.filter((k) => league[k] !== undefined).map((k) => [k, league[k]]));
}

/** The tabular options, checked like the parameters: before any request. */
function checkParseOptions(operation: OperationSpec, options: CallOptions): void {
  const { flavour, table } = options;
  if (flavour !== undefined && flavour !== 'arrow' && flavour !== 'rows') {
    throw new InvalidOptionsError(`flavour: expected "arrow" or "rows", got ${JSON.stringify(flavour)}`);
  }
  checkSummaryTable(operation, table);
}

function checkLane(lane: Lane): Lane {
  if (!(LANES as readonly string[]).includes(lane)) {
    throw new InvalidOptionsError(`lane: expected one of ${LANES.join(', ')}, got ${JSON.stringify(lane)}`);
  }
  return lane;
}

function checkUpstream(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidConfigError('upstream', `not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidConfigError('upstream', `must be http or https, got ${url.protocol}`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new InvalidConfigError('upstream', 'must have no query, fragment or credentials');
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function checkUserAgent(value: string, force: boolean): string {
  // A header value: printable ASCII only, so it cannot inject another header.
  if (!/^[\x20-\x7e]{1,256}$/.test(value)) {
    throw new InvalidConfigError(
      'userAgent',
      `must be 1-256 printable ASCII characters, of the form ${ACCEPTED_USER_AGENT_FORM}`,
    );
  }
  const blocked = force ? undefined : blockedUserAgentForm(value);
  if (blocked) throw new InvalidConfigError('userAgent', blockedUserAgentMessage(value, blocked));
  return value;
}

function requestFor(requests: readonly BuiltRequest[], dates: string): string {
  return requests.find((r) => r.pathAndQuery.includes(`dates=${dates}`))?.pathAndQuery ?? '';
}

/** `work` over `items`, at most `size` at a time, results in the order of `items`. */
async function inPool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    // After one failure the call fails as a whole: the items not started are not asked for.
    while (next < items.length && !failed) {
      const i = next++;
      try {
        results[i] = await work(items[i] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

function checkInt(
  field: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidConfigError(field, `must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}
