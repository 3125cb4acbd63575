import { z } from 'zod';

/**
 * Where a subscriber's alerts go. `webhook` is the signed generic POST (the default); `mqtt`
 * publishes to an MQTT broker (Home Assistant's discovery, or plain JSON); the others post
 * straight to a chat, formatted for it.
 */
export const DESTINATION_KINDS = ['webhook', 'discord', 'slack', 'telegram', 'ntfy', 'mqtt'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];
export type ChatKind = Exclude<DestinationKind, 'webhook' | 'mqtt'>;

export function isDestinationKind(value: unknown): value is DestinationKind {
  return typeof value === 'string' && (DESTINATION_KINDS as readonly string[]).includes(value);
}

const httpUrl = (expected: string) =>
  z.url({ protocol: /^https?$/, error: `expected ${expected}` }).refine(
    (value) => {
      const url = new URL(value);
      return !url.username && !url.password;
    },
    { error: `expected ${expected} without credentials` },
  );

/** `https://discord.com/api/webhooks/<id>/<token>` (also with an API version, `/api/v10/...`). */
export const DISCORD_PATH = /^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([A-Za-z0-9_-]+)\/?$/;
/** `https://hooks.slack.com/services/T.../B.../<secret>`. */
export const SLACK_PATH = /^\/services\/([A-Z0-9]+)\/([A-Z0-9]+)\/([A-Za-z0-9]+)\/?$/;
/** What @BotFather hands out: the bot's numeric id, a colon, then letters, digits, `_` and `-`. */
export const TELEGRAM_TOKEN = /^\d+:[A-Za-z0-9_-]{20,}$/;
/** A numeric chat id (negative for groups and channels) or a public channel's `@username`. */
const TELEGRAM_CHAT = /^(?:-?\d+|@[A-Za-z][A-Za-z0-9_]{3,31})$/;
/** ntfy topics: letters, digits, `_` and `-`, at most 64. */
export const NTFY_PATH = /^\/([A-Za-z0-9_-]{1,64})\/?$/;

const MQTT_URL = 'an MQTT broker URL, mqtt://host:1883 (or mqtts://, ws://, wss://)';

/** A topic prefix: levels of letters, digits, `_` and `-` separated by `/` (no wildcards). */
const mqttTopic = (fallback: string) =>
  z
    .string({ error: 'expected a topic prefix such as courtside or home/courtside' })
    .regex(/^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/, {
      error:
        'expected a topic prefix such as courtside or home/courtside: letters, digits, _ and - between /',
    })
    .default(fallback);

const formedUrl = (pattern: RegExp, expected: string) =>
  httpUrl(expected).refine((value) => pattern.test(new URL(value).pathname), {
    error: `expected ${expected}`,
  });

/**
 * Pacing: at most one request per this many ms to one destination, shared by every worker.
 * Each kind has a default (see `DEFAULT_SPACING_MS`).
 */
const spacing = () =>
  z
    .int({ error: 'expected a whole number of milliseconds, 0 or more' })
    .min(0, { error: 'expected a whole number of milliseconds, 0 or more' })
    .max(60_000, { error: 'expected at most 60000' })
    .optional();

