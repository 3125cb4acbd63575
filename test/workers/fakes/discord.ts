import { JSON_TYPE, startFakePlatform, type Fault, type FakeRequest } from './fake-platform.js';

export const DISCORD_WEBHOOK_PATH = '/api/webhooks/1234567890/fake-webhook-token_abc';

/**
 * Discord's Execute Webhook as documented: with `?wait=true` a 200 and the message object;
 * `X-RateLimit-*` headers on every answer; a 429 with JSON `retry_after` (seconds) and
 * `Retry-After`; JSON errors `{message, code}` (10015 Unknown Webhook, 50027 Invalid Webhook
 * Token). The rate limit is the bucket the headers describe: `count` requests, refilled whole
 * `windowMs` after the first.
 */
export function startFakeDiscord(
  script?: (req: FakeRequest) => Fault | null,
  bucket = { count: 5, windowMs: 2_000 },
) {
  let id = 1_100_000_000_000_000_000n;
  const rateHeaders = (remaining: number, resetAfterS: number) => ({
    'x-ratelimit-limit': String(bucket.count),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset-after': resetAfterS.toFixed(3),
    'x-ratelimit-bucket': 'fakebucket',
  });
  return startFakePlatform(
    {
      route: (method, path) => method === 'POST' && path.split('?')[0] === DISCORD_WEBHOOK_PATH,
      ok(req) {
        const { remaining, resetAfterS } = req.bucket!;
        id += 1n;
        const body = JSON.parse(req.body) as Record<string, unknown>;
        return {
          status: 200,
          headers: { ...JSON_TYPE, ...rateHeaders(remaining, resetAfterS) },
          body: JSON.stringify({
            id: String(id),
            type: 0,
            channel_id: '42',
            webhook_id: '1234567890',
            ...body,
          }),
        };
      },
      fault(fault) {
        switch (fault.kind) {
          case 'rate-limit':
            return {
              status: 429,
              headers: {
                ...JSON_TYPE,
                'retry-after': String(Math.ceil(fault.retryAfterS)),
                'x-ratelimit-scope': 'shared',
                ...rateHeaders(0, fault.retryAfterS),
              },
              body: JSON.stringify({
                message: 'You are being rate limited.',
                retry_after: fault.retryAfterS,
                global: false,
              }),
            };
          case 'unauthorized':
            return {
              status: 401,
              headers: JSON_TYPE,
              body: JSON.stringify({ message: 'Invalid Webhook Token', code: 50027 }),
            };
          case 'not-found':
            return {
              status: 404,
              headers: JSON_TYPE,
              body: JSON.stringify({ message: 'Unknown Webhook', code: 10015 }),
            };
          case 'server-error':
            return {
              status: 502,
              headers: { 'content-type': 'text/html' },
              body: '<html>502 Bad Gateway</html>',
            };
        }
      },
    },
    script,
    { ...bucket },
  );
}
