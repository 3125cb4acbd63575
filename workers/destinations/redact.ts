import type { SubscriberConfig } from '../rules-file.js';
import { DISCORD_PATH, SLACK_PATH } from './schema.js';

const HIDDEN = '[redacted]';

/**
 * The parts of a subscriber that let anyone post as it: a Telegram bot token, the token in a
 * Discord webhook URL, the secret part of a Slack webhook URL, an ntfy access token. They are
 * kept out of Redis (job data, failed reasons), logs and metrics.
 */
export function secretsOf(sub: SubscriberConfig): string[] {
  switch (sub.kind) {
    case 'webhook':
      return [sub.secret];
    case 'telegram':
      return [sub.token];
    case 'ntfy':
      return sub.token ? [sub.token] : [];
    case 'mqtt':
      return sub.password ? [sub.password] : [];
    case 'discord': {
      const token = DISCORD_PATH.exec(new URL(sub.url).pathname)?.[2];
      return token ? [token] : [];
    }
    case 'slack': {
      const secret = SLACK_PATH.exec(new URL(sub.url).pathname)?.[3];
      return secret ? [secret] : [];
    }
  }
}

/**
 * Where a subscriber posts, fit to show: stored in the job (`webhooks failed` lists it) and used
 * in error messages. `https://api.telegram.org/bot[redacted]/sendMessage (chat -100123)`.
 */
export function displayUrl(sub: SubscriberConfig): string {
  if (sub.kind === 'telegram') {
    return `${sub.apiUrl.replace(/\/+$/, '')}/bot${HIDDEN}/sendMessage (chat ${sub.chatId})`;
  }
  return redact(sub.url, secretsOf(sub));
}

/** `text` with every secret replaced, for anything that leaves the process. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    out = out.split(secret).join(HIDDEN);
    // undici and URL parsers may percent-encode the ':' of a bot token.
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(HIDDEN);
  }
  return out;
}
