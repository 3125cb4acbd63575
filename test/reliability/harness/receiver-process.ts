import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The soak's webhook receiver, run as its own process (`startReceiver` forks it): in the test
 * process it shared the event loop with 2,000 viewers, answered late while they caught up after a
 * Redis restart, and the worker's timed-out (but accepted) deliveries counted as duplicates.
 *
 * argv[2]: the webhook secret. IPC in: `{ op: 'down', value }`, `{ op: 'stats' }`. IPC out: `{ port }`
 * once listening, then `{ accepted: [key, count][], badSignatures }` per `stats`.
 */
type Command = { op: 'down'; value: boolean } | { op: 'stats' };

const secret = process.argv[2] ?? '';
const accepted = new Map<string, number>();
let badSignatures = 0;
let down = false;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (down) {
      res.writeHead(503).end();
      return;
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    const ts = req.headers['x-courtside-timestamp'];
    const expected = Buffer.from(
      'sha256=' +
        createHmac('sha256', secret)
          .update(`${String(ts)}.${raw}`)
          .digest('hex'),
    );
    const given = Buffer.from(String(req.headers['x-courtside-signature']));
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      badSignatures++;
      res.writeHead(401).end();
      return;
    }
    const key = String(req.headers['idempotency-key']);
    accepted.set(key, (accepted.get(key) ?? 0) + 1);
    res.writeHead(200).end();
  });
});

process.on('message', (m: Command) => {
  if (m.op === 'down') down = m.value;
  else process.send?.({ accepted: [...accepted], badSignatures });
});
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
