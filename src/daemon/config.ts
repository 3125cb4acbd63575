import { isIP } from 'node:net';
import { z } from 'zod';
import { InvalidRedisUrlError, parseRedisUrl, redactRedisUrl } from '../bus/redis-url.js';
import { DEFAULT_PREFIX, PREFIX_PATTERN, prefixForTopology } from '../bus/redis-keys.js';
import { DEFAULT_RETENTION_MS, DEFAULT_RETENTION_PER_LEAGUE } from '../bus/options.js';
import { InvalidConfigError, InvalidOptionsError } from '../core/errors.js';
import { DEFAULT_LEAGUES, LEAGUES, type League } from '../core/leagues.js';
import { INSTANCE_ROLES, type InstanceRole } from '../core/role.js';
import { LOG_FORMATS, type LogFormat } from '../core/log.js';
import type { BucketLimit } from '../core/token-bucket.js';
import { DEFAULT_ON_DEMAND_BUDGET } from '../espn/http.js';
import { DEFAULT_LIVE_BUDGET } from '../../streams/poll-budget.js';
import { MIN_SUMMARY_INTERVAL_MS } from '../../streams/engine-config.js';
import {
  ACCEPTED_USER_AGENT_FORM,
  blockedUserAgentForm,
  blockedUserAgentMessage,
} from '../espn/user-agent.js';
import {
  httpUrl,
  intIn,
  isOrigin,
  readConfigFields,
  type ConfigEnv,
  type ConfigField,
} from './config-fields.js';

/**
 * The daemon's configuration, parsed once from the environment and CLI flags (flags win).
 * Every error names the variable or flag it came from and the form that was expected.
 */
