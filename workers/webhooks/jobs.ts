import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type { DestinationKind } from '../destinations/schema.js';

/** One webhook delivery job in `courtside-webhooks`. The secret is not stored: workers look it up. */
export interface WebhookJobData {
  subscriberId: string;
  /** The subscriber's kind when queued; absent in jobs queued before there were kinds: `webhook`. */
  destination?: DestinationKind;
  /** Where it goes, fit to show: tokens in chat URLs are redacted (the worker reads the real one). */
  url: string;
  /** `<alert or event id>@<subscriber id>`: the `Idempotency-Key` header, stable across retries. */
  idempotencyKey: string;
  kind: 'alert' | 'event';
  /** The JSON body's value. */
  payload: unknown;
  /** When the delivery was queued, ISO 8601. */
  queuedAt: string;
  /** Wall-clock ms of the event's creation, when known, for latency figures. */
  eventTimeMs?: number;
}

export function idempotencyKey(id: string, subscriberId: string): string {
  return `${id}@${subscriberId}`;
}

/** Deterministic BullMQ job id (no ':'), so the same delivery is never queued twice. */
export function webhookJobId(key: string): string {
  return `w.${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

export function webhookJobOptions(key: string, attempts: number, backoffMs: number): JobsOptions {
  return {
    jobId: webhookJobId(key),
    attempts,
    backoff: { type: 'exponential', delay: backoffMs },
    // A day of completed deliveries keeps jobId de-duplication well past the staleness horizon.
    removeOnComplete: { age: 24 * 3600, count: 100_000 },
    // Failed deliveries stay for `webhooks failed` / `webhooks retry`; bounded so a dead receiver
    // cannot fill Redis.
    removeOnFail: { age: 30 * 24 * 3600, count: 100_000 },
  };
}
