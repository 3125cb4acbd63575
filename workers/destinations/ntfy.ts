import type { SubscriberOf } from '../rules-file.js';
import { alertMessage } from './message.js';
import {
  DEFAULT_RATE_LIMIT_WAIT_MS,
  answered,
  header,
  isPermanent,
  json,
  secondsToMs,
  type Destination,
} from './types.js';

/**
 * A header value that may hold any text: plain when it is printable ASCII, else RFC 2047
 * (`=?UTF-8?B?...?=`), which ntfy decodes (player names such as Jokić are not ASCII).
 */
function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/**
 * ntfy: publish by `POST <server>/<topic>` with the message as the body and `Title`, `Priority`
 * and `Tags` headers (tags that are emoji short codes show as emojis).
 * https://docs.ntfy.sh/publish/ (limits: https://docs.ntfy.sh/publish/#limitations). Errors are
 * JSON `{code, http, error}`; a 429 may carry `Retry-After`.
 */
export const ntfy: Destination<SubscriberOf<'ntfy'>> = {
  request(sub, alert) {
    const m = alertMessage(alert);
    return {
      url: sub.url,
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        title: headerText(`${m.league}: ${m.headline}`),
        priority: String(sub.priority ?? m.priority),
        tags: m.tags.join(','),
        ...(sub.token ? { authorization: `Bearer ${sub.token}` } : {}),
      },
      body: m.lines.join('\n') || m.headline,
    };
  },
  read(answer) {
    if (answer.status >= 200 && answer.status < 300) return { type: 'sent' };
    const body = json(answer);
    const message = typeof body?.error === 'string' ? body.error : answer.text;
    if (answer.status === 429) {
      const waitMs = secondsToMs(header(answer, 'retry-after')) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
      return { type: 'rate-limited', waitMs, reason: answered(429, message) };
    }
    const reason = answered(answer.status, message);
    return isPermanent(answer.status) ? { type: 'permanent', reason } : { type: 'retry', reason };
  },
};
