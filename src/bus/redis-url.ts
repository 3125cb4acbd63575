import { InvalidOptionsError } from '../core/errors.js';

/**
 * The one form in which courtside is told where its Redis is (`REDIS_URL`, `--redis`), for every
 * part that connects: a single server, a primary found through Sentinel, or a Cluster.
 *
 *   redis://[user:pass@]host[:port][/db]            rediss:// for TLS
 *   redis+sentinel://[user:pass@]host:port[,host:port...]/<master-name>[/<db>]   rediss+sentinel://
 *   redis+cluster://[user:pass@]host:port[,host:port...]                         rediss+cluster://
 *
 * `user:pass` are the data nodes' credentials. Sentinels that require their own take them from
 * `?sentinelUsername=...&sentinelPassword=...`; with TLS (`rediss+sentinel`) the sentinels are
 * reached over TLS too, as Redis's own TLS setup serves both ports from one configuration.
 */
export type RedisTopology = 'standalone' | 'sentinel' | 'cluster';

export interface RedisHost {
  host: string;
  port: number;
}

export interface RedisTarget {
  topology: RedisTopology;
  tls: boolean;
  /** The server (standalone), the sentinels, or the cluster's seed nodes. */
  hosts: RedisHost[];
  username?: string;
  password?: string;
  /** Logical database; a Cluster has only 0. */
  db: number;
  /** The primary's name as the sentinels know it (`sentinel` only). */
  masterName?: string;
  sentinelUsername?: string;
  sentinelPassword?: string;
}

/** A Redis URL that cannot be used; `part` names the piece of the URL at fault. */
export class InvalidRedisUrlError extends InvalidOptionsError {
  readonly part: string;
  readonly reason: string;

  constructor(url: string, part: string, reason: string) {
    super(`Redis URL ${redactRedisUrl(url)}: ${part}: ${reason}`);
    this.part = part;
    this.reason = reason;
  }
}

const SCHEMES: Record<string, { topology: RedisTopology; tls: boolean }> = {
  redis: { topology: 'standalone', tls: false },
  rediss: { topology: 'standalone', tls: true },
  'redis+sentinel': { topology: 'sentinel', tls: false },
  'rediss+sentinel': { topology: 'sentinel', tls: true },
  'redis+cluster': { topology: 'cluster', tls: false },
  'rediss+cluster': { topology: 'cluster', tls: true },
};

export const REDIS_URL_FORMS =
  'redis://host:port[/db], rediss://..., redis+sentinel://host:port[,host:port...]/<master-name>[/<db>] ' +
  'or redis+cluster://host:port[,host:port...] (rediss+ for TLS)';

const DEFAULT_PORT: Record<RedisTopology, number> = { standalone: 6379, sentinel: 26379, cluster: 6379 };
const SENTINEL_QUERY = new Set(['sentinelUsername', 'sentinelPassword']);

