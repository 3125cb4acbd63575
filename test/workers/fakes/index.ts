import type { ChatKind } from '../../../workers/destinations/schema.js';
import { DISCORD_WEBHOOK_PATH, startFakeDiscord } from './discord.js';
import type { FakePlatform, FakeRequest, Fault } from './fake-platform.js';
import { NTFY_TOPIC, startFakeNtfy } from './ntfy.js';
import { SLACK_WEBHOOK_PATH, startFakeSlack } from './slack.js';
import { TELEGRAM_TOKEN, startFakeTelegram } from './telegram.js';

export type { FakePlatform, FakeRequest, Fault } from './fake-platform.js';
export { TELEGRAM_TOKEN } from './telegram.js';

export const CHAT_KINDS: readonly ChatKind[] = ['discord', 'slack', 'telegram', 'ntfy'];
/** Telegram's chat in the tests: a supergroup. */
export const TELEGRAM_CHAT = -1001234567890;

/** A fake of `kind` and the rules-file subscriber fields that point at it. */
export async function startFake(
  kind: ChatKind,
  script?: (req: FakeRequest) => Fault | null,
  discordBucket?: { count: number; windowMs: number },
): Promise<{ fake: FakePlatform; subscriber: Record<string, unknown> }> {
  switch (kind) {
    case 'discord': {
      const fake = await startFakeDiscord(script, discordBucket);
      return { fake, subscriber: { kind, url: `${fake.base}${DISCORD_WEBHOOK_PATH}` } };
    }
    case 'slack': {
      const fake = await startFakeSlack(script);
      return { fake, subscriber: { kind, url: `${fake.base}${SLACK_WEBHOOK_PATH}` } };
    }
    case 'telegram': {
      const fake = await startFakeTelegram(script);
      return { fake, subscriber: { kind, token: TELEGRAM_TOKEN, chatId: TELEGRAM_CHAT, apiUrl: fake.base } };
    }
    case 'ntfy': {
      const fake = await startFakeNtfy(script);
      return { fake, subscriber: { kind, url: `${fake.base}/${NTFY_TOPIC}` } };
    }
  }
}

/** What identifies one posted message: the body (and, for ntfy, the title header). */
export function messageKey(kind: ChatKind, headers: Record<string, unknown>, body: string): string {
  return kind === 'ntfy' ? `${String(headers.title)}\n${body}` : body;
}

/** The secrets a fake's subscriber carries, which must never show up outside the worker. */
export const FAKE_SECRETS = [TELEGRAM_TOKEN, 'fake-webhook-token_abc', 'fakeSlackSecret123'];
