import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseAlertsConfig } from '../../../workers/rules-file.js';
import { displayUrl } from '../../../workers/destinations/redact.js';

const DISCORD = 'https://discord.com/api/webhooks/1234567890/abcDEF_ghi-JKL';
const SLACK = 'https://hooks.slack.com/services/T0001/B0002/XXXXsecretXXXX';
const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

/** The message of the error a rules file is refused with. */
function refusal(input: unknown, env: NodeJS.ProcessEnv = {}): string {
  try {
    parseAlertsConfig(input, env);
  } catch (err) {
    expect((err as { code?: string }).code).toBe('INVALID_CONFIG');
    return (err as Error).message;
  }
  throw new Error('expected the rules file to be refused');
}

describe('chat destinations in the rules file', () => {
  it('reads one subscriber of each kind, with defaults', () => {
    const config = parseAlertsConfig(
      {
        subscribers: [
          { kind: 'discord', url: DISCORD },
          { kind: 'slack', url: SLACK, alerts: ['final_score'] },
          { kind: 'telegram', token: TOKEN, chatId: -1001234567890 },
          { kind: 'telegram', id: 'channel', token: TOKEN, chatId: '@courtside_scores' },
          { kind: 'ntfy', url: 'https://ntfy.sh/courtside-lal', priority: 4, teams: ['LAL'] },
          { url: 'https://bot.example.com/hook', secret: 'x'.repeat(16) },
        ],
      },
      {},
    );
    expect(config.subscribers.map((s) => s.kind)).toEqual([
      'discord',
      'slack',
      'telegram',
      'telegram',
      'ntfy',
      'webhook',
    ]);
    const [discord, slack, telegram, channel, ntfy] = config.subscribers;
    expect(discord?.events).toEqual([]);
    expect(slack?.alerts).toEqual(['final_score']);
    expect(telegram).toMatchObject({ chatId: -1001234567890, apiUrl: 'https://api.telegram.org' });
    expect(channel?.id).toBe('channel');
    expect(ntfy).toMatchObject({ priority: 4, teams: ['LAL'] });
    // Default ids are hashes: never the token itself.
    for (const s of config.subscribers) expect(s.id).not.toContain('AAHdq');
  });

  it('shows where a chat subscriber posts without its secret', () => {
    const config = parseAlertsConfig(
      {
        subscribers: [
          { kind: 'discord', url: DISCORD },
          { kind: 'slack', url: SLACK },
          { kind: 'telegram', token: TOKEN, chatId: 42 },
        ],
      },
      {},
    );
    expect(config.subscribers.map(displayUrl)).toEqual([
      'https://discord.com/api/webhooks/1234567890/[redacted]',
      'https://hooks.slack.com/services/T0001/B0002/[redacted]',
      'https://api.telegram.org/bot[redacted]/sendMessage (chat 42)',
    ]);
  });

  it('takes secrets from environment variables, and names an unset one', () => {
    const file = {
      subscribers: [
        { kind: 'discord', url: '${DISCORD_WEBHOOK_URL}' },
        { kind: 'telegram', token: '${TELEGRAM_BOT_TOKEN}', chatId: 42 },
      ],
    };
    const config = parseAlertsConfig(file, { DISCORD_WEBHOOK_URL: DISCORD, TELEGRAM_BOT_TOKEN: TOKEN });
    expect(config.subscribers[0]).toMatchObject({ url: DISCORD });
    expect(config.subscribers[1]).toMatchObject({ token: TOKEN });
    expect(refusal(file, { DISCORD_WEBHOOK_URL: DISCORD })).toBe(
      'subscribers.1.token: environment variable TELEGRAM_BOT_TOKEN is not set',
    );
    expect(refusal(file, { DISCORD_WEBHOOK_URL: '', TELEGRAM_BOT_TOKEN: TOKEN })).toBe(
      'subscribers.0.url: environment variable DISCORD_WEBHOOK_URL is empty',
    );
  });

  it('names the field of a wrong URL form, a missing chat id, an unknown kind', () => {
    expect(refusal({ subscribers: [{ kind: 'discord', url: SLACK }] })).toBe(
      'subscribers.0.url: expected a Discord webhook URL, https://discord.com/api/webhooks/<id>/<token>',
    );
    expect(refusal({ subscribers: [{ kind: 'slack', url: DISCORD }] })).toMatch(
      /^subscribers\.0\.url: expected a Slack incoming-webhook URL/,
    );
    expect(refusal({ subscribers: [{ kind: 'ntfy', url: 'https://ntfy.sh/' }] })).toBe(
      'subscribers.0.url: expected an ntfy topic URL, https://ntfy.sh/<topic>',
    );
    expect(refusal({ subscribers: [{ kind: 'telegram', token: TOKEN }] })).toBe(
      'subscribers.0.chatId: missing: the chat to post to, a number (negative for groups and channels) or @channelname',
    );
    expect(refusal({ subscribers: [{ kind: 'telegram', token: TOKEN, chatId: 'my chat' }] })).toMatch(
      /^subscribers\.0\.chatId: expected a chat id/,
    );
    expect(refusal({ subscribers: [{ kind: 'telegram', token: 'nope', chatId: 1 }] })).toBe(
      'subscribers.0.token: expected a bot token from @BotFather, <bot id>:<secret>',
    );
    expect(refusal({ subscribers: [{ kind: 'teams', url: DISCORD }] })).toBe(
      'subscribers.0.kind: expected one of webhook, discord, slack, telegram, ntfy, mqtt',
    );
    // Raw events go to signed webhooks only.
    expect(refusal({ subscribers: [{ kind: 'discord', url: DISCORD, events: ['game.ended'] }] })).toBe(
      'subscribers.0.events: unknown field',
    );
    expect(refusal({ subscribers: [{ kind: 'ntfy', url: 'https://ntfy.sh/x', priority: 9 }] })).toBe(
      'subscribers.0.priority: expected a priority from 1 (min) to 5 (max)',
    );
  });

  it('never quotes a secret in an error', () => {
    const bad = { subscribers: [{ kind: 'discord', url: `${DISCORD}/extra` }] };
    expect(refusal(bad)).not.toContain('abcDEF');
    const badChat = { subscribers: [{ kind: 'telegram', token: TOKEN, chatId: [] }] };
    expect(refusal(badChat)).not.toContain(TOKEN);
  });
});

