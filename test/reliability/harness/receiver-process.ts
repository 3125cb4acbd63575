import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { startReceiver } from '../../support/receiver.js';

/**
 * The soak's webhook receiver, run as its own process (`startReceiver` in soak.ts forks it): in the
 * test process it shared the event loop with 2,000 viewers, answered late while they caught up
 * after a Redis restart, and the worker's timed-out (but accepted) deliveries counted as duplicates.
 * The signature is checked here with its own HMAC, not the worker's code, so a signing bug shows.
 *
 * argv[2]: the webhook secret. IPC in: `{ op: 'down', value }`, `{ op: 'stats' }`. IPC out: `{ port }`
 * once listening, then `{ accepted: [key, count][], badSignatures }` per `stats`.
 */
type Command = { op: 'down'; value: boolean } | { op: 'stats' };

const secret = process.argv[2] ?? '';
const accepted = new Map<string, number>();
let badSignatures = 0;
let down = false;

function signed(headers: IncomingHttpHeaders, body: string): boolean {
  const ts = String(headers['x-courtside-timestamp']);
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`,
  );
  const given = Buffer.from(String(headers['x-courtside-signature']));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const receiver = await startReceiver((_n, body, headers) => {
  if (down) return 503;
  if (!signed(headers, body)) {
    badSignatures++;
    return 401;
  }
  const key = String(headers['idempotency-key']);
  accepted.set(key, (accepted.get(key) ?? 0) + 1);
  return 200;
});
// The receiver keeps every request it saw; the soak sends tens of thousands, only counts matter.
setInterval(() => receiver.received.splice(0), 10_000).unref();

process.on('message', (m: Command) => {
  if (m.op === 'down') down = m.value;
  else process.send?.({ accepted: [...accepted], badSignatures });
});
process.on('disconnect', () => process.exit(0));
process.send?.({ port: receiver.port });
