import type { FastcastClientOptions } from '../espn/fastcast-client.js';
import type { DocumentRequest, FetchedDocument } from '../espn/http.js';
import type { Logger } from '../core/log.js';
import type { PushConfig } from './push-config.js';

// FastCast's timeouts and backoff: a socket lost is looked for again within a few seconds (the
// games are polled meanwhile), and at most once a minute while FastCast stays away.
const FASTCAST_TIMEOUT_MS = 5_000;
const FASTCAST_BACKOFF_BASE_MS = 1_000;
const FASTCAST_BACKOFF_MAX_MS = 60_000;
// A topic FastCast does not know now (404) is asked for again after this long.
const FASTCAST_RETRY_TOPIC_MS = 30_000;
// Fresh checkpoints of one game at most this often: a patch that keeps failing must not loop.
const FASTCAST_RESYNC_MIN_MS = 2_000;

/**
 * The FastCast client's options as the daemon runs it, from the push configuration: shared with
 * `courtside record --push`, so that a capture meets FastCast exactly as the daemon would.
 */
export function fastcastClientOptions(
  push: PushConfig,
  fetchDocument: (request: DocumentRequest) => Promise<FetchedDocument>,
  logger: Logger,
): FastcastClientOptions {
  return {
    discoveryUrl: push.fastcastUrl,
    userAgent: push.userAgent,
    origin: push.origin,
    timeoutMs: FASTCAST_TIMEOUT_MS,
    backoffBaseMs: FASTCAST_BACKOFF_BASE_MS,
    backoffMaxMs: FASTCAST_BACKOFF_MAX_MS,
    retryTopicMs: FASTCAST_RETRY_TOPIC_MS,
    resyncMinMs: FASTCAST_RESYNC_MIN_MS,
    subscribeTimeoutMs: push.subscribeTimeoutMs,
    fetchDocument,
    logger,
  };
}