describe('MQTT subscribers in the rules file', () => {
  it('reads one with its defaults, the password from the environment, kept out of what is shown', () => {
    const config = parseAlertsConfig(
      {
        subscribers: [
          {
            kind: 'mqtt',
            url: 'mqtt://127.0.0.1:1883',
            teams: ['LAL'],
            username: 'courtside',
            password: '${MQTT_PASSWORD}',
          },
        ],
      },
      { MQTT_PASSWORD: 'hunter2-broker' },
    );
    const [sub] = config.subscribers;
    expect(sub).toMatchObject({
      kind: 'mqtt',
      mode: 'homeassistant',
      topicPrefix: 'courtside',
      discoveryPrefix: 'homeassistant',
      qos: 1,
      retain: true,
      teams: ['LAL'],
      password: 'hunter2-broker',
    });
    expect(displayUrl(sub!)).toBe('mqtt://127.0.0.1:1883');
  });

  it("follows the file's teams when the subscriber names none; plain mode needs no teams", () => {
    const config = parseAlertsConfig({
      teams: ['BOS'],
      subscribers: [
        { kind: 'mqtt', url: 'mqtts://broker.lan:8883' },
        { kind: 'mqtt', url: 'ws://broker.lan:9001/mqtt', mode: 'plain', topicPrefix: 'home/hoops', qos: 0 },
      ],
    });
    expect(config.subscribers.map((s) => s.teams)).toEqual([['BOS'], undefined]);
  });

  it('names the field of a wrong URL, QoS, prefix or mode, and of missing teams', () => {
    const sub = (extra: Record<string, unknown>) => ({
      subscribers: [{ kind: 'mqtt', url: 'mqtt://127.0.0.1:1883', teams: ['LAL'], ...extra }],
    });
    expect(refusal(sub({ url: 'http://127.0.0.1:1883' }))).toBe(
      'subscribers.0.url: expected an MQTT broker URL, mqtt://host:1883 (or mqtts://, ws://, wss://)',
    );
    expect(refusal(sub({ url: 'mqtt://user:pw@127.0.0.1:1883' }))).toMatch(
      /^subscribers\.0\.url: expected .* without credentials \(give username and password instead\)$/,
    );
    expect(refusal(sub({ qos: 3 }))).toBe('subscribers.0.qos: expected a QoS of 0, 1 or 2');
    expect(refusal(sub({ topicPrefix: 'courtside/#' }))).toMatch(
      /^subscribers\.0\.topicPrefix: expected a topic prefix/,
    );
    expect(refusal(sub({ discoveryPrefix: '/ha' }))).toMatch(
      /^subscribers\.0\.discoveryPrefix: expected a topic prefix/,
    );
    expect(refusal(sub({ mode: 'json' }))).toBe('subscribers.0.mode: expected homeassistant or plain');
    expect(refusal(sub({ retian: true }))).toBe('subscribers.0.retian: unknown field; did you mean retain?');
    expect(refusal({ subscribers: [{ kind: 'mqtt', url: 'mqtt://127.0.0.1:1883' }] })).toBe(
      'subscribers.0.teams: missing: the teams to make Home Assistant devices of, e.g. [BOS, LAL] (abbreviations or ESPN ids)',
    );
    expect(refusal(sub({ password: '${MQTT_PASSWORD}' }))).toBe(
      'subscribers.0.password: environment variable MQTT_PASSWORD is not set',
    );
  });
});