/** The fields each kind takes besides the common ones (id, alerts, leagues, teams). */
export const DESTINATION_FIELDS = {
  webhook: {
    url: httpUrl('an http or https URL'),
    secret: z.string({ error: 'expected a string' }).min(16, { error: 'expected at least 16 characters' }),
  },
  discord: {
    url: formedUrl(DISCORD_PATH, 'a Discord webhook URL, https://discord.com/api/webhooks/<id>/<token>'),
    /** Overrides the webhook's display name. */
    username: z
      .string({ error: 'expected a string' })
      .min(1)
      .max(80, { error: 'expected at most 80 characters' })
      .optional(),
    minIntervalMs: spacing(),
  },
  slack: {
    url: formedUrl(
      SLACK_PATH,
      'a Slack incoming-webhook URL, https://hooks.slack.com/services/T.../B.../...',
    ),
    minIntervalMs: spacing(),
  },
  telegram: {
    token: z
      .string({ error: 'expected a bot token from @BotFather, <bot id>:<secret>' })
      .regex(TELEGRAM_TOKEN, { error: 'expected a bot token from @BotFather, <bot id>:<secret>' }),
    chatId: z.custom<string | number>(
      (value) =>
        (typeof value === 'number' && Number.isSafeInteger(value)) ||
        (typeof value === 'string' && TELEGRAM_CHAT.test(value)),
      {
        error: (issue) =>
          issue.input === undefined
            ? 'missing: the chat to post to, a number (negative for groups and channels) or @channelname'
            : 'expected a chat id, a number (negative for groups and channels) or @channelname',
      },
    ),
    /** The Bot API server; a self-hosted one (or a test's) instead of api.telegram.org. */
    apiUrl: httpUrl('an http or https URL').default('https://api.telegram.org'),
    minIntervalMs: spacing(),
  },
  ntfy: {
    url: formedUrl(NTFY_PATH, 'an ntfy topic URL, https://ntfy.sh/<topic>'),
    /** An access token for a protected topic (`tk_...`), sent as a bearer token. */
    token: z.string({ error: 'expected a string' }).min(1).optional(),
    /** Overrides every alert's priority, 1 (min) to 5 (max). */
    priority: z
      .int({ error: 'expected a priority from 1 (min) to 5 (max)' })
      .min(1, { error: 'expected a priority from 1 (min) to 5 (max)' })
      .max(5, { error: 'expected a priority from 1 (min) to 5 (max)' })
      .optional(),
    minIntervalMs: spacing(),
  },
  mqtt: {
    url: z
      .url({ protocol: /^(mqtts?|wss?)$/, error: `expected ${MQTT_URL}` })
      .refine((value) => !new URL(value).username && !new URL(value).password, {
        error: `expected ${MQTT_URL} without credentials (give username and password instead)`,
      }),
    /** The broker's user; the password is best given as `${NAME}` from the environment. */
    username: z.string({ error: 'expected a string' }).min(1).optional(),
    password: z.string({ error: 'expected a string' }).min(1).optional(),
    /** Default: `courtside-<subscriber id>`. */
    clientId: z
      .string({ error: 'expected a string' })
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, { error: 'expected 1-64 letters, digits, _ . or -' })
      .optional(),
    /** `homeassistant`: discovery configs, a state topic per team and an event entity; `plain`: JSON events. */
    mode: z
      .enum(['homeassistant', 'plain'], { error: 'expected homeassistant or plain' })
      .default('homeassistant'),
    topicPrefix: mqttTopic('courtside'),
    /** Home Assistant's discovery prefix (its MQTT integration's setting, `homeassistant` by default). */
    discoveryPrefix: mqttTopic('homeassistant'),
    qos: z
      .union([z.literal(0), z.literal(1), z.literal(2)], { error: 'expected a QoS of 0, 1 or 2' })
      .default(1),
    /** Retain state, discovery and availability messages (events never are). */
    retain: z.boolean({ error: 'expected true or false' }).default(true),
  },
} as const;

/**
 * Default spacing between two requests to one destination, in ms. Discord publishes no fixed
 * webhook limit (its headers say), but a channel takes about 30 messages a minute: one per 2 s
 * stays under both. Slack asks for one message a second per webhook; Telegram for one a second
 * per chat and 20 a minute per group or channel (ids below zero, or @channel); ntfy.sh refills a
 * visitor's burst at one request per 5 s, and one a second leaves the burst for the busy minutes.
 */
export function defaultSpacingMs(kind: ChatKind, chatId?: string | number): number {
  switch (kind) {
    case 'discord':
      return 2_000;
    case 'slack':
      return 1_000;
    case 'telegram':
      return String(chatId).startsWith('-') || String(chatId).startsWith('@') ? 3_000 : 1_000;
    case 'ntfy':
      return 1_000;
  }
}