export interface Config {
  /** Base URL of the ESPN-compatible upstream, without a trailing slash. */
  upstream: string;
  port: number;
  host: string;
  /** Unset: in-memory event log, no job queues, no leases. */
  redisUrl: string | undefined;
  /** Key prefix for everything courtside writes to Redis. */
  prefix: string;
  leagues: League[];
  summaryIntervalMs: number;
  /** Summary requests a second shared by every live game (streams/poll-budget.ts). */
  liveBudget: number;
  /** Bearer tokens accepted on HTTP and WebSocket; empty: no authentication. */
  tokens: string[];
  /** Allowed `Origin` values for browsers; empty: any origin. */
  origins: string[];
  /** Events kept in the log per league at most: a cap, warned about when it cuts the time window. */
  retention: number;
  /** Events younger than this many hours are kept (unless the `retention` cap cuts them). */
  retentionHours: number;
  /** How long a finished game's state stays on the bus, in seconds. */
  finishedGameTtlS: number;
  /** Until when after Eastern midnight the previous Eastern day's board is read too (`HH:MM`, Eastern). */
  previousDayUntil: string;
  /** User-Agent sent upstream; unset: courtside's own, of the form ESPN's edge accepts. */
  userAgent: string | undefined;
  /** Send `userAgent` even when it has a form ESPN's edge blocks. */
  forceUserAgent: boolean;
  logLevel: LogLevel;
  /** Logs as readable lines, JSON lines, or (`auto`) readable on a terminal only. */
  logFormat: LogFormat;
  /** What this process does: poll and serve (`all`), only poll, or only serve viewers. */
  role: InstanceRole;
  /** Redis replicas that must acknowledge each commit before its events go out (0: none). */
  waitReplicas: number;
  /** Requests a second on-demand calls (`GET /v1/ops`) may send upstream, retries included. */
  onDemandRate: number;
  /** Such requests sent at once after a quiet spell. */
  onDemandBurst: number;
  /** Each HTTP API client's token bucket (per token, or per address without tokens); null: none. */
  rateLimit: BucketLimit | null;
  /** Buckets of particular tokens, over `rateLimit` (null: that token is not limited). */
  tokenRateLimits: ReadonlyMap<string, BucketLimit | null>;
  /** Addresses of proxies whose `X-Forwarded-For` names the client. */
  trustedProxies: string[];
  /** Streams (WebSocket and SSE) one address may hold open. */
  streamConnectionsPerAddress: number;
  /** Each address's bucket of subscribes and SSE opens (a resume is one); null: none. */
  subscribeRateLimit: BucketLimit | null;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** CLI flags as commander hands them over (strings), all optional. */
export interface ConfigFlags {
  upstream?: string;
  port?: string | number;
  host?: string;
  redis?: string;
  prefix?: string;
  leagues?: string;
  summaryInterval?: string | number;
  liveBudget?: string | number;
  tokens?: string;
  origins?: string;
  retention?: string | number;
  retentionHours?: string | number;
  finishedGameTtl?: string | number;
  previousDayUntil?: string;
  userAgent?: string;
  forceUserAgent?: string | boolean;
  logLevel?: string;
  logFormat?: string;
  role?: string;
  waitReplicas?: string | number;
  onDemandRate?: string | number;
  onDemandBurst?: string | number;
  rateLimit?: string;
  tokenRateLimits?: string;
  trustedProxies?: string;
  streamConnectionsPerAddress?: string | number;
  subscribeRateLimit?: string;
}

export const DEFAULT_UPSTREAM = 'https://site.api.espn.com';
export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '0.0.0.0';
export const DEFAULT_SUMMARY_INTERVAL_MS = 3000;
export const DEFAULT_RETENTION_HOURS = DEFAULT_RETENTION_MS / 3_600_000;
// A year: longer windows are the cap's job, and a typo like 36000 should not pass silently.
export const MAX_RETENTION_HOURS = 8_784;
// A day: finished games stay listed (snapshots, /v1/games) through the next day's morning.
export const DEFAULT_FINISHED_GAME_TTL_S = 86_400;
// Below this a busy evening's slate would be trimmed before reconnecting clients could resume.
export const MIN_RETENTION = 100;
// ESPN's default board moves to the next Eastern day at midnight; the latest games end and are
// corrected within a few hours after it, so the previous day's board is read until 06:00 Eastern.
export const DEFAULT_PREVIOUS_DAY_UNTIL = '06:00';
// What a dashboard, an overlay or a script polling every few tens of ms never reaches; a loop
// without pauses does at once.
export const DEFAULT_RATE_LIMIT = '50/100';
// An office or a broadcast truck behind one address holds dozens of streams; hundreds is a fleet.
export const DEFAULT_STREAM_CONNECTIONS_PER_ADDRESS = 500;
// A restart brings every client back within seconds: 100 at once from one address, then 20 a second.
export const DEFAULT_SUBSCRIBE_RATE_LIMIT = '20/100';

const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

const siteUrl = httpUrl(
  'an absolute http:// or https:// URL without query or fragment, e.g. https://site.api.espn.com',
);

const RATE_FORM = 'off, or <per second>/<burst> such as 20/40 (a positive rate, an integer burst >= 1)';

/** `off`, or `<rate>/<burst>`, as a bucket limit. */
function parseRate(text: string): BucketLimit | null | undefined {
  if (text === 'off') return null;
  const m = /^([0-9]+(?:\.[0-9]+)?)\/([0-9]+)$/.exec(text);
  const rate = Number(m?.[1]);
  const burst = Number(m?.[2]);
  return m && rate > 0 && burst >= 1 && Number.isSafeInteger(burst) ? { rate, burst } : undefined;
}

const rateLimit = z
  .string()
  .transform((v) => parseRate(v))
  .refine((v) => v !== undefined, RATE_FORM)
  .transform((v) => v ?? null);

const TOKEN_RATES_FORM = `a comma-separated list of <token>=<limit>, each limit ${RATE_FORM}`;

const tokenRateLimits = z
  .string()
  .transform(list)
  .transform((entries) => {
    const limits = new Map<string, BucketLimit | null>();
    for (const entry of entries) {
      const at = entry.lastIndexOf('=');
      const limit = at > 0 ? parseRate(entry.slice(at + 1)) : undefined;
      if (limit === undefined) return undefined;
      limits.set(entry.slice(0, at), limit);
    }
    return limits;
  })
  .refine((v) => v !== undefined, TOKEN_RATES_FORM)
  .transform((v) => v ?? new Map<string, BucketLimit | null>());

/** Each field of the main configuration: every one has a flag as well as its variable. */
type Field = ConfigField<keyof ConfigFlags> & { flag: keyof ConfigFlags };

const FIELDS = {
  upstream: { env: 'COURTSIDE_UPSTREAM', flag: 'upstream', default: DEFAULT_UPSTREAM, schema: siteUrl },
  port: {
    env: 'PORT',
    flag: 'port',
    default: String(DEFAULT_PORT),
    schema: intIn(0, 65535, 'an integer port 0-65535 (0 picks a free port)'),
  },
  host: {
    env: 'HOST',
    flag: 'host',
    default: DEFAULT_HOST,
    schema: z.string().regex(/^[A-Za-z0-9.:[\]-]+$/, 'a host name or IP address, e.g. 0.0.0.0 or 127.0.0.1'),
  },
  redisUrl: {
    env: 'REDIS_URL',
    flag: 'redis',
    default: undefined,
    schema: z.string().superRefine((v, ctx) => {
      try {
        parseRedisUrl(v);
      } catch (err) {
        if (!(err instanceof InvalidRedisUrlError)) throw err;
        // The parser names the part at fault (scheme, host, port, master name, db...).
        ctx.addIssue({ code: 'custom', message: `a Redis URL whose ${err.part} is valid (${err.reason})` });
      }
    }),
  },
  prefix: {
    env: 'COURTSIDE_PREFIX',
    flag: 'prefix',
    default: DEFAULT_PREFIX,
    schema: z
      .string()
      .refine(
        (v) => v.length >= 1 && v.length <= 64 && PREFIX_PATTERN.test(v),
        'up to 64 letters, digits or : . _ - with at most one {hash tag}, e.g. courtside: or {courtside}:',
      ),
  },
  leagues: {
    env: 'COURTSIDE_LEAGUES',
    flag: 'leagues',
    default: DEFAULT_LEAGUES.join(','),
    schema: z
      .string()
      .transform(list)
      .refine(
        (ls) => ls.length > 0 && ls.every((l) => (LEAGUES as readonly string[]).includes(l)),
        `a comma-separated list of ${LEAGUES.join(', ')}`,
      )
      .transform((ls) => [...new Set(ls)] as League[]),
  },
  summaryIntervalMs: {
    env: 'COURTSIDE_SUMMARY_INTERVAL_MS',
    flag: 'summaryInterval',
    default: String(DEFAULT_SUMMARY_INTERVAL_MS),
    schema: intIn(
      MIN_SUMMARY_INTERVAL_MS,
      3_600_000,
      `an integer number of milliseconds, at least ${MIN_SUMMARY_INTERVAL_MS}`,
    ),
  },
  liveBudget: {
    env: 'COURTSIDE_LIVE_BUDGET',
    flag: 'liveBudget',
    default: String(DEFAULT_LIVE_BUDGET),
    // ESPN's edge blocks an address near 55 requests a second: more than 50 is refused outright.
    schema: intIn(1, 50, 'an integer number of summary requests a second, 1-50'),
  },
  tokens: {
    env: 'COURTSIDE_TOKENS',
    flag: 'tokens',
    default: '',
    schema: z
      .string()
      .transform(list)
      .refine((ts) => ts.every((t) => /^[\x21-\x7e]+$/.test(t) && !t.includes(',')), {
        message: 'a comma-separated list of tokens of printable ASCII without spaces',
      }),
  },
  origins: {
    env: 'COURTSIDE_ORIGINS',
    flag: 'origins',
    default: '',
    schema: z
      .string()
      .transform(list)
      .refine(
        (os) => os.every(isOrigin),
        'a comma-separated list of origins like https://example.com (scheme, host, optional port; no path)',
      ),
  },
  retention: {
    env: 'COURTSIDE_RETENTION',
    flag: 'retention',
    default: String(DEFAULT_RETENTION_PER_LEAGUE),
    schema: intIn(MIN_RETENTION, 100_000_000, `an integer number of events, at least ${MIN_RETENTION}`),
  },
  retentionHours: {
    env: 'COURTSIDE_RETENTION_HOURS',
    flag: 'retentionHours',
    default: String(DEFAULT_RETENTION_HOURS),
    schema: intIn(1, MAX_RETENTION_HOURS, `an integer number of hours from 1 to ${MAX_RETENTION_HOURS}`),
  },
  finishedGameTtlS: {
    env: 'COURTSIDE_FINISHED_GAME_TTL',
    flag: 'finishedGameTtl',
    default: String(DEFAULT_FINISHED_GAME_TTL_S),
    schema: intIn(60, 366 * 86_400, 'an integer number of seconds from 60 to 31622400'),
  },
  previousDayUntil: {
    env: 'COURTSIDE_PREVIOUS_DAY_UNTIL',
    flag: 'previousDayUntil',
    default: DEFAULT_PREVIOUS_DAY_UNTIL,
    schema: z
      .string()
      .regex(
        /^([01][0-9]|2[0-3]):[0-5][0-9]$/,
        'an Eastern wall-clock time HH:MM from 00:00 to 23:59, e.g. 06:00',
      ),
  },
  userAgent: {
    env: 'COURTSIDE_USER_AGENT',
    flag: 'userAgent',
    default: undefined,
    schema: z
      .string()
      .regex(
        /^[\x20-\x7e]{1,256}$/,
        `1-256 printable ASCII characters, of the form ${ACCEPTED_USER_AGENT_FORM}`,
      ),
  },
  forceUserAgent: {
    env: 'COURTSIDE_FORCE_USER_AGENT',
    flag: 'forceUserAgent',
    default: 'false',
    schema: z
      .enum(['true', 'false', '1', '0'], { error: 'true or false' })
      .transform((v) => v === 'true' || v === '1'),
  },
  logLevel: {
    env: 'LOG_LEVEL',
    flag: 'logLevel',
    default: 'info',
    schema: z.enum(LOG_LEVELS, { error: `one of ${LOG_LEVELS.join(', ')}` }),
  },
  logFormat: {
    env: 'LOG_FORMAT',
    flag: 'logFormat',
    default: 'auto',
    schema: z.enum(LOG_FORMATS, { error: `one of ${LOG_FORMATS.join(', ')}` }),
  },
  role: {
    env: 'COURTSIDE_ROLE',
    flag: 'role',
    default: 'all',
    schema: z.enum(INSTANCE_ROLES, { error: `one of ${INSTANCE_ROLES.join(', ')}` }),
  },
  waitReplicas: {
    env: 'COURTSIDE_WAIT_REPLICAS',
    flag: 'waitReplicas',
    default: '0',
    schema: intIn(0, 16, 'an integer number of replicas from 0 to 16'),
  },
  onDemandRate: {
    env: 'COURTSIDE_ON_DEMAND_RATE',
    flag: 'onDemandRate',
    default: String(DEFAULT_ON_DEMAND_BUDGET.rate),
    schema: intIn(0, 10_000, 'an integer number of requests a second from 0 to 10000'),
  },
  onDemandBurst: {
    env: 'COURTSIDE_ON_DEMAND_BURST',
    flag: 'onDemandBurst',
    default: String(DEFAULT_ON_DEMAND_BUDGET.burst),
    schema: intIn(1, 10_000, 'an integer number of requests from 1 to 10000'),
  },
  rateLimit: {
    env: 'COURTSIDE_RATE_LIMIT',
    flag: 'rateLimit',
    default: DEFAULT_RATE_LIMIT,
    schema: rateLimit,
  },
  tokenRateLimits: {
    env: 'COURTSIDE_TOKEN_RATE_LIMITS',
    flag: 'tokenRateLimits',
    default: '',
    schema: tokenRateLimits,
  },
  trustedProxies: {
    env: 'COURTSIDE_TRUSTED_PROXIES',
    flag: 'trustedProxies',
    default: '',
    schema: z
      .string()
      .transform(list)
      .refine(
        (as) => as.every((a) => isIP(a) !== 0),
        'a comma-separated list of IP addresses, e.g. 10.0.0.2,127.0.0.1',
      ),
  },
  streamConnectionsPerAddress: {
    env: 'COURTSIDE_STREAM_CONNECTIONS_PER_ADDRESS',
    flag: 'streamConnectionsPerAddress',
    default: String(DEFAULT_STREAM_CONNECTIONS_PER_ADDRESS),
    schema: intIn(1, 1_000_000, 'an integer number of connections, at least 1'),
  },
  subscribeRateLimit: {
    env: 'COURTSIDE_SUBSCRIBE_RATE_LIMIT',
    flag: 'subscribeRateLimit',
    default: DEFAULT_SUBSCRIBE_RATE_LIMIT,
    schema: rateLimit,
  },
} satisfies Record<keyof Config, Field>;

/**
 * Reads the configuration: each field from its flag when given, else its environment variable
 * when set and non-empty, else the default. Throws `InvalidConfigError` naming the source.
 */
export function loadConfig(options: { env?: ConfigEnv; flags?: ConfigFlags } = {}): Config {
  const { values: out, sources } = readConfigFields(FIELDS, options.env ?? process.env, options.flags ?? {});
  const agent = out.userAgent as string | undefined;
  const blocked =
    agent !== undefined && out.forceUserAgent !== true ? blockedUserAgentForm(agent) : undefined;
  if (agent !== undefined && blocked) {
    throw new InvalidConfigError(sources.userAgent ?? 'userAgent', blockedUserAgentMessage(agent, blocked));
  }
  if (typeof out.redisUrl === 'string') {
    // On a Cluster the prefix needs a hash tag; the default becomes one that has it.
    const explicit = sources.prefix?.endsWith('(default)') ? undefined : (out.prefix as string);
    try {
      out.prefix = prefixForTopology(parseRedisUrl(out.redisUrl).topology, explicit);
    } catch (err) {
      if (!(err instanceof InvalidOptionsError)) throw err;
      throw new InvalidConfigError(sources.prefix ?? 'COURTSIDE_PREFIX', err.message);
    }
  }
  if (
    out.waitReplicas !== 0 &&
    (typeof out.redisUrl !== 'string' || parseRedisUrl(out.redisUrl).topology === 'cluster')
  ) {
    throw new InvalidConfigError(
      sources.waitReplicas ?? 'COURTSIDE_WAIT_REPLICAS',
      'waiting for replicas needs REDIS_URL of a single server or Sentinel (a Cluster cannot route WAIT)',
    );
  }
  // Pollers and gateways meet only in the shared log: apart, without Redis, each would be useless.
  if (out.role !== 'all' && out.redisUrl === undefined) {
    throw new InvalidConfigError(
      sources.role ?? 'COURTSIDE_ROLE',
      `role ${String(out.role)} needs REDIS_URL (--redis): pollers and gateways share the log in Redis`,
    );
  }
  const config = out as unknown as Config;
  const unknownToken = [...config.tokenRateLimits.keys()].find((t) => !config.tokens.includes(t));
  if (unknownToken !== undefined) {
    throw new InvalidConfigError(
      sources.tokenRateLimits ?? 'tokenRateLimits',
      'names a token that is not one of COURTSIDE_TOKENS (--tokens); a limit applies to a configured token',
    );
  }
  return config;
}

/** The configuration as it is safe to log: tokens and Redis credentials hidden. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    ...config,
    tokens: config.tokens.length ? `${config.tokens.length} token(s)` : 'none',
    tokenRateLimits: `${config.tokenRateLimits.size} token(s)`,
    redisUrl: config.redisUrl ? redactUrl(config.redisUrl) : undefined,
  };
}

export function redactUrl(url: string): string {
  return redactRedisUrl(url);
}