describe('the example rules files', () => {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const env = {
    DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/1234567890/abcDEF_ghi-JKL',
    SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0001/B0002/XXXXsecretXXXX',
    TELEGRAM_BOT_TOKEN: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
    MQTT_PASSWORD: 'broker-password',
  };

  it('examples/rules.yaml: each commented chat subscriber is valid once uncommented', () => {
    const text = readFileSync(join(root, 'examples', 'rules.yaml'), 'utf8');
    const uncommented = text.replace(/^ {2}# (- kind:| {2})/gm, '  $1');
    const config = parseAlertsConfig(parseYaml(uncommented), env);
    expect(config.subscribers.map((s) => s.kind)).toEqual([
      'webhook',
      'discord',
      'slack',
      'telegram',
      'ntfy',
      'mqtt',
    ]);
    // As committed, the file has the one webhook subscriber.
    expect(parseAlertsConfig(parseYaml(text), {}).subscribers.map((s) => s.kind)).toEqual(['webhook']);
  });

  it('examples/home-assistant.yaml: two teams to Home Assistant over MQTT', () => {
    const text = readFileSync(join(root, 'examples', 'home-assistant.yaml'), 'utf8');
    const config = parseAlertsConfig(parseYaml(text), {});
    expect(config.subscribers).toEqual([
      expect.objectContaining({ kind: 'mqtt', mode: 'homeassistant', teams: ['LAL', 'BOS'] }),
    ]);
  });

  it('examples/discord-bot.yaml: final scores of one team to a Discord channel', () => {
    const text = readFileSync(join(root, 'examples', 'discord-bot.yaml'), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(3);
    const config = parseAlertsConfig(parseYaml(text), env);
    expect(config.subscribers).toEqual([
      expect.objectContaining({ kind: 'discord', url: env.DISCORD_WEBHOOK_URL, teams: ['LAL'] }),
    ]);
    expect(
      Object.entries(config.rules)
        .filter(([, r]) => r.enabled)
        .map(([n]) => n),
    ).toEqual(['final_score']);
    expect(() => parseAlertsConfig(parseYaml(text), {})).toThrow(
      'subscribers.0.url: environment variable DISCORD_WEBHOOK_URL is not set',
    );
  });
});
