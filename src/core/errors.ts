import { retryAfterSeconds } from './token-bucket.js';

/**
 * One error hierarchy for the whole project. Match on `error.code`, not on `instanceof`:
 * codes are stable across versions and survive serialisation (HTTP bodies, WebSocket frames, logs).
 */
export type ErrorCode =
  | 'INVALID_PARAMS'
  | 'UNKNOWN_OPERATION'
  | 'UPSTREAM_HTTP'
  | 'UPSTREAM_NOT_FOUND'
  | 'UPSTREAM_BLOCKED'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_NETWORK'
  | 'UPSTREAM_PAYLOAD'
  | 'ON_DEMAND_BUDGET'
  | 'INVALID_CONFIG'
  | 'WEBHOOK_REFUSED'
  | 'WEBHOOK_FAILED'
  | 'INVALID_OPTIONS'
  | 'BUS_CLOSED'
  | 'BUS_UNAVAILABLE';

export class CourtsideError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** A parameter failed validation; raised before any upstream request is made. */
export class InvalidParamsError extends CourtsideError {
  readonly param: string;
  readonly value: unknown;
  readonly expected: string;

  /** `reason`: which rule the value breaks, when the expected form alone does not make it plain. */
  constructor(param: string, value: unknown, expected: string, operation?: string, reason?: string) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    // A required parameter that was not given has no value to show: "invalid value undefined" misleads.
    const problem =
      value === undefined
        ? 'is missing'
        : `has invalid value ${truncate(shown)}${reason ? ` (${reason})` : ''}`;
    super(
      'INVALID_PARAMS',
      `${operation ? `${operation}: ` : ''}parameter "${param}" ${problem}; expected ${expected}`,
    );
    this.param = param;
    this.value = value;
    this.expected = expected;
  }
}

/** What an unknown operation name was probably meant to be, and why when it is not a typo. */
export interface OperationSuggestion {
  name: string;
  note?: string;
}

export class UnknownOperationError extends CourtsideError {
  readonly operation: string;
  /** The known operation the name was probably meant to be (`mens_scoreboard` for `nba_scoreboard`). */
  readonly suggestion: OperationSuggestion | undefined;
  /**
   * The operations of the same suffix in the leagues that have it, when the name gives a league
   * that does not (`womens_standings`: `mens_standings`, `mens_college_standings`, …).
   */
  readonly offered: readonly string[];

  constructor(operation: string, suggestion?: OperationSuggestion, offered: readonly string[] = []) {
    const meant = suggestion
      ? `; did you mean ${suggestion.name}?${suggestion.note ? ` (${suggestion.note})` : ''}`
      : '';
    const elsewhere = offered.length
      ? `; ESPN does not serve it for this league, only as ${offered.join(', ')}`
      : '';
    super(
      'UNKNOWN_OPERATION',
      `unknown operation ${truncate(JSON.stringify(operation))}${meant}${elsewhere}`,
    );
    this.operation = operation;
    this.suggestion = suggestion;
    this.offered = offered;
  }
}

/** The upstream answered with a non-2xx status (after retries). */
export class UpstreamHttpError extends CourtsideError {
  readonly status: number;
  readonly url: string;

  constructor(
    status: number,
    url: string,
    code: 'UPSTREAM_HTTP' | 'UPSTREAM_NOT_FOUND' | 'UPSTREAM_BLOCKED' = 'UPSTREAM_HTTP',
    message = `upstream answered ${status} for ${url}`,
  ) {
    super(code, message);
    this.status = status;
    this.url = url;
  }
}

/**
 * The upstream has nothing at this address: a 404, or a success with an empty body. Either an id
 * it does not know, or an endpoint it no longer serves (docs/upstream.md).
 */
export class UpstreamNotFoundError extends UpstreamHttpError {
  constructor(status: number, url: string, reason: string) {
    super(status, url, 'UPSTREAM_NOT_FOUND', `upstream has nothing for ${url}: ${reason}`);
  }
}

/**
 * The upstream's edge (a web application firewall) refused the request: a 403 whose body is not
 * the upstream's JSON. Retrying does not help; another User-Agent does.
 */
