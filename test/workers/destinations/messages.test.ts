import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../workers/alerts/types.js';
import { chatRequest, readAnswer } from '../../../workers/destinations/index.js';
import { alertMessage } from '../../../workers/destinations/message.js';
import { parseAlertsConfig, type ChatSubscriber } from '../../../workers/rules-file.js';
import { evaluateAll } from '../../support/alert-rules.js';
import { GameScript } from '../../support/events.js';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const SUBSCRIBERS = parseAlertsConfig(
  {
    subscribers: [
      { kind: 'discord', url: 'https://discord.com/api/webhooks/1/tok', username: 'Scores' },
      { kind: 'slack', url: 'https://hooks.slack.com/services/T1/B2/sec' },
      { kind: 'telegram', token: TOKEN, chatId: -100123 },
      { kind: 'ntfy', url: 'https://ntfy.sh/scores', token: 'tk_abc' },
    ],
  },
  {},
).subscribers as ChatSubscriber[];
const [DISCORD, SLACK, TELEGRAM, NTFY] = SUBSCRIBERS as [
  ChatSubscriber,
  ChatSubscriber,
  ChatSubscriber,
  ChatSubscriber,
];
const RULES = parseAlertsConfig(
  {
    rules: { final_score: {}, lead_change: {}, close_game: {}, run: {}, player_points: { thresholds: [10] } },
  },
  {},
).rules;

/** Every alert of a scripted game (every rule but the upset watch), with team colours. */
function alerts(): Alert[] {
  const g = new GameScript('401000777');
  g.started();
  for (let i = 0; i < 4; i++)
    g.scores('home', 3, { athlete: '3112335', text: 'Nikola Jokić makes 25-foot three <pointer> & more' });
  g.toPeriod(4, '6:00');
  for (let i = 0; i < 7; i++) g.scores('away', 2, { athlete: '9', text: 'Jayson Tatum makes layup' });
  g.at('1:30');
  g.scores('home', 3, { athlete: '3112335', text: 'Nikola Jokić makes three point jumper' });
  g.ended();
  return evaluateAll(g.events, RULES).alerts.map((a) => ({
    ...a,
    colors: { home: '552583', away: '007a33' },
  }));
}

const ALL = alerts();
const byRule = (rule: string): Alert => {
  const found = ALL.find((a) => a.rule === rule);
  if (!found) throw new Error(`no ${rule} alert in the script`);
  return found;
};

describe('alert messages', () => {
  it('the script gives every rule but the upset watch', () => {
    expect(new Set(ALL.map((a) => a.rule))).toEqual(
      new Set(['final_score', 'lead_change', 'close_game', 'run', 'player_points']),
    );
  });

  it('headlines name the team the alert is about, with its colour', () => {
    expect(alertMessage(byRule('final_score'))).toMatchObject({
      headline: 'Final: BOS 14 - LAL 15',
      detail: 'LAL win 15-14',
      side: 'home',
      colour: '552583',
    });
    const lead = alertMessage(byRule('lead_change'));
    expect(lead.headline).toMatch(/^Lead change: (BOS|LAL) lead \d+-\d+$/);
    expect(lead.colour).toBe(lead.side === 'home' ? '552583' : '007a33');
    expect(alertMessage(byRule('run'))).toMatchObject({
      headline: 'LAL on a 12-0 run',
      side: 'home',
      colour: '552583',
    });
    expect(alertMessage(byRule('player_points')).headline).toBe('Nikola Jokić (LAL) reaches 10 points');
    expect(alertMessage(byRule('close_game'))).toMatchObject({
      headline: 'Close game: LAL by 1, 1:30 4th',
      detail: 'LAL by 1 with 1:30 left in the 4th',
      priority: 4,
    });
  });

  it('Discord: an embed in the team colour, wait=true, no mentions', () => {
    const req = chatRequest(DISCORD, byRule('final_score'));
    expect(req.url).toBe('https://discord.com/api/webhooks/1/tok?wait=true');
    const body = JSON.parse(req.body) as Record<string, unknown> & { embeds: Array<Record<string, unknown>> };
    expect(body).toMatchObject({
      content: '🏁 Final: BOS 14 - LAL 15',
      username: 'Scores',
      allowed_mentions: { parse: [] },
    });
    expect(body.embeds[0]).toMatchObject({
      title: 'BOS 14 - LAL 15',
      description: 'LAL win 15-14',
      color: 0x552583,
    });
  });

  it('Slack: blocks in an attachment of the team colour, a text fallback, mrkdwn escaped', () => {
    const req = chatRequest(SLACK, byRule('player_points'));
    const body = JSON.parse(req.body) as {
      text: string;
      attachments: Array<{ color: string; blocks: Array<{ text?: { text: string } }> }>;
    };
    expect(body.text).toMatch(/^⭐ Nikola Jokić \(LAL\) reaches 10 points \(BOS 0 - LAL 12, 12:00 1st\)$/);
    expect(body.attachments[0]?.color).toBe('#552583');
    expect(body.attachments[0]?.blocks[0]?.text?.text).toContain('three &lt;pointer&gt; &amp; more');
  });

  it('Telegram: HTML text to the chat, escaped, the token only in the URL', () => {
    const req = chatRequest(TELEGRAM, byRule('player_points'));
    expect(req.url).toBe(`https://api.telegram.org/bot${TOKEN}/sendMessage`);
    const body = JSON.parse(req.body) as { chat_id: number; text: string; parse_mode: string };
    expect(body).toMatchObject({ chat_id: -100123, parse_mode: 'HTML' });
    expect(body.text.split('\n')).toEqual([
      '⭐ <b>Nikola Jokić (LAL) reaches 10 points</b>',
      'BOS 0 - LAL 12 · 12:00 1st',
      'Nikola Jokić makes 25-foot three &lt;pointer&gt; &amp; more',
      '<i>NBA</i>',
    ]);
    expect(req.body).not.toContain(TOKEN);
  });

  it('ntfy: title, priority and tags headers; a non-ASCII title RFC 2047-encoded', () => {
    const req = chatRequest(NTFY, byRule('player_points'));
    expect(req.headers.title).toBe(
      `=?UTF-8?B?${Buffer.from('NBA: Nikola Jokić (LAL) reaches 10 points').toString('base64')}?=`,
    );
    expect(req.headers).toMatchObject({
      priority: '3',
      tags: 'basketball,star',
      authorization: 'Bearer tk_abc',
    });
    const close = chatRequest(NTFY, byRule('close_game'));
    expect(close.headers).toMatchObject({
      title: 'NBA: Close game: LAL by 1, 1:30 4th',
      priority: '4',
      tags: 'basketball,stopwatch',
    });
    expect(close.body).toBe('BOS 14 - LAL 15 · 1:30 4th\nLAL by 1 with 1:30 left in the 4th');
  });
});