/** Parses a Redis URL; throws `InvalidRedisUrlError` naming the part that is wrong. */
export function parseRedisUrl(url: string): RedisTarget {
  const fail = (part: string, reason: string): never => {
    throw new InvalidRedisUrlError(url, part, reason);
  };
  const head = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s.exec(url.trim());
  if (!head) return fail('scheme', `expected ${REDIS_URL_FORMS}`);
  const schemeName = head[1]!.toLowerCase();
  const scheme = SCHEMES[schemeName];
  if (!scheme)
    return fail(
      'scheme',
      `"${schemeName}://" is not one of ${Object.keys(SCHEMES)
        .map((k) => `${k}://`)
        .join(', ')}`,
    );
  const { topology, tls } = scheme;

  let rest = head[2]!;
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (rest.includes('#')) fail('fragment', 'a Redis URL has no #fragment');
  const slash = rest.indexOf('/');
  const authority = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash + 1) : '';
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : undefined;
  const hostList = at >= 0 ? authority.slice(at + 1) : authority;

  const target: RedisTarget = { topology, tls, hosts: [], db: 0 };
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    const user = decode(colon >= 0 ? userinfo.slice(0, colon) : userinfo, 'user name', fail);
    const pass = colon >= 0 ? decode(userinfo.slice(colon + 1), 'password', fail) : undefined;
    // `redis://:pass@host` (no user) is the classic form of a password-only Redis.
    if (pass === undefined) {
      if (user) target.password = user;
    } else {
      if (user) target.username = user;
      target.password = pass;
    }
  }

  if (hostList === '') fail('host', 'no host given');
  const parts = hostList.split(',');
  if (topology === 'standalone' && parts.length > 1) {
    fail(
      'host',
      'a redis:// URL names one server; list sentinels with redis+sentinel:// or nodes with redis+cluster://',
    );
  }
  target.hosts = parts.map((part) => parseHost(part, DEFAULT_PORT[topology], fail));

  const segments = path === '' ? [] : path.split('/');
  if (segments.at(-1) === '') segments.pop();
  if (topology === 'sentinel') {
    const name = segments[0] === undefined ? '' : decode(segments[0], 'master name', fail);
    if (name === '')
      fail('master name', 'missing: redis+sentinel://host:port[,host:port...]/<master-name>[/<db>]');
    target.masterName = name;
    if (segments.length > 2) fail('path', 'expected /<master-name>[/<db>]');
    if (segments[1] !== undefined) target.db = parseDb(segments[1], fail);
  } else if (topology === 'cluster') {
    if (segments.length > 0) fail('path', 'a Redis Cluster has no databases but 0; give no /path');
  } else {
    if (segments.length > 1) fail('path', 'expected at most /<db>');
    if (segments[0] !== undefined) target.db = parseDb(segments[0], fail);
  }

  if (query !== '') {
    for (const pair of query.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const key = eq >= 0 ? pair.slice(0, eq) : pair;
      const value = eq >= 0 ? decode(pair.slice(eq + 1), `query ${key}`, fail) : '';
      if (topology !== 'sentinel' || !SENTINEL_QUERY.has(key)) {
        const known = topology === 'sentinel' ? `; known: ${[...SENTINEL_QUERY].join(', ')}` : '';
        fail(`query ${key}`, `unknown parameter${known}`);
      }
      if (key === 'sentinelUsername') target.sentinelUsername = value;
      else target.sentinelPassword = value;
    }
  }
  return target;
}

function parseHost(
  text: string,
  defaultPort: number,
  fail: (part: string, reason: string) => never,
): RedisHost {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(.*))?$/.exec(text);
  let host: string;
  let port: string | undefined;
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2];
  } else {
    const colon = text.lastIndexOf(':');
    host = colon >= 0 ? text.slice(0, colon) : text;
    port = colon >= 0 ? text.slice(colon + 1) : undefined;
    if (!/^[A-Za-z0-9._-]+$/.test(host)) {
      fail('host', `"${text}" is not host[:port] (IPv6 addresses in brackets: [::1]:6379)`);
    }
  }
  if (port === undefined || port === '') return { host, port: defaultPort };
  const n = Number(port);
  if (!/^[0-9]+$/.test(port) || n < 1 || n > 65535)
    fail('port', `"${port}" of "${text}" is not a port 1-65535`);
  return { host, port: n };
}

function parseDb(text: string, fail: (part: string, reason: string) => never): number {
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(n)) fail('db', `"${text}" is not a database number`);
  return n;
}

function decode(text: string, part: string, fail: (part: string, reason: string) => never): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return fail(part, 'bad percent-encoding');
  }
}

/** The URL with every password replaced by `***`, safe for logs and error messages. */
export function redactRedisUrl(url: string): string {
  const m = /^([^:/?#]+:\/\/)([^/?#]*)(.*)$/s.exec(url);
  if (!m) return url;
  let authority = m[2]!;
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    // Without a colon the one word is a password (`redis://secret@host`), as ioredis reads it.
    const shown = colon >= 0 ? `${userinfo.slice(0, colon)}:***` : userinfo === '' ? '' : '***';
    authority = `${shown}@${authority.slice(at + 1)}`;
  }
  return `${m[1]!}${authority}${m[3]!.replace(/([?&]sentinelPassword=)[^&#]*/g, '$1***')}`;
}