export class UpstreamBlockedError extends UpstreamHttpError {
  readonly userAgent: string;

  constructor(url: string, userAgent: string, acceptedForm: string) {
    super(
      403,
      url,
      'UPSTREAM_BLOCKED',
      `upstream's edge blocked the request for ${url} (403 with a non-JSON body) sent with ` +
        `User-Agent ${JSON.stringify(userAgent)}; it accepts agents of the form ${acceptedForm}`,
    );
    this.userAgent = userAgent;
  }
}

/** The upstream did not answer within the per-request timeout (after retries). */
export class UpstreamTimeoutError extends CourtsideError {
  readonly url: string;
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number, options?: { cause?: unknown }) {
    super('UPSTREAM_TIMEOUT', `upstream did not answer within ${timeoutMs} ms for ${url}`, options);
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
}

/** The connection to the upstream failed (refused, reset, DNS) after retries. */
export class UpstreamNetworkError extends CourtsideError {
  readonly url: string;

  constructor(url: string, options?: { cause?: unknown }) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super('UPSTREAM_NETWORK', `could not reach upstream for ${url}${reason}`, options);
    this.url = url;
  }
}

/** The upstream body was not JSON, or not of the expected shape. */
export class UpstreamPayloadError extends CourtsideError {
  readonly url: string;

  constructor(url: string, reason: string, options?: { cause?: unknown }) {
    super('UPSTREAM_PAYLOAD', `upstream payload for ${url} is unusable: ${reason}`, options);
    this.url = url;
  }
}

/**
 * The on-demand upstream budget (requests a second sent upstream for on-demand calls) is spent, and
 * no earlier answer is held to serve instead. Nothing was sent; `retryAfterMs` says when a request
 * would be.
 */
export class OnDemandBudgetError extends CourtsideError {
  readonly url: string;
  readonly retryAfterMs: number;

  constructor(url: string, retryAfterMs: number, rate: number) {
    super(
      'ON_DEMAND_BUDGET',
      `the on-demand upstream budget (${rate} requests a second) is spent; ${url} not asked, retry in ${retryAfterSeconds(retryAfterMs)} s`,
    );
    this.url = url;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A configuration file or environment variable is invalid; names the field. */
export class InvalidConfigError extends CourtsideError {
  readonly field: string;

  constructor(field: string, message: string) {
    super('INVALID_CONFIG', `${field}: ${message}`);
    this.field = field;
  }
}

/** Options passed to a constructor or command are invalid; the message names the option. */
export class InvalidOptionsError extends CourtsideError {
  constructor(message: string) {
    super('INVALID_OPTIONS', message);
  }
}

/** The bus (event log and game state) was used after `close()`. */
export class BusClosedError extends CourtsideError {
  constructor(operation: string) {
    super('BUS_CLOSED', `bus.${operation}: the bus is closed`);
  }
}

/** The bus's store (Redis) did not answer; callers back off and retry. */
export class BusUnavailableError extends CourtsideError {
  readonly operation: string;

  constructor(operation: string, options?: { cause?: unknown }) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super('BUS_UNAVAILABLE', `bus.${operation} failed${reason}`, options);
    this.operation = operation;
  }
}

/** A webhook URL is not deliverable: not http(s), or it resolves to a private/loopback address. */
export class WebhookRefusedError extends CourtsideError {
  readonly url: string;
  /** Why, without the URL (which may carry a chat token). */
  readonly reason: string;

  constructor(url: string, reason: string) {
    super('WEBHOOK_REFUSED', `webhook ${url} refused: ${reason}`);
    this.url = url;
    this.reason = reason;
  }
}

/** A webhook receiver did not accept a delivery (non-2xx, redirect, timeout, network error). */
export class WebhookFailedError extends CourtsideError {
  readonly url: string;
  readonly status: number | null;

  constructor(url: string, status: number | null, reason: string, options?: { cause?: unknown }) {
    super('WEBHOOK_FAILED', `webhook ${url} failed: ${reason}`, options);
    this.url = url;
    this.status = status;
  }
}

function truncate(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
