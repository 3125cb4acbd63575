// Receives courtside alert webhooks, checks their signature, prints the alert text.
// Run: COURTSIDE_SECRET=... node examples/webhook-receiver.mjs   (listens on PORT, default 9000)
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.COURTSIDE_SECRET ?? 'change-me-to-a-long-random-secret';
const seen = new Set(); // Idempotency-Key values already handled: a retry repeats its key

function verify(headers, rawBody) {
  const timestamp = headers['x-courtside-timestamp'];
  const signature = headers['x-courtside-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !/^\d+$/.test(timestamp))
    return false;
  // Refuse anything older than five minutes, so a captured delivery cannot be replayed later.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const hmac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  const expected = Buffer.from(`sha256=${hmac}`);
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    if (req.method !== 'POST' || !verify(req.headers, raw)) return res.writeHead(401).end();
    const key = req.headers['idempotency-key'];
    if (!seen.has(key)) {
      seen.add(key);
      const body = JSON.parse(raw);
      console.log(body.kind === 'alert' ? body.text : `${body.type} ${body.gameId}`);
    }
    res.writeHead(204).end();
  });
});

server.listen(Number(process.env.PORT ?? 9000), () => {
  console.log(`webhook receiver on http://localhost:${server.address().port}`);
});
