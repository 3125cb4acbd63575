import { describe, expect, it } from 'vitest';
import { InvalidRedisUrlError, parseRedisUrl, redactRedisUrl } from '../../src/bus/redis-url.js';

function failure(url: string): InvalidRedisUrlError {
  try {
    parseRedisUrl(url);
  } catch (err) {
    if (err instanceof InvalidRedisUrlError) return err;
    throw err;
  }
  throw new Error(`${url} was accepted`);
}

describe('parseRedisUrl', () => {
  it('reads a single server with credentials, port and db', () => {
    expect(parseRedisUrl('redis://user:p%40ss@cache.internal:6380/2')).toEqual({
      topology: 'standalone',
      tls: false,
      hosts: [{ host: 'cache.internal', port: 6380 }],
      username: 'user',
      password: 'p@ss',
      db: 2,
    });
    expect(parseRedisUrl('rediss://127.0.0.1')).toMatchObject({ tls: true, hosts: [{ port: 6379 }], db: 0 });
    // One word before @ is a password, as Redis before ACLs had no user names.
    expect(parseRedisUrl('redis://secret@h:1')).toMatchObject({ password: 'secret' });
    expect(parseRedisUrl('redis://:secret@h:1')).toMatchObject({ password: 'secret' });
    expect(parseRedisUrl('redis://[::1]:7000/')).toMatchObject({ hosts: [{ host: '::1', port: 7000 }] });
  });

  it('reads sentinels, the master name, db and the sentinels own credentials', () => {
    expect(
      parseRedisUrl(
        'rediss+sentinel://app:pw@s1:26379,s2,10.0.0.3:26380/mymaster/3?sentinelUsername=sen&sentinelPassword=x%26y',
      ),
    ).toEqual({
      topology: 'sentinel',
      tls: true,
      hosts: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
        { host: '10.0.0.3', port: 26380 },
      ],
      username: 'app',
      password: 'pw',
      db: 3,
      masterName: 'mymaster',
      sentinelUsername: 'sen',
      sentinelPassword: 'x&y',
    });
  });

  it('reads cluster seed nodes', () => {
    expect(parseRedisUrl('redis+cluster://:pw@n1:7000,n2:7001')).toEqual({
      topology: 'cluster',
      tls: false,
      hosts: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
      ],
      password: 'pw',
      db: 0,
    });
    expect(parseRedisUrl('rediss+cluster://n1:7000')).toMatchObject({ topology: 'cluster', tls: true });
  });

  it.each([
    ['http://127.0.0.1', 'scheme', 'redis+sentinel://'],
    ['127.0.0.1:6379', 'scheme', 'redis://host:port'],
    ['redis://', 'host', 'no host'],
    ['redis://a:1,b:2', 'host', 'redis+cluster://'],
    ['redis://h:99999', 'port', '"99999"'],
    ['redis://h:x', 'port', 'not a port'],
    ['redis://h/zero', 'db', '"zero"'],
    ['redis://h/1/2', 'path', '/<db>'],
    ['redis://h?family=6', 'query family', 'unknown parameter'],
    ['redis+sentinel://s1:26379', 'master name', 'missing'],
    ['redis+sentinel://s1:26379/m/x', 'db', '"x"'],
    ['redis+sentinel://s1:26379/m?password=1', 'query password', 'sentinelPassword'],
    ['redis+cluster://n1:7000/1', 'path', 'no databases'],
    ['redis+cluster://n1:7000,bad host', 'host', 'host[:port]'],
  ])('refuses %s naming the %s', (url, part, reason) => {
    const err = failure(url);
    expect(err.code).toBe('INVALID_OPTIONS');
    expect(err.part).toBe(part);
    expect(err.message).toContain(reason);
  });

  it('never shows a password in its errors', () => {
    const err = failure('redis+sentinel://u:hunter2@s1:26379/m/x?sentinelPassword=swordfish');
    expect(err.message).not.toContain('hunter2');
    expect(err.message).not.toContain('swordfish');
  });
});

describe('redactRedisUrl', () => {
  it('hides the node and sentinel passwords and keeps the rest', () => {
    expect(redactRedisUrl('redis://courtside:s3cret@127.0.0.1:1')).toBe('redis://courtside:***@127.0.0.1:1');
    expect(redactRedisUrl('redis://s3cret@h')).toBe('redis://***@h');
    expect(redactRedisUrl('redis+sentinel://a:b@s1,s2/m?sentinelPassword=x&sentinelUsername=y')).toBe(
      'redis+sentinel://a:***@s1,s2/m?sentinelPassword=***&sentinelUsername=y',
    );
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
