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
 * Discord: Execute Webhook (`POST <webhook url>?wait=true`, JSON) with one embed.
 * https://discord.com/developers/docs/resources/webhook#execute-webhook
 * Rate limits: https://docs.discord.com/developers/topics/rate-limits (429 with a JSON
 * `retry_after` in seconds; `X-RateLimit-Remaining` and `X-RateLimit-Reset-After` on every answer).
 */
export const discord: Destination<SubscriberOf<'discord'>> = {
  request(sub, alert) {
    const m = alertMessage(alert);
    const url = new URL(sub.url);
    // wait=true: Discord answers with the message once it is saved, so a 2xx means posted.
    url.searchParams.set('wait', 'true');
    const fields = [
      ...(m.when ? [{ name: 'Clock', value: m.when, inline: true }] : []),
      { name: 'League', value: m.league, inline: true },
    ];
    const body = {
      content: `${m.emoji} ${m.headline}`,
      ...(sub.username ? { username: sub.username } : {}),
      // Play texts are third-party strings: never let one ping @everyone or a role.
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: m.scoreLine,
          ...(m.detail ? { description: m.detail } : {}),
          ...(m.colour ? { color: parseInt(m.colour, 16) } : {}),
          fields,
          footer: { text: `courtside · ${alert.rule}` },
          timestamp: alert.at,
        },
      ],
    };
    return {
      url: url.toString(),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
  },
  read(answer) {
    const body = json(answer);
    if (answer.status >= 200 && answer.status < 300) {
      // What is left of the bucket: the pacing sends no more than that before it resets.
      const remaining = header(answer, 'x-ratelimit-remaining');
      const resetAfterMs = secondsToMs(header(answer, 'x-ratelimit-reset-after'));
      return remaining !== undefined && /^\d+$/.test(remaining) && resetAfterMs !== undefined
        ? { type: 'sent', bucket: { remaining: Number(remaining), resetAfterMs } }
        : { type: 'sent' };
    }
    const message = typeof body?.message === 'string' ? body.message : answer.text;
    const code = typeof body?.code === 'number' ? ` (code ${body.code})` : '';
    if (answer.status === 429) {
      const waitMs =
        secondsToMs(body?.retry_after) ??
        secondsToMs(header(answer, 'retry-after')) ??
        secondsToMs(header(answer, 'x-ratelimit-reset-after')) ??
        DEFAULT_RATE_LIMIT_WAIT_MS;
      const scope = body?.global === true ? 'global' : (header(answer, 'x-ratelimit-scope') ?? 'webhook');
      return { type: 'rate-limited', waitMs, reason: `${answered(429, message)} (${scope} limit)` };
    }
    const reason = answered(answer.status, `${message}${code}`);
    return isPermanent(answer.status) ? { type: 'permanent', reason } : { type: 'retry', reason };
  },
};
