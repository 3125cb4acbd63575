import { JSON_TYPE, startFakePlatform, type Fault, type FakeRequest } from './fake-platform.js';

export const TELEGRAM_TOKEN = '123456789:AAFakeTokenForTests_abcdefghijklmnop';

/**
 * The Bot API's sendMessage: `{ok: true, result: Message}`; errors `{ok: false, error_code,
 * description}`; a 429 names its wait in `parameters.retry_after` (seconds). A wrong token is a
 * 401 `Unauthorized`; an unknown method path a 404 `Not Found`.
 */
export function startFakeTelegram(script?: (req: FakeRequest) => Fault | null) {
  let messageId = 100;
  const error = (status: number, description: string, extra: Record<string, unknown> = {}) => ({
    status,
    headers: JSON_TYPE,
    body: JSON.stringify({ ok: false, error_code: status, description, ...extra }),
  });
  return startFakePlatform(
    {
      route: (method, path) => method === 'POST' && path === `/bot${TELEGRAM_TOKEN}/sendMessage`,
      ok(req) {
        const body = JSON.parse(req.body) as { chat_id: number | string; text: string };
        messageId += 1;
        return {
          status: 200,
          headers: JSON_TYPE,
          body: JSON.stringify({
            ok: true,
            result: {
              message_id: messageId,
              from: { id: 123456789, is_bot: true, first_name: 'courtside' },
              chat: { id: body.chat_id, type: 'supergroup' },
              date: Math.floor(Date.now() / 1000),
              text: body.text,
            },
          }),
        };
      },
      fault(fault) {
        switch (fault.kind) {
          case 'rate-limit':
            return error(429, `Too Many Requests: retry after ${fault.retryAfterS}`, {
              parameters: { retry_after: fault.retryAfterS },
            });
          case 'unauthorized':
            return error(401, 'Unauthorized');
          case 'not-found':
            return error(404, 'Not Found');
          case 'server-error':
            return error(502, 'Bad Gateway');
        }
      },
    },
    script,
  );
}
