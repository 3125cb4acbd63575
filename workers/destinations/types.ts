import type { Alert } from '../alerts/types.js';

/** One HTTP request to a chat platform. */
export interface ChatRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The platform's answer, read whole (answers are small: an id, or an error message). */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * What an answer means for the delivery. `rate-limited` waits do not count as failed attempts;
 * `permanent` errors (a bad token, a deleted webhook) go to the failed set at once; `retry` is a
 * failed attempt, retried with backoff.
 */
export type Outcome =
  | {
      type: 'sent';
      /** What the platform says is left of the destination's budget (Discord's headers). */
      bucket?: { remaining: number; resetAfterMs: number };
    }
  | { type: 'rate-limited'; waitMs: number; reason: string }
  | { type: 'permanent'; reason: string }
  | { type: 'retry'; reason: string };

/** A chat platform: how an alert becomes its request, and how to read its answers. */
export interface Destination<S> {
  request(sub: S, alert: Alert): ChatRequest;
  read(answer: Answer): Outcome;
}

/** A header's value (the first, when repeated). */
export function header(answer: Answer, name: string): string | undefined {
  const value = answer.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Seconds (a number, possibly fractional) as whole ms, or undefined when unreadable. */
export function secondsToMs(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.ceil(n * 1000) : undefined;
}

/** The answer's JSON body, or undefined. */
export function json(answer: Answer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(answer.text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// Enough of an error body to say why in the failed list, not enough to bloat Redis.
const REASON_CHARS = 200;

/** `answered 404: Unknown Webhook`, trimmed. */
export function answered(status: number, message: string | undefined): string {
  const text = (message ?? '').replace(/\s+/g, ' ').trim().slice(0, REASON_CHARS);
  return `answered ${status}${text ? `: ${text}` : ''}`;
}

/**
 * The statuses a retry cannot fix: a malformed request, a bad or revoked token, a deleted webhook
 * or channel. Everything else that is not a success or a rate limit is retried with backoff.
 */
export function isPermanent(status: number): boolean {
  return status === 400 || status === 401 || status === 403 || status === 404 || status === 410;
}

/** When a platform names no wait in its 429, this one (then the pacing's own spacing applies). */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 5_000;
