import { z } from 'zod';
import { DEFAULT_RECONCILE_MS } from '../../streams/engine-config.js';
import { DEFAULT_SUBSCRIBE_TIMEOUT_MS } from '../espn/fastcast-client.js';
import {
  httpUrl,
  intIn,
  isOrigin,
  readConfigFields,
  type ConfigEnv,
  type ConfigField,
} from './config-fields.js';
import { DISCOVERY_PATH } from '../espn/fastcast-wire.js';
import { DEFAULT_UPSTREAM } from './config.js';

/**
 * Configuration of live games over FastCast, ESPN's push service (docs/upstream.md, "FastCast").
 * Read beside the main configuration, from the environment and `courtside serve`'s flags (flags
 * win); every error names the variable or flag and the expected form.
 */
export interface PushConfig {
  /** FastCast's discovery URL; `http://` gives a `ws://` socket, `https://` a `wss://` one. */
  fastcastUrl: string;
  /** User-Agent sent to FastCast: a browser's, as FastCast refuses others. */
  userAgent: string;
  /** Origin sent with the upgrade: FastCast refuses any but ESPN's site. */
  origin: string;
  /** While push is healthy, the summary is polled this often, for reconciliation only. */
  reconcileMs: number;
  /** A subscription with no checkpoint (`H`) within this long is "no topic": the game is polled. */
  subscribeTimeoutMs: number;
}

export interface PushFlags {
  push?: string;
  fastcastUrl?: string;
  reconcileInterval?: string | number;
}

/**
 * Where the FastCast URL came from: ESPN's default, a setting (`--fastcast-url` or
 * `COURTSIDE_FASTCAST_URL`), or the upstream's own discovery path, when the site API is another
 * upstream (the simulator) and no FastCast was named.
 */
export type FastcastDiscovery =
  { from: 'espn' } | { from: 'setting'; name: string } | { from: 'upstream'; upstream: string };

/** The push configuration as read, with where its FastCast URL came from. */
export type LoadedPushConfig = PushConfig & { readonly discovery: FastcastDiscovery };

export const DEFAULT_FASTCAST_URL = 'https://fastcast.semfs.engsvc.go.com/public/websockethost';
// FastCast serves ESPN's own pages: it answers browsers (their agent and ESPN's origin), unlike the
// site API, whose edge refuses browser agents and wants a named one.
export const DEFAULT_FASTCAST_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const DEFAULT_FASTCAST_ORIGIN = 'https://www.espn.com';
const MIN_RECONCILE_MS = 1_000;
const MIN_SUBSCRIBE_TIMEOUT_MS = 1_000;
const MAX_SUBSCRIBE_TIMEOUT_MS = 120_000;

const FIELDS = {
  push: {
    env: 'COURTSIDE_PUSH',
    flag: 'push',
    default: 'on',
    schema: z.enum(['on', 'off'], { error: 'on or off' }),
  },
  fastcastUrl: {
    env: 'COURTSIDE_FASTCAST_URL',
    flag: 'fastcastUrl',
    default: DEFAULT_FASTCAST_URL,
    schema: httpUrl(
      `an absolute http:// or https:// URL without query or fragment, e.g. ${DEFAULT_FASTCAST_URL}`,
    ),
  },
  userAgent: {
    env: 'COURTSIDE_FASTCAST_USER_AGENT',
    flag: undefined,
    default: DEFAULT_FASTCAST_USER_AGENT,
    schema: z.string().regex(/^[\x20-\x7e]{1,512}$/, '1-512 printable ASCII characters'),
  },
  origin: {
    env: 'COURTSIDE_FASTCAST_ORIGIN',
    flag: undefined,
    default: DEFAULT_FASTCAST_ORIGIN,
    schema: z
      .string()
      .transform((v) => v.replace(/\/+$/, ''))
      .refine(
        isOrigin,
        `an origin such as ${DEFAULT_FASTCAST_ORIGIN} (scheme, host, optional port; no path)`,
      ),
  },
  reconcileMs: {
    env: 'COURTSIDE_RECONCILE_MS',
    flag: 'reconcileInterval',
    default: String(DEFAULT_RECONCILE_MS),
    schema: intIn(
      MIN_RECONCILE_MS,
      3_600_000,
      `an integer number of milliseconds, at least ${MIN_RECONCILE_MS}`,
    ),
  },
  subscribeTimeoutMs: {
    env: 'COURTSIDE_FASTCAST_SUBSCRIBE_TIMEOUT_MS',
    flag: undefined,
    default: String(DEFAULT_SUBSCRIBE_TIMEOUT_MS),
    schema: intIn(
      MIN_SUBSCRIBE_TIMEOUT_MS,
      MAX_SUBSCRIBE_TIMEOUT_MS,
      `an integer number of milliseconds, ${MIN_SUBSCRIBE_TIMEOUT_MS}-${MAX_SUBSCRIBE_TIMEOUT_MS}`,
    ),
  },
} satisfies Record<'push' | keyof PushConfig, ConfigField<keyof PushFlags>>;

/**
 * The push configuration, or null when push is off. Throws `InvalidConfigError` naming the source.
 * `upstream`, the site API's base URL: when it is not ESPN's and no FastCast URL is set, FastCast
 * is looked for on that upstream (`<upstream>/public/websockethost`, as the simulator serves it),
 * never at ESPN's host, which an offline machine cannot reach.
 */
export function loadPushConfig(
  options: { env?: ConfigEnv; flags?: PushFlags; upstream?: string } = {},
): LoadedPushConfig | null {
  const { values: out, sources } = readConfigFields(FIELDS, options.env ?? process.env, options.flags ?? {});
  if (out.push === 'off') return null;
  const source = sources.fastcastUrl ?? '';
  const { upstream } = options;
  const discovery: FastcastDiscovery = !source.endsWith('(default)')
    ? { from: 'setting', name: source }
    : upstream !== undefined && upstream.replace(/\/+$/, '') !== DEFAULT_UPSTREAM
      ? { from: 'upstream', upstream: upstream.replace(/\/+$/, '') }
      : { from: 'espn' };
  return {
    fastcastUrl:
      discovery.from === 'upstream' ? discovery.upstream + DISCOVERY_PATH : (out.fastcastUrl as string),
    discovery,
    userAgent: out.userAgent as string,
    origin: out.origin as string,
    reconcileMs: out.reconcileMs as number,
    subscribeTimeoutMs: out.subscribeTimeoutMs as number,
  };
}