describe('reading the platforms answers', () => {
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers,
    text: typeof body === 'string' ? body : JSON.stringify(body),
  });

  it('takes each platform rate limit in its own form', () => {
    expect(
      readAnswer(
        'discord',
        answer(429, { message: 'You are being rate limited.', retry_after: 0.75, global: false }),
      ),
    ).toMatchObject({ type: 'rate-limited', waitMs: 750 });
    expect(readAnswer('slack', answer(429, 'rate_limited', { 'retry-after': '3' }))).toMatchObject({
      type: 'rate-limited',
      waitMs: 3000,
    });
    expect(
      readAnswer(
        'telegram',
        answer(429, {
          ok: false,
          error_code: 429,
          description: 'Too Many Requests: retry after 7',
          parameters: { retry_after: 7 },
        }),
      ),
    ).toMatchObject({ type: 'rate-limited', waitMs: 7000 });
    expect(
      readAnswer(
        'ntfy',
        answer(429, { code: 42901, http: 429, error: 'limit reached' }, { 'retry-after': '2' }),
      ),
    ).toMatchObject({ type: 'rate-limited', waitMs: 2000 });
  });

  it("reads what is left of a Discord webhook's bucket", () => {
    expect(
      readAnswer(
        'discord',
        answer(200, { id: '1' }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '1.250' }),
      ),
    ).toEqual({ type: 'sent', bucket: { remaining: 0, resetAfterMs: 1250 } });
    expect(
      readAnswer(
        'discord',
        answer(200, { id: '1' }, { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset-after': '1.250' }),
      ),
    ).toEqual({ type: 'sent', bucket: { remaining: 3, resetAfterMs: 1250 } });
    expect(readAnswer('discord', answer(200, { id: '1' }, { 'x-ratelimit-remaining': 'lots' }))).toEqual({
      type: 'sent',
    });
  });

  it('quotes the platform message on permanent errors and retries 5xx', () => {
    expect(readAnswer('discord', answer(404, { message: 'Unknown Webhook', code: 10015 }))).toEqual({
      type: 'permanent',
      reason: 'answered 404: Unknown Webhook (code 10015)',
    });
    expect(readAnswer('slack', answer(403, 'invalid_token'))).toEqual({
      type: 'permanent',
      reason: 'answered 403: invalid_token',
    });
    expect(
      readAnswer('telegram', answer(401, { ok: false, error_code: 401, description: 'Unauthorized' })),
    ).toEqual({ type: 'permanent', reason: 'answered 401: Unauthorized' });
    expect(readAnswer('ntfy', answer(401, { code: 40101, http: 401, error: 'unauthorized' }))).toEqual({
      type: 'permanent',
      reason: 'answered 401: unauthorized',
    });
    expect(readAnswer('slack', answer(500, 'rollup_error'))).toEqual({
      type: 'retry',
      reason: 'answered 500: rollup_error',
    });
    expect(
      readAnswer('telegram', answer(502, { ok: false, error_code: 502, description: 'Bad Gateway' })).type,
    ).toBe('retry');
  });
});
