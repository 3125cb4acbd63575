import { afterEach, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import {
  connectRedis,
  reconnectDelay,
  reconnectAfterUnaskedEnd,
  reconnectOnReadonly,
  type RedisConnection,
} from '../../src/bus/redis-connection.js';
import { haveRedisServer, RedisProcess } from '../support/redis-process.js';
import { waitFor } from '../support/wait-for.js';

const HAVE_SERVER = await haveRedisServer();

describe('connectRedis', () => {
  const open: RedisConnection[] = [];
  afterEach(() => {
    for (const c of open.splice(0)) c.disconnect();
  });

  it('opens the kind of connection the URL names, with its options', () => {
    const lazy = { name: 'courtside-test', lazyConnect: true } as const;
    const single = connectRedis('rediss://u:p%40w@cache:6380/3', lazy);
    const sentinel = connectRedis(
      'redis+sentinel://:pw@s1:26379,s2:26380/mymaster/2?sentinelPassword=sp',
      lazy,
    );
    const cluster = connectRedis('redis+cluster://n1:7000,n2:7001', lazy);
    open.push(single, sentinel, cluster);
    expect(single).toBeInstanceOf(Redis);
    expect((single as Redis).options).toMatchObject({
      host: 'cache',
      port: 6380,
      db: 3,
      username: 'u',
      password: 'p@w',
      tls: {},
      connectionName: 'courtside-test',
    });
    expect((sentinel as Redis).options).toMatchObject({
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26380 },
      ],
      name: 'mymaster',
      db: 2,
      password: 'pw',
      sentinelPassword: 'sp',
      role: 'master',
      failoverDetector: true,
    });
    expect(cluster).toBeInstanceOf(Cluster);
    expect((cluster as Cluster).options).toMatchObject({ scaleReads: 'master' });
  });

  it('reconnects from 100 ms on, at most 1 s apart, so a promoted primary is found within a second', () => {
    const delays = Array.from({ length: 40 }, (_, i) => reconnectDelay(i + 1));
    expect(Math.max(...delays)).toBeLessThanOrEqual(1_000);
    expect(delays[0]).toBeGreaterThanOrEqual(50);
    expect(delays[0]).toBeLessThanOrEqual(100);
    // Past the first few attempts every delay sits in the cap's jittered upper half.
    expect(Math.min(...delays.slice(10))).toBeGreaterThanOrEqual(500);
  });

  it('reconnects on READONLY at most once per 5 s per connection, and on nothing else', () => {
    let now = 0;
    const policy = reconnectOnReadonly(() => now);
    const readonly = new Error("READONLY You can't write against a read only replica.");
    expect(policy(new Error('ERR wrong number of arguments'))).toBe(false);
    expect(policy(readonly)).toBe(2);
    now = 4_000;
    expect(policy(readonly)).toBe(false);
    now = 5_001;
    expect(policy(readonly)).toBe(2);
  });

  it.skipIf(!HAVE_SERVER)(
    'a connection that ioredis ended without being asked connects again; one closed on purpose stays closed',
    async () => {
      const server = await RedisProcess.start();
      const admin = new Redis(server.url);
      try {
        // ioredis gives up on its own here (no retry strategy), as it does after a failed connect.
        const ended = new Redis(server.url, { retryStrategy: () => null, connectionName: 'ended' });
        const closed = new Redis(server.url, { retryStrategy: () => null, connectionName: 'closed' });
        for (const conn of [ended, closed]) {
          open.push(conn);
          conn.on('error', () => undefined);
          reconnectAfterUnaskedEnd(conn, () => 100);
          await conn.ping();
        }
        const gone = new Promise((resolve) => ended.once('end', resolve));
        await admin.client('KILL', 'SKIPME', 'yes', 'TYPE', 'normal');
        closed.disconnect();
        await gone;
        await waitFor(() => ended.status === 'ready', 5_000, 'the ended connection back');
        expect(await ended.ping()).toBe('PONG');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(closed.status).toBe('end');
      } finally {
        admin.disconnect();
        await server.stop();
      }
    },
  );

  it.skipIf(!HAVE_SERVER)(
    'a node that stays a replica fails writes with READONLY instead of reconnecting in a loop',
    async () => {
      const primary = await RedisProcess.start();
      const replica = await RedisProcess.start();
      const admin = new Redis(replica.url);
      try {
        await admin.replicaof('127.0.0.1', String(primary.port));
        const conn = connectRedis(replica.url, { name: 'courtside-test', maxRetriesPerRequest: 1 });
        open.push(conn);
        let readies = 0;
        conn.on('ready', () => (readies += 1));
        conn.on('error', () => undefined);
        const failures: string[] = [];
        for (let i = 0; i < 20; i++) {
          await conn.set('k', String(i)).catch((err: Error) => failures.push(err.message));
        }
        expect(failures.length).toBeGreaterThanOrEqual(19);
        expect(failures.some((m) => m.startsWith('READONLY'))).toBe(true);
        // The first READONLY reconnected once; the other nineteen failed at once.
        expect(readies).toBeLessThanOrEqual(2);
      } finally {
        admin.disconnect();
        await replica.stop();
        await primary.stop();
      }
    },
  );
});
