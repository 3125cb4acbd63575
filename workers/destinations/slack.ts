import type { SubscriberOf } from '../rules-file.js';
import { alertMessage } from './message.js';
import {
  DEFAULT_RATE_LIMIT_WAIT_MS,
  answered,
  header,
  isPermanent,
  secondsToMs,
  type Destination,
} from './types.js';

/** Slack's three characters with a meaning in mrkdwn text. */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Slack: an incoming webhook (`POST`, JSON) with blocks and a `text` fallback (what notifications
 * show). https://api.slack.com/messaging/webhooks. Errors are plain-text codes (`invalid_token`,
 * `no_service`, `channel_is_archived`); a 429 carries `Retry-After` in seconds, and posting is
 * limited to about one message a second: https://api.slack.com/docs/rate-limits.
 * The team colour is the bar of the attachment that holds the blocks.
 */
export const slack: Destination<SubscriberOf<'slack'>> = {
  request(sub, alert) {
    const m = alertMessage(alert);
    const lines = [`*${escape(m.headline)}*`, ...m.lines.map(escape)];
    const blocks = [
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: escape(`${m.league} · courtside · ${alert.rule}`) }],
      },
    ];
    // What notifications and clients without blocks show.
    const text =
      alert.rule === 'final_score'
        ? `${m.emoji} ${m.headline}`
        : `${m.emoji} ${m.headline} (${m.scoreLine}, ${m.when ?? ''})`.replace(', )', ')');
    const body = m.colour ? { text, attachments: [{ color: `#${m.colour}`, blocks }] } : { text, blocks };
    return { url: sub.url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  },
  read(answer) {
    if (answer.status >= 200 && answer.status < 300) return { type: 'sent' };
    if (answer.status === 429) {
      const waitMs = secondsToMs(header(answer, 'retry-after')) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
      return { type: 'rate-limited', waitMs, reason: answered(429, answer.text) };
    }
    const reason = answered(answer.status, answer.text);
    return isPermanent(answer.status) ? { type: 'permanent', reason } : { type: 'retry', reason };
  },
};
