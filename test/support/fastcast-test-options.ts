import { silentLogger } from '../../src/core/log.js';
import type { FastcastClientOptions } from '../../src/espn/fastcast-client.js';

/** A current desktop browser's agent: FastCast's edge refuses others. */
export const BROWSER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/**
 * A FastCast client's options for tests against a local FastCast: short timeouts and backoffs, so
 * that a reconnect or a resubscription takes tens of milliseconds; the rest as `overrides` say.
 */
export function testFastcastOptions(
  discoveryUrl: string,
  overrides: Partial<FastcastClientOptions> & Pick<FastcastClientOptions, 'fetchDocument'>,
): FastcastClientOptions {
  return {
    discoveryUrl,
    userAgent: BROWSER_AGENT,
    origin: 'https://www.espn.com',
    timeoutMs: 2000,
    backoffBaseMs: 50,
    backoffMaxMs: 200,
    retryTopicMs: 100,
    resyncMinMs: 50,
    logger: silentLogger,
    ...overrides,
  };
}
