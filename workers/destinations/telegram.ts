import type { SubscriberOf } from '../rules-file.js';
import { alertMessage } from './message.js';
import {
  DEFAULT_RATE_LIMIT_WAIT_MS,
  answered,
  isPermanent,
  json,
  secondsToMs,
  type Destination,
} from './types.js';

/** The characters Telegram's HTML parse mode needs escaped. */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Telegram: the Bot API's `sendMessage` (`POST <api>/bot<token>/sendMessage`, JSON) with HTML
 * text. https://core.telegram.org/bots/api#sendmessage. Every answer is `{ok, ...}`; a 429 names
 * its wait in `parameters.retry_after` (seconds): https://core.telegram.org/bots/api#responseparameters.
 * The token is part of the path: the URL built here never leaves the delivering worker.
 */
export const telegram: Destination<SubscriberOf<'telegram'>> = {
  request(sub, alert) {
    const m = alertMessage(alert);
    const lines = [`${m.emoji} <b>${escape(m.headline)}</b>`, ...m.lines.map(escape)];
    lines.push(`<i>${escape(m.league)}</i>`);
    const body = {
      chat_id: sub.chatId,
      text: lines.join('\n'),
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    };
    return {
      url: `${sub.apiUrl.replace(/\/+$/, '')}/bot${sub.token}/sendMessage`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
  },
  read(answer) {
    const body = json(answer);
    if (answer.status >= 200 && answer.status < 300 && body?.ok !== false) return { type: 'sent' };
    const description = typeof body?.description === 'string' ? body.description : answer.text;
    const parameters = (body?.parameters ?? {}) as { retry_after?: unknown };
    if (answer.status === 429) {
      const waitMs = secondsToMs(parameters.retry_after) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
      return { type: 'rate-limited', waitMs, reason: answered(429, description) };
    }
    const reason = answered(answer.status, description);
    return isPermanent(answer.status) ? { type: 'permanent', reason } : { type: 'retry', reason };
  },
};
