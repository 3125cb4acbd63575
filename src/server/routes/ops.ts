import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Table } from 'apache-arrow';
import {
  CourtsideError,
  InvalidParamsError,
  OnDemandBudgetError,
  UpstreamHttpError,
} from '../../core/errors.js';
import { buildRequest, OPERATIONS, unknownOperation, type OperationSpec } from '../../espn/operations.js';
import { silentLogger, type Logger } from '../../core/log.js';
import { retryAfterSeconds } from '../../core/token-bucket.js';
import {
  operationCsv,
  parseOperation,
  SUMMARY_TABLE_NAMES,
  summaryTableExpected,
  tableToIpc,
} from '../../tables/index.js';
import { NOTICE_SOURCE, type CallNotice } from '../../espn-client/call-notice.js';
import { sendError, type RouteHandler } from '../http-types.js';
import { isRead, JSON_TYPE, sendBody } from './respond.js';

/**
 * `GET /v1/ops/<operation>?<params>&format=json|rows|csv|arrow|raw&table=<name>`: every one of
 * the 70 operations on demand. Parameters are validated against the registry before anything
 * is sent upstream; the upstream body is fetched once (raw) and shaped here per format.
 */
export const OPS_PREFIX = '/v1/ops/';

export const FORMATS = ['json', 'rows', 'csv', 'arrow', 'raw'] as const;
export type Format = (typeof FORMATS)[number];

/** Query parameters that are not operation parameters (`token` is the server's auth). */
export const RESERVED_QUERY = ['format', 'table', 'token'] as const;

export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  json: JSON_TYPE,
  rows: JSON_TYPE,
  raw: JSON_TYPE,
  csv: 'text/csv; charset=utf-8',
  arrow: 'application/vnd.apache.arrow.stream',
};

/** What the route needs of the client: the raw call, with an abort signal. */
export interface OpsClient {
  call(
    operation: string,
    params?: Record<string, string | number>,
    options?: {
      returnParsed?: boolean;
      signal?: AbortSignal;
      onNotice?: (notice: CallNotice) => void;
      lane?: 'live' | 'on-demand';
    },
  ): Promise<unknown>;
}

export interface OpsRouteOptions {
  client: OpsClient;
  logger?: Logger;
  /** True when tokens are required: answers are then `private`, never kept by shared caches. */
  auth?: boolean;
}

interface ValidRequest {
  operation: OperationSpec;
  params: Record<string, string>;
  format: Format;
  table: string | undefined;
}

export function createOpsRoute(options: OpsRouteOptions): RouteHandler {
  const logger = options.logger ?? silentLogger;
  return async (req, res, url) => {
    if (!url.pathname.startsWith(OPS_PREFIX)) return false;
    if (!isRead(req)) {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', `${req.method ?? '?'} is not allowed; use GET`, {
        headers: { allow: 'GET, HEAD' },
      });
      return true;
    }
    let name: string;
    try {
      name = decodeURIComponent(url.pathname.slice(OPS_PREFIX.length));
    } catch {
      name = url.pathname.slice(OPS_PREFIX.length);
    }
    const operation = OPERATIONS.get(name);
    if (!operation) {
      const unknown = unknownOperation(name.slice(0, 80));
      sendError(res, 404, 'UNKNOWN_OPERATION', unknown.message);
      return true;
    }
    let valid: ValidRequest;
    try {
      valid = validate(operation, url.searchParams);
    } catch (err) {
      if (err instanceof InvalidParamsError) {
        sendError(res, 400, 'INVALID_PARAMS', err.message);
        return true;
      }
      throw err;
    }
    await answer(req, res, valid, options.client, logger, options.auth === true ? 'private' : 'public');
    return true;
  };
}

/** Checks everything about the request that can be checked without the upstream. */
export function validate(operation: OperationSpec, query: URLSearchParams): ValidRequest {
  const params: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [key, value] of query) {
    if (seen.has(key)) {
      throw new InvalidParamsError(key, value, 'a single value (the parameter is repeated)', operation.name);
    }
    seen.add(key);
    if (!(RESERVED_QUERY as readonly string[]).includes(key)) params[key] = value;
  }
  // The registry's validation: unknown, missing and malformed parameters, named in the error.
  buildRequest(operation.name, params);

  const formatValue = query.get('format') ?? 'json';
  if (!(FORMATS as readonly string[]).includes(formatValue)) {
    throw new InvalidParamsError('format', formatValue, `one of ${FORMATS.join(', ')}`, operation.name);
  }
  const format = formatValue as Format;
  const table = query.get('table') ?? undefined;
  const isSummary = operation.result === 'summary';
  const expected = summaryTableExpected(operation, table);
  if (expected !== undefined) throw new InvalidParamsError('table', table, expected, operation.name);
  if (table !== undefined && format === 'raw') {
    throw new InvalidParamsError(
      'table',
      table,
      'no value with format=raw (raw is the whole payload)',
      operation.name,
    );
  }
  if (table === undefined && isSummary && (format === 'csv' || format === 'arrow')) {
    throw new InvalidParamsError(
      'table',
      undefined,
      `one of ${SUMMARY_TABLE_NAMES.join(', ')} (required with format=${format})`,
      operation.name,
    );
  }
  return { operation, params, format, table };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  { operation, params, format, table }: ValidRequest,
  client: OpsClient,
  logger: Logger,
  scope: 'public' | 'private',
): Promise<void> {
  // A client that hangs up should not keep an upstream request (and its retries) going.
  const abort = new AbortController();
  const onClose = (): void => {
    if (!res.writableFinished) abort.abort();
  };
  res.once('close', onClose);
  let raw: unknown;
  const notices: CallNotice[] = [];
  try {
    raw = await client.call(operation.name, params, {
      returnParsed: false,
      // Never ahead of the live polls, and within the on-demand budget (docs/limits.md, "Lanes").
      lane: 'on-demand',
      signal: abort.signal,
      onNotice: (notice) => notices.push(notice),
    });
  } catch (err) {
    if (abort.signal.aborted) return;
    sendUpstreamError(res, err, logger, operation.name);
    return;
  } finally {
    res.off('close', onClose);
  }

  let body: string | Uint8Array;
  try {
    body = render(operation.name, raw, format, table);
  } catch (err) {
    // The tables reject a payload that is not the expected shape: the upstream's fault.
    const message = err instanceof Error ? err.message : String(err);
    logger.warn({ operation: operation.name, format, err: message }, 'upstream payload could not be shaped');
    sendError(res, 502, 'UPSTREAM_PAYLOAD', `upstream payload for ${operation.name} is unusable: ${message}`);
    return;
  }
  const maxAge = Math.max(0, Math.floor(operation.ttlMs / 1000));
  sendBody(req, res, body, {
    contentType: CONTENT_TYPES[format],
    cacheControl: `${scope}, max-age=${maxAge}`,
    headers: {
      ...(format === 'csv'
        ? { 'content-disposition': `inline; filename="${fileName(operation.name, table)}.csv"` }
        : {}),
      ...noticeHeaders(notices),
    },
  });
}

