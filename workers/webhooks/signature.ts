import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`, the `X-Courtside-Signature` header. */
export function signPayload(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * What a receiver does (documented in docs/alerts.md): recompute the signature over the raw body
 * and compare in constant time; refuse timestamps further than `toleranceSeconds` from now, so a
 * captured delivery cannot be replayed later.
 */
export function verifySignature(options: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  body: string;
  toleranceSeconds?: number;
  nowSeconds?: number;
}): boolean {
  const { secret, timestamp, signature, body } = options;
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  // Five minutes covers clock skew and slow retries of one attempt, not a later replay.
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > tolerance) return false;
  const expected = Buffer.from(signPayload(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
