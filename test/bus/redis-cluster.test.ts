import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisBus } from '../../src/bus/redis.js';
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

describe.skipIf(!cluster)(`the bus on a Redis Cluster ${cluster ? '' : `(${reason})`}`, () => {
  it('refuses a prefix without a hash tag, and gives the default one', () => {
    expect(() => createRedisBus({ url: cluster!.url, prefix: 'courtside:' })).toThrow(/no \{hash tag\}/);
  });
});
