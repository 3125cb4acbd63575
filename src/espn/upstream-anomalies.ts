import type { Logger } from '../core/log.js';
import { upstreamAnomalies } from '../core/metrics.js';

/**
 * Answers that say ESPN changed something: a status code it did not use before, a body that does
 * not parse, an empty body, an edge block. Each is counted in `/metrics`
 * (`courtside_upstream_anomalies_total{kind}`) and logged once per kind and process, so a change
 * shows up in the logs the first time without one line per poll after it.
 */
export type AnomalyKind = 'unknown_status' | 'unparsable_body' | 'empty_body' | 'blocked';

// The statuses ESPN is known to answer: success, not-modified, its 400 and 404 errors, rate
// limiting and server trouble. Any other is new.
const KNOWN_STATUSES: ReadonlySet<number> = new Set([200, 304, 400, 404, 429, 500, 502, 503, 504]);

const logged = new Set<AnomalyKind>();

export function isKnownStatus(status: number): boolean {
  return KNOWN_STATUSES.has(status);
}

export function noteAnomaly(
  kind: AnomalyKind,
  logger: Logger,
  details: { readonly operation: string; readonly url: string; readonly detail?: string | number },
): void {
  upstreamAnomalies.inc({ kind });
  if (logged.has(kind)) return;
  logged.add(kind);
  logger.warn(
    {
      kind,
      operation: details.operation,
      url: details.url,
      ...(details.detail !== undefined ? { detail: details.detail } : {}),
    },
    `upstream answered something new (${kind}); logged once per kind, counted in courtside_upstream_anomalies_total`,
  );
}