/**
 * `Courtside-Notice: <kind>; <sentence>` for each notice, and `Courtside-Source` when the answer came
 * from elsewhere than the operation's own endpoint (docs/http-api.md).
 */
export function noticeHeaders(notices: readonly CallNotice[]): Record<string, string | string[]> {
  if (!notices.length) return {};
  const source = notices.map((n) => NOTICE_SOURCE[n.kind]).find((s) => s !== undefined);
  return {
    'courtside-notice': notices.map((n) => `${n.kind}; ${n.message.replace(/[^\x20-\x7e]/g, '?')}`),
    ...(source ? { 'courtside-source': source } : {}),
  };
}

function fileName(operation: string, table: string | undefined): string {
  return table ? `${operation}_${table}` : operation;
}

/** Shapes the raw upstream body into the asked format. */
export function render(
  operation: string,
  raw: unknown,
  format: Format,
  table: string | undefined,
): string | Uint8Array {
  const tableOption = table === undefined ? {} : { table };
  switch (format) {
    case 'raw':
      return JSON.stringify(raw);
    case 'json':
    case 'rows':
      return JSON.stringify(parseOperation(operation, raw, { flavour: 'rows', ...tableOption }), jsonSafe);
    case 'csv':
      // The table's own columns, optional ones included when present (e.g. a ranked team).
      return operationCsv(operation, raw, table);
    case 'arrow':
      return tableToIpc(parseOperation(operation, raw, { flavour: 'arrow', ...tableOption }) as Table);
  }
}

function upstreamStatusOf(err: CourtsideError): { upstreamStatus?: number } {
  return err instanceof UpstreamHttpError ? { upstreamStatus: err.status } : {};
}

function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

function sendUpstreamError(res: ServerResponse, err: unknown, logger: Logger, operation: string): void {
  if (!(err instanceof CourtsideError)) {
    logger.error({ operation, err }, 'operation failed unexpectedly');
    sendError(res, 500, 'INTERNAL', 'internal error');
    return;
  }
  switch (err.code) {
    case 'INVALID_PARAMS':
      sendError(res, 400, 'INVALID_PARAMS', err.message);
      return;
    case 'UNKNOWN_OPERATION':
      sendError(res, 404, 'UNKNOWN_OPERATION', err.message);
      return;
    case 'ON_DEMAND_BUDGET': {
      const retryAfterS = err instanceof OnDemandBudgetError ? retryAfterSeconds(err.retryAfterMs) : 1;
      logger.debug({ operation, code: err.code }, err.message);
      sendError(res, 429, 'ON_DEMAND_BUDGET', err.message, {
        headers: { 'retry-after': String(retryAfterS) },
      });
      return;
    }
    case 'UPSTREAM_TIMEOUT':
      logger.warn({ operation, code: err.code }, err.message);
      sendError(res, 504, 'UPSTREAM_TIMEOUT', err.message);
      return;
    case 'UPSTREAM_NOT_FOUND':
      logger.info({ operation, code: err.code }, err.message);
      sendError(res, 404, 'UPSTREAM_NOT_FOUND', err.message, upstreamStatusOf(err));
      return;
    case 'UPSTREAM_BLOCKED':
      logger.warn({ operation, code: err.code }, err.message);
      sendError(res, 502, 'UPSTREAM_BLOCKED', err.message, upstreamStatusOf(err));
      return;
    case 'UPSTREAM_HTTP':
    case 'UPSTREAM_NETWORK':
    case 'UPSTREAM_PAYLOAD': {
      logger.warn({ operation, code: err.code }, err.message);
      const upstreamStatus = err instanceof UpstreamHttpError ? { upstreamStatus: err.status } : {};
      sendError(res, 502, err.code, err.message, upstreamStatus);
      return;
    }
    default:
      // Not an upstream failure: a fault of this process, whatever its class says.
      logger.error({ operation, err }, 'operation failed unexpectedly');
      sendError(res, 500, 'INTERNAL', 'internal error');
  }
}
