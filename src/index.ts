/**
 * The package entry: one explicit list of what courtside offers to library users.
 * Internals stay internal; add a name here only when its module is built and typed.
 */

import { createEspnClient, type EspnClient, type EspnClientOptions } from './espn-client/client.js';

// ESPN client
export { createEspnClient, DEFAULT_UPSTREAM } from './espn-client/client.js';
export type {
  CallNotice,
  CallNoticeKind,
  CallOptions,
  CallParams,
  EspnClient,
  EspnClientOptions,
  OperationMethod,
} from './espn-client/client.js';

// Earlier names, kept for existing users: "client" alone was ambiguous beside the subscriber
// library (`courtside/client`).
/** @deprecated use createEspnClient */
export const createClient = createEspnClient;
/** @deprecated use EspnClient */
export type CourtsideClient = EspnClient;
/** @deprecated use EspnClientOptions */
export type ClientOptions = EspnClientOptions;

// Operation registry
export {
  OPERATIONS,
  OPERATION_NAMES,
  buildRequest,
  getOperation,
  isOperationName,
} from './espn/operations.js';
export type {
  BuiltRequest,
  MensOnlySuffix,
  OperationName,
  OperationSpec,
  QueryParamSpec,
  ResultKind,
  SharedSuffix,
  Suffix,
  WhenMissing,
} from './espn/operations.js';
export { PARAM_RULES, validateParam } from './espn/params.js';
export type { ParamName, ParamValue, Params } from './espn/params.js';
export { LEAGUES, LEAGUE_SEGMENT, isLeague } from './core/leagues.js';
export type { League } from './core/leagues.js';

// Errors (match on `code`)
export {
  BusClosedError,
  BusUnavailableError,
  CourtsideError,
  InvalidConfigError,
  InvalidOptionsError,
  InvalidParamsError,
  UnknownOperationError,
  UpstreamBlockedError,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamNotFoundError,
  UpstreamPayloadError,
  UpstreamTimeoutError,
  WebhookFailedError,
  WebhookRefusedError,
} from './core/errors.js';
export type { ErrorCode, OperationSuggestion } from './core/errors.js';

// Tabular forms
export { columnsFor, parseOperation, tableToIpc, toCsv } from './tables/index.js';
export type { Flavour, ParseOptions, Row, SummaryTableName, TabularResult } from './tables/index.js';

// Live engine
export { createEngine, createSnapshotSource } from '../streams/engine.js';
export type { Engine, EngineIntervals, EngineOptions, PollerStatus } from '../streams/engine.js';

// Events
export { EVENT_TYPES, isEventType } from './model/events.js';
export type {
  EventDataMap,
  EventEnvelope,
  EventType,
  GameEvent,
  GameSituation,
  GameSnapshot,
  GameState,
  PlayerFouls,
  PlayRow,
  Score,
  SituationChangedData,
  SnapshotSource,
  TeamRef,
  TeamSituation,
} from './model/events.js';

// Event log, daemon and simulator
export { createBus } from './bus/index.js';
export type { Bus, GameKey, LogBounds, Offset } from './bus/types.js';
export { createDaemon } from './daemon/daemon.js';
export type { Daemon, DaemonOptions } from './daemon/daemon.js';
export { loadConfig } from './daemon/config.js';
export type { Config } from './daemon/config.js';
export { startUpstream } from './simulator/index.js';
export type { RunningUpstream, UpstreamOptions } from './simulator/index.js';

export { VERSION, DEFAULT_USER_AGENT } from './core/version.js';
