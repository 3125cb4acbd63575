import type { Alert } from '../alerts/types.js';
import type { ChatSubscriber } from '../rules-file.js';
import { chatRequest } from './index.js';
import type { ChatKind } from './schema.js';

/** Subscribers that only shape the examples (their URLs and token are placeholders). */
export const EXAMPLE_SUBSCRIBERS: Record<ChatKind, ChatSubscriber> = {
  discord: { id: 'd', kind: 'discord', url: 'https://discord.com/api/webhooks/1/x', events: [] },
  slack: { id: 's', kind: 'slack', url: 'https://hooks.slack.com/services/T1/B1/x', events: [] },
  telegram: {
    id: 't',
    kind: 'telegram',
    token: '1:xxxxxxxxxxxxxxxxxxxxxxxx',
    chatId: -100,
    apiUrl: 'https://api.telegram.org',
    events: [],
  },
  ntfy: { id: 'n', kind: 'ntfy', url: 'https://ntfy.sh/scores', events: [] },
};

/**
 * How one alert reads in each destination, as a fenced text block for docs/alerts.md: the generic
 * webhook's `text`, then what each chat platform gets (built by the same code that sends it).
 */
export function renderAlertExample(alert: Alert): string {
  const out: string[] = [`webhook   text: ${alert.text}`];
  const discord = JSON.parse(chatRequest(EXAMPLE_SUBSCRIBERS.discord, alert).body) as {
    content: string;
    embeds: Array<{
      title: string;
      description?: string;
      color?: number;
      fields: Array<{ name: string; value: string }>;
    }>;
  };
  const embed = discord.embeds[0]!;
  out.push(`discord   content: ${discord.content}`);
  out.push(
    `          embed: ${[
      embed.title,
      embed.description,
      ...embed.fields.map((f) => `${f.name}: ${f.value}`),
      embed.color !== undefined ? `colour #${embed.color.toString(16).padStart(6, '0')}` : 'no colour',
    ]
      .filter(Boolean)
      .join(' | ')}`,
  );
  const slack = JSON.parse(chatRequest(EXAMPLE_SUBSCRIBERS.slack, alert).body) as {
    text: string;
    blocks?: Array<{ text?: { text: string } }>;
    attachments?: Array<{ color: string; blocks: Array<{ text?: { text: string } }> }>;
  };
  const blocks = slack.attachments?.[0]?.blocks ?? slack.blocks ?? [];
  out.push(`slack     text: ${slack.text}`);
  out.push(
    `          blocks: ${(blocks[0]?.text?.text ?? '').split('\n').join(' / ')}${slack.attachments ? ` (bar ${slack.attachments[0]?.color})` : ''}`,
  );
  const telegram = JSON.parse(chatRequest(EXAMPLE_SUBSCRIBERS.telegram, alert).body) as { text: string };
  out.push(`telegram  ${telegram.text.split('\n').join('\n          ')}`);
  const ntfy = chatRequest(EXAMPLE_SUBSCRIBERS.ntfy, alert);
  const title = ntfy.headers.title ?? '';
  const decoded = /^=\?UTF-8\?B\?(.*)\?=$/.exec(title);
  out.push(
    `ntfy      Title: ${decoded ? Buffer.from(decoded[1] ?? '', 'base64').toString('utf8') : title} | Priority: ${ntfy.headers.priority} | Tags: ${ntfy.headers.tags}`,
  );
  out.push(`          ${ntfy.body.split('\n').join('\n          ')}`);
  return ['```text', ...out, '```'].join('\n');
}
