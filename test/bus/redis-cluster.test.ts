import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisBus } from '../../src/bus/redis.js';
import { connectRedis } from '../../src/bus/redis-connection.js';
import { GameStore } from '../../workers/alerts/game-store.js';
import type { GameRuleState } from '../../workers/alerts/types.js';
import { Pacer } from '../../workers/destinations/pacing.js';
import { haveRedisServer } from '../support/redis-process.js';
import { startRedisCluster } from '../support/redis-topology.js';
import { busContract } from './bus-contract.js';

/**
 * The whole bus contract against a 3-primary Redis Cluster: every script, MULTI and multi-key
 * read of the bus must touch one slot, or the cluster answers CROSSSLOT and a test fails.
 */
const HAVE_SERVER = await haveRedisServer();
const cluster = HAVE_SERVER ? await startRedisCluster(3) : undefined;
afterAll(async () => cluster?.stop());
const reason = 'redis-server (and redis-cli) not on PATH: the Cluster tests start their own';

busContract(
  'redis cluster',
  cluster &&
    (async ({ retention }) => {
      const bus = createRedisBus({
        url: cluster.url,
        prefix: `{courtside-test-${randomUUID().slice(0, 8)}}:`,
        ...(retention !== undefined ? { retention } : {}),
      });
      return {
        bus,
        advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        leaseTtlMs: 1_500,
        exactRetention: false,
        cleanup: () => bus.close(),
      };
    }),
  reason,
);

describe.skipIf(!cluster)(`courtside's keys on a Redis Cluster ${cluster ? '' : `(${reason})`}`, () => {
  it('the bus refuses a prefix without a hash tag', () => {
    expect(() => createRedisBus({ url: cluster!.url, prefix: 'courtside:' })).toThrow(/no \{hash tag\}/);
  });

  it("the alert worker's game lock and state, and the chat pacing, each run in one slot", async () => {
    const prefix = `{courtside-test-${randomUUID().slice(0, 8)}}:`;
    const connection = connectRedis(cluster!.url, { name: 'courtside-test' });
    try {
      const store = new GameStore(connection, prefix);
      const held = await store.lockAndLoad('mens', '401');
      expect(held).not.toBeNull();
      expect(await store.commit('mens', '401', held!.token, { lastSeq: 1 } as GameRuleState, [1])).toBe(true);
      expect((await store.lockAndLoad('mens', '401'))?.state).toMatchObject({ lastSeq: 1 });

      const pacer = new Pacer(connection, prefix);
      expect(await pacer.reserve('discord:1', 1_000)).toEqual({ waitMs: 0, seq: 1 });
      expect((await pacer.reserve('discord:1', 1_000)).waitMs).toBeGreaterThan(900);
      await pacer.answered('discord:1', 1, 0, 3_000);
      expect(await pacer.heldFor('discord:1', 2)).toBeGreaterThan(2_000);
      await pacer.hold('discord:1', 5_000);
      expect(await pacer.heldFor('discord:1', 1)).toBeGreaterThan(4_000);
    } finally {
      connection.disconnect();
    }
  });
});
