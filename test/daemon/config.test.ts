import { describe, expect, it } from 'vitest';
import { describeConfig, loadConfig } from '../../src/daemon/config.js';
import { InvalidConfigError } from '../../src/core/errors.js';

describe('loadConfig', () => {
  it('gives the documented defaults with an empty environment', () => {
    const config = loadConfig({ env: {} });
    expect(config).toEqual({
      upstream: 'https://site.api.espn.com',
      port: 8080,
      host: '0.0.0.0',
      redisUrl: undefined,
      prefix: 'courtside:',
      leagues: ['mens', 'womens'],
      summaryIntervalMs: 3000,
      liveBudget: 30,
      tokens: [],
      origins: [],
      retention: 250_000,
      retentionHours: 36,
      finishedGameTtlS: 86_400,
      previousDayUntil: '06:00',
      userAgent: undefined,
      forceUserAgent: false,
      logLevel: 'info',
      logFormat: 'auto',
      role: 'all',
      waitReplicas: 0,
      onDemandRate: 10,
      onDemandBurst: 10,
      rateLimit: { rate: 50, burst: 100 },
      tokenRateLimits: new Map(),
      trustedProxies: [],
      streamConnectionsPerAddress: 500,
      subscribeRateLimit: { rate: 20, burst: 100 },
    });
  });

  it('reads every variable from the environment', () => {
    const config = loadConfig({
      env: {
        COURTSIDE_UPSTREAM: 'http://127.0.0.1:4000/',
        PORT: '0',
        HOST: '127.0.0.1',
        REDIS_URL: 'redis://127.0.0.1:6379',
        COURTSIDE_PREFIX: 'cs-test:',
        COURTSIDE_LEAGUES: 'womens, womens',
        COURTSIDE_SUMMARY_INTERVAL_MS: '1500',
        COURTSIDE_LIVE_BUDGET: '12',
        COURTSIDE_TOKENS: 'a1, b2,,',
        COURTSIDE_ORIGINS: 'https://example.com,http://localhost:3000',
        COURTSIDE_RETENTION: '5000',
        COURTSIDE_RETENTION_HOURS: '72',
        COURTSIDE_FINISHED_GAME_TTL: '3600',
        COURTSIDE_PREVIOUS_DAY_UNTIL: '04:30',
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
        COURTSIDE_ROLE: 'gateway',
        COURTSIDE_ON_DEMAND_RATE: '4',
        COURTSIDE_ON_DEMAND_BURST: '8',
        COURTSIDE_RATE_LIMIT: 'off',
        COURTSIDE_TOKEN_RATE_LIMITS: 'a1=2.5/5, b2=off',
        COURTSIDE_TRUSTED_PROXIES: '10.0.0.2, ::1',
        COURTSIDE_STREAM_CONNECTIONS_PER_ADDRESS: '50',
        COURTSIDE_SUBSCRIBE_RATE_LIMIT: '5/10',
      },
    });
    expect(config).toEqual({
      upstream: 'http://127.0.0.1:4000',
      port: 0,
      host: '127.0.0.1',
      redisUrl: 'redis://127.0.0.1:6379',
      prefix: 'cs-test:',
      leagues: ['womens'],
      summaryIntervalMs: 1500,
      liveBudget: 12,
      tokens: ['a1', 'b2'],
      origins: ['https://example.com', 'http://localhost:3000'],
      retention: 5000,
      retentionHours: 72,
      finishedGameTtlS: 3600,
      previousDayUntil: '04:30',
      userAgent: undefined,
      forceUserAgent: false,
      logLevel: 'debug',
      logFormat: 'json',
      role: 'gateway',
      waitReplicas: 0,
      onDemandRate: 4,
      onDemandBurst: 8,
      rateLimit: null,
      tokenRateLimits: new Map([
        ['a1', { rate: 2.5, burst: 5 }],
        ['b2', null],
      ]),
      trustedProxies: ['10.0.0.2', '::1'],
      streamConnectionsPerAddress: 50,
      subscribeRateLimit: { rate: 5, burst: 10 },
    });
  });

  it('lets flags win over the environment, and treats empty variables as unset', () => {
    const config = loadConfig({
      env: { PORT: '9000', COURTSIDE_LEAGUES: 'womens', REDIS_URL: '' },
      flags: { port: '0', leagues: 'mens', summaryInterval: '2000', liveBudget: '8', logLevel: 'warn' },
    });
    expect(config.port).toBe(0);
    expect(config.leagues).toEqual(['mens']);
    expect(config.summaryIntervalMs).toBe(2000);
    expect(config.liveBudget).toBe(8);
    expect(config.logLevel).toBe('warn');
    expect(config.redisUrl).toBeUndefined();
  });

  it('accepts the college leagues beside the professional ones; the default stays mens,womens', () => {
    expect(loadConfig({ env: {} }).leagues).toEqual(['mens', 'womens']);
    const config = loadConfig({ env: { COURTSIDE_LEAGUES: 'mens-college,womens-college,mens' } });
    expect(config.leagues).toEqual(['mens-college', 'womens-college', 'mens']);
    expect(loadConfig({ env: {}, flags: { leagues: 'womens-college' } }).leagues).toEqual(['womens-college']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT', 'integer port'],
    [{ PORT: '70000' }, 'PORT', 'integer port'],
    [{ COURTSIDE_UPSTREAM: 'ftp://x' }, 'COURTSIDE_UPSTREAM', 'http://'],
    [{ REDIS_URL: 'http://127.0.0.1' }, 'REDIS_URL', 'redis://'],
    [
      { COURTSIDE_LEAGUES: 'mens,college' },
      'COURTSIDE_LEAGUES',
      'mens, womens, mens-college, womens-college',
    ],
    [
      { COURTSIDE_LEAGUES: 'mens_college' },
      'COURTSIDE_LEAGUES',
      'mens, womens, mens-college, womens-college',
    ],
    [{ COURTSIDE_SUMMARY_INTERVAL_MS: '500' }, 'COURTSIDE_SUMMARY_INTERVAL_MS', 'at least 1000'],
    [{ COURTSIDE_LIVE_BUDGET: '60' }, 'COURTSIDE_LIVE_BUDGET', 'summary requests a second, 1-50'],
    [{ COURTSIDE_RATE_LIMIT: '20' }, 'COURTSIDE_RATE_LIMIT', '<per second>/<burst>'],
    [{ COURTSIDE_TOKEN_RATE_LIMITS: 'a1' }, 'COURTSIDE_TOKEN_RATE_LIMITS', '<token>=<limit>'],
    [{ COURTSIDE_TOKEN_RATE_LIMITS: 'zz=1/1' }, 'COURTSIDE_TOKEN_RATE_LIMITS', 'not one of COURTSIDE_TOKENS'],
    [{ COURTSIDE_TRUSTED_PROXIES: 'proxy.local' }, 'COURTSIDE_TRUSTED_PROXIES', 'IP addresses'],
    [{ COURTSIDE_ON_DEMAND_BURST: '0' }, 'COURTSIDE_ON_DEMAND_BURST', 'from 1 to 10000'],
    [{ COURTSIDE_RETENTION: '-1' }, 'COURTSIDE_RETENTION', 'integer number of events'],
    [
      { COURTSIDE_RETENTION_HOURS: '0' },
      'COURTSIDE_RETENTION_HOURS',
      'integer number of hours from 1 to 8784',
    ],
    [{ COURTSIDE_RETENTION_HOURS: '1.5' }, 'COURTSIDE_RETENTION_HOURS', 'integer number of hours'],
    [{ COURTSIDE_RETENTION_HOURS: '36h' }, 'COURTSIDE_RETENTION_HOURS', 'integer number of hours'],
    [{ COURTSIDE_FINISHED_GAME_TTL: '59' }, 'COURTSIDE_FINISHED_GAME_TTL', 'seconds from 60'],
    [{ COURTSIDE_ORIGINS: 'https://example.com/path' }, 'COURTSIDE_ORIGINS', 'origins like'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', 'one of fatal'],
    [{ LOG_FORMAT: 'text' }, 'LOG_FORMAT', 'one of auto, pretty, json'],
    [{ COURTSIDE_PREVIOUS_DAY_UNTIL: '6:00' }, 'COURTSIDE_PREVIOUS_DAY_UNTIL', 'HH:MM from 00:00 to 23:59'],
    [{ COURTSIDE_PREVIOUS_DAY_UNTIL: '24:00' }, 'COURTSIDE_PREVIOUS_DAY_UNTIL', 'Eastern wall-clock time'],
    [{ COURTSIDE_TOKENS: 'has space' }, 'COURTSIDE_TOKENS', 'printable ASCII'],
  ])('refuses %o naming the variable and the expected form', (env, field, expected) => {
    let error: unknown;
    try {
      loadConfig({ env });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as InvalidConfigError).code).toBe('INVALID_CONFIG');
    expect((error as InvalidConfigError).field).toBe(field);
    expect((error as Error).message).toContain(expected);
  });

  it('names the flag when the bad value came from a flag', () => {
    expect(() => loadConfig({ env: {}, flags: { summaryInterval: '10' } })).toThrow(/--summary-interval/);
    expect(() => loadConfig({ env: {}, flags: { redis: 'nope' } })).toThrow(/--redis/);
    expect(() => loadConfig({ env: {}, flags: { retentionHours: '0' } })).toThrow(/--retention-hours/);
    expect(loadConfig({ env: {}, flags: { retentionHours: '48' } }).retentionHours).toBe(48);
  });

  it('hides tokens and Redis passwords when described for logs', () => {
    const config = loadConfig({
      env: { COURTSIDE_TOKENS: 'secret1', REDIS_URL: 'redis://user:pw@127.0.0.1:6379' },
    });
    const text = JSON.stringify(describeConfig(config));
    expect(text).not.toContain('secret1');
    expect(text).not.toContain(':pw@');
    expect(text).toContain('1 token(s)');
  });

  it('reads Sentinel and Cluster URLs, naming the part of a wrong one', () => {
    const sentinel = 'redis+sentinel://:pw@127.0.0.1:26379,127.0.0.1:26380/courtside/1';
    expect(loadConfig({ env: { REDIS_URL: sentinel } }).redisUrl).toBe(sentinel);
    expect(() => loadConfig({ env: { REDIS_URL: 'redis+sentinel://127.0.0.1:26379' } })).toThrow(
      /REDIS_URL: invalid value .*; expected a Redis URL whose master name is valid/,
    );
    expect(() => loadConfig({ env: {}, flags: { redis: 'redis+cluster://n1:7000/2' } })).toThrow(
      /--redis: .*whose path is valid \(a Redis Cluster has no databases/,
    );
  });

  it('gives a Cluster a hash-tagged prefix and refuses one without a tag', () => {
    const cluster = 'redis+cluster://127.0.0.1:7000,127.0.0.1:7001';
    expect(loadConfig({ env: { REDIS_URL: cluster } }).prefix).toBe('{courtside}:');
    expect(loadConfig({ env: { REDIS_URL: cluster, COURTSIDE_PREFIX: 'app:{cs}:' } }).prefix).toBe(
      'app:{cs}:',
    );
    // A tagged prefix is fine on a single server too; an untagged one stays as it was.
    expect(loadConfig({ env: { REDIS_URL: 'redis://h', COURTSIDE_PREFIX: '{cs}:' } }).prefix).toBe('{cs}:');
    expect(loadConfig({ env: { REDIS_URL: 'redis://h' } }).prefix).toBe('courtside:');
    expect(() => loadConfig({ env: { REDIS_URL: cluster, COURTSIDE_PREFIX: 'cs:' } })).toThrow(
      /COURTSIDE_PREFIX: prefix "cs:" has no \{hash tag\}/,
    );
    expect(() => loadConfig({ env: { COURTSIDE_PREFIX: '{a}{b}:' } })).toThrow(/at most one \{hash tag\}/);
    expect(() => loadConfig({ env: { REDIS_URL: cluster }, flags: { waitReplicas: 1 } })).toThrow(
      /--wait-replicas: .*a Cluster cannot route WAIT/,
    );
  });
});
