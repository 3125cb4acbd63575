import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { createAlertWorker } from '../../workers/alerts/worker.js';
import { createEventProducer } from '../../workers/producer.js';
import { EVENTS_QUEUE, bullPrefix, prefixForRedis } from '../../workers/queues.js';
import { parseAlertsConfig } from '../../workers/rules-file.js';
import { createWebhookWorker } from '../../workers/webhooks/worker.js';

// Nothing listens here: a factory that refuses its prefix must do so before it connects.
const CLUSTER_URL = 'redis+cluster://127.0.0.1:1,127.0.0.1:2';

describe('the prefix of workers and producers', () => {
  it('defaults to the hash-tagged prefix on a Cluster, and to courtside: elsewhere', () => {
    expect(prefixForRedis(CLUSTER_URL, undefined)).toBe('{courtside}:');
    expect(bullPrefix(prefixForRedis(CLUSTER_URL, undefined), EVENTS_QUEUE)).toBe(
      'courtside:{courtside-events}',
    );
    expect(prefixForRedis('redis://127.0.0.1:6379', undefined)).toBe('courtside:');
    expect(prefixForRedis('redis+sentinel://127.0.0.1:26379/main', undefined)).toBe('courtside:');
    expect(prefixForRedis(CLUSTER_URL, 'app:{cs}:')).toBe('app:{cs}:');
    expect(prefixForRedis('redis://127.0.0.1:6379', 'app:')).toBe('app:');
  });

  it('refuses an untagged prefix on a Cluster in every library factory, before connecting', () => {
    const config = parseAlertsConfig({}, {});
    const factories = {
      producer: () => createEventProducer({ redisUrl: CLUSTER_URL, prefix: 'app:' }),
      alerts: () => createAlertWorker({ redisUrl: CLUSTER_URL, prefix: 'app:', config }),
      webhooks: () => createWebhookWorker({ redisUrl: CLUSTER_URL, prefix: 'app:', config }),
    };
    for (const [name, create] of Object.entries(factories)) {
      let error: unknown;
      try {
        create();
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(InvalidOptionsError);
      expect(String(error), name).toMatch(/prefix "app:" has no \{hash tag\}/);
    }
  });
});
