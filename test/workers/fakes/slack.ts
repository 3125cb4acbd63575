import { startFakePlatform, type Fault, type FakeRequest } from './fake-platform.js';

export const SLACK_WEBHOOK_PATH = '/services/T0FAKE01/B0FAKE02/fakeSlackSecret123';
const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/**
 * Slack's incoming webhook: `200 ok` as plain text; errors as plain-text codes (403
 * `invalid_token`, 404 `no_service`, 500 `rollup_error`); a 429 with `Retry-After` in seconds.
 */
export function startFakeSlack(script?: (req: FakeRequest) => Fault | null) {
  return startFakePlatform(
    {
      route: (method, path) => method === 'POST' && path === SLACK_WEBHOOK_PATH,
      ok: () => ({ status: 200, headers: TEXT, body: 'ok' }),
      fault(fault) {
        switch (fault.kind) {
          case 'rate-limit':
            return {
              status: 429,
              headers: { ...TEXT, 'retry-after': String(fault.retryAfterS) },
              body: 'rate_limited',
            };
          case 'unauthorized':
            return { status: 403, headers: TEXT, body: 'invalid_token' };
          case 'not-found':
            return { status: 404, headers: TEXT, body: 'no_service' };
          case 'server-error':
            return { status: 500, headers: TEXT, body: 'rollup_error' };
        }
      },
    },
    script,
  );
}
