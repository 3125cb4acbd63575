import { JSON_TYPE, startFakePlatform, type Fault, type FakeRequest } from './fake-platform.js';

export const NTFY_TOPIC = 'courtside-test-topic';

/**
 * ntfy's publish: `200` with the message as JSON (`id`, `time`, `event: message`, `topic`,
 * `title`, `priority`, `tags`); errors `{code, http, error, link}` (42901 too many requests,
 * 40101 unauthorized); a 429 here also carries `Retry-After`.
 */
export function startFakeNtfy(script?: (req: FakeRequest) => Fault | null) {
  let n = 0;
  const error = (http: number, code: number, text: string, headers: Record<string, string> = {}) => ({
    status: http,
    headers: { ...JSON_TYPE, ...headers },
    body: JSON.stringify({ code, http, error: text, link: 'https://ntfy.sh/docs/publish/' }),
  });
  return startFakePlatform(
    {
      route: (method, path) => method === 'POST' && path === `/${NTFY_TOPIC}`,
      ok(req) {
        n += 1;
        const tags = String(req.headers.tags ?? '')
          .split(',')
          .filter(Boolean);
        return {
          status: 200,
          headers: JSON_TYPE,
          body: JSON.stringify({
            id: `fake${n}`,
            time: Math.floor(Date.now() / 1000),
            event: 'message',
            topic: NTFY_TOPIC,
            title: req.headers.title,
            message: req.body,
            priority: Number(req.headers.priority ?? 3),
            tags,
          }),
        };
      },
      fault(fault) {
        switch (fault.kind) {
          case 'rate-limit':
            return error(429, 42901, 'limit reached: too many requests', {
              'retry-after': String(fault.retryAfterS),
            });
          case 'unauthorized':
            return error(401, 40101, 'unauthorized');
          case 'not-found':
            return error(404, 40401, 'page not found');
          case 'server-error':
            return error(500, 50001, 'internal server error');
        }
      },
    },
    script,
  );
}
