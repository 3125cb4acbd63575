import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../src/model/events.js';
import { LEAGUES } from '../src/core/leagues.js';
import { InvalidConfigError } from '../src/core/errors.js';
import { closest } from '../src/core/suggest.js';
import {
  DESTINATION_FIELDS,
  DESTINATION_KINDS,
  isDestinationKind,
  type DestinationKind,
} from './destinations/schema.js';
import { expandEnv } from './env-vars.js';
import { BOT_NAME_PATTERN, DEFAULT_BOT, botNameFromFile } from './bots.js';
import { fieldsAt } from './schema-fields.js';

/** The alert rules, by the names used in the rules file and in alert ids. */
export const RULE_NAMES = [
  'final_score',
  'lead_change',
  'close_game',
  'run',
  'player_points',
  'upset_watch',
  'upset',
] as const;
export type RuleName = (typeof RULE_NAMES)[number];

const positiveInt = () =>
  z.int({ error: 'expected a positive integer' }).positive({ error: 'expected a positive integer' });
const period = () => positiveInt().default(4);
const enabled = () => z.boolean({ error: 'expected true or false' }).default(true);

const rulesSchema = z.strictObject({
  final_score: z.strictObject({ enabled: enabled() }),
  lead_change: z.strictObject({ enabled: enabled(), fromPeriod: period() }),
  close_game: z.strictObject({
    enabled: enabled(),
    margin: positiveInt().default(5),
    underSeconds: positiveInt().default(120),
    fromPeriod: period(),
  }),
  run: z.strictObject({ enabled: enabled(), points: positiveInt().default(10) }),
  player_points: z.strictObject({
    enabled: enabled(),
    thresholds: z
      .array(positiveInt(), { error: 'expected a list of positive integers' })
      .min(1)
      .default([30]),
  }),
  upset_watch: z.strictObject({
    enabled: enabled(),
    probability: z
      .number({ error: 'expected a number between 0.5 and 1' })
      .gt(0.5, { error: 'expected a number between 0.5 and 1' })
      .lt(1, { error: 'expected a number between 0.5 and 1' })
      .default(0.75),
    fromPeriod: period(),
  }),
  // A ranked team losing, or trailing late, to an unranked or lower-ranked one (college polls).
  upset: z.strictObject({ enabled: enabled(), underSeconds: positiveInt().default(300) }),
});

const leagueList = z.array(z.enum(LEAGUES, { error: `expected one of ${LEAGUES.join(', ')}` }));
const teamList = z.array(z.string({ error: 'expected a team abbreviation or id' }).min(1));
const conferenceList = z.array(
  z.string({ error: 'expected a conference id' }).regex(/^[0-9]{1,6}$/, {
    error: 'expected a conference id (ESPN group id, digits: "2" ACC, "23" SEC)',
  }),
);
/** `true`: games with a ranked team; a number N: games with a team ranked N or better. */
const RANKED_ERROR =
  'expected true (a ranked team) or a rank from 1 to 25 (a team ranked that high or higher)';
const rankedFilter = z.union(
  [
    z.literal(true, { error: RANKED_ERROR }),
    z.int({ error: RANKED_ERROR }).min(1, { error: RANKED_ERROR }).max(25, { error: RANKED_ERROR }),
  ],
  { error: RANKED_ERROR },
);

/** The fields every kind of subscriber takes. */
const commonFields = {
  /** Names the subscriber in idempotency keys and logs; default: a hash of where it posts. */
  id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, { error: 'expected 1-64 letters, digits, _ . or -' })
    .optional(),
  kind: z.enum(DESTINATION_KINDS).optional(),
  alerts: z
    .array(z.enum([...RULE_NAMES, '*'], { error: `expected one of ${RULE_NAMES.join(', ')} or *` }))
    .optional(),
  leagues: leagueList.optional(),
  teams: teamList.optional(),
  conferences: conferenceList.optional(),
  ranked: rankedFilter.optional(),
};

const subscriberSchemas = {
  webhook: z.strictObject({
    ...commonFields,
    ...DESTINATION_FIELDS.webhook,
    events: z
      .array(z.enum(EVENT_TYPES as [EventType, ...EventType[]], { error: `expected an event type` }))
      .default([]),
  }),
  discord: z.strictObject({ ...commonFields, ...DESTINATION_FIELDS.discord }),
  slack: z.strictObject({ ...commonFields, ...DESTINATION_FIELDS.slack }),
  telegram: z.strictObject({ ...commonFields, ...DESTINATION_FIELDS.telegram }),
  ntfy: z.strictObject({ ...commonFields, ...DESTINATION_FIELDS.ntfy }),
  mqtt: z.strictObject({ ...commonFields, ...DESTINATION_FIELDS.mqtt }),
};

type Parsed<K extends DestinationKind> = z.output<(typeof subscriberSchemas)[K]>;
/** One subscriber of each kind, with its id and kind filled in; chat kinds take no raw events. */
export type SubscriberOf<K extends DestinationKind> = Omit<Parsed<K>, 'id' | 'kind'> & {
  id: string;
  kind: K;
  events: EventType[];
};
export type SubscriberConfig = { [K in DestinationKind]: SubscriberOf<K> }[DestinationKind];
export type ChatSubscriber = Exclude<SubscriberConfig, { kind: 'webhook' | 'mqtt' }>;
export type MqttSubscriber = SubscriberOf<'mqtt'>;

const fileSchema = z.strictObject({
  /** The bot this file runs (its queue, its state); default: the file's name without extension. */
  name: z.string().regex(BOT_NAME_PATTERN, { error: 'expected 1-64 letters, digits, _ . or -' }).optional(),
  leagues: leagueList.default([...LEAGUES]),
  teams: teamList.optional(),
  conferences: conferenceList.optional(),
  ranked: rankedFilter.optional(),
  rules: z
    .strictObject({
      final_score: rulesSchema.shape.final_score.optional(),
      lead_change: rulesSchema.shape.lead_change.optional(),
      close_game: rulesSchema.shape.close_game.optional(),
      run: rulesSchema.shape.run.optional(),
      player_points: rulesSchema.shape.player_points.optional(),
      upset_watch: rulesSchema.shape.upset_watch.optional(),
      upset: rulesSchema.shape.upset.optional(),
    })
    .optional(),
  subscribers: z.array(z.unknown()).default([]),
  allowPrivateAddresses: z.boolean({ error: 'expected true or false' }).default(false),
  staleAfterSeconds: positiveInt().default(600),
  attempts: positiveInt().max(50, { error: 'expected at most 50' }).default(8),
  // 5 s doubling over 8 attempts spans ~10 minutes, the staleness horizon.
  backoffMs: positiveInt().default(5_000),
  timeoutMs: positiveInt().default(10_000),
});

type Rules = z.output<typeof rulesSchema>;
export type RuleSettings = { [K in RuleName]: Rules[K] };

export interface AlertsConfig extends Omit<z.output<typeof fileSchema>, 'name' | 'rules' | 'subscribers'> {
  /** The bot's name: the file's `name`, else the file's name, else `default`. */
  name: string;
  rules: RuleSettings;
  subscribers: SubscriberConfig[];
}

/**
 * Validates a parsed rules file. Omitting `rules` turns every rule on with its defaults; giving
 * `rules` turns on exactly the rules it lists (each may set `enabled: false` too). `${NAME}` in
 * any string is replaced with that environment variable first.
 * Throws `InvalidConfigError` naming the field path, e.g. `rules.close_game.margin`.
 */
export function parseAlertsConfig(
  input: unknown,
  env: NodeJS.ProcessEnv = process.env,
  defaultName: string = DEFAULT_BOT,
): AlertsConfig {
  const expanded = expandEnv(input ?? {}, env);
  const result = fileSchema.safeParse(expanded);
  if (!result.success) throw configError(result.error, [], fileSchema);
  const parsed = result.data;
  const rules = {} as Record<RuleName, unknown>;
  for (const name of RULE_NAMES) {
    const given = parsed.rules === undefined ? {} : parsed.rules[name];
    const settings = rulesSchema.shape[name].parse(given ?? { enabled: false });
    rules[name] = settings;
  }
  const seen = new Set<string>();
  const subscribers = parsed.subscribers.map((raw, i) => {
    const s = parseSubscriber(raw, i);
    if (s.kind === 'mqtt' && s.mode === 'homeassistant' && !s.teams) {
      // Each followed team is a Home Assistant device: the file's teams, when the subscriber names none.
      if (!parsed.teams) {
        throw new InvalidConfigError(
          `subscribers.${i}.teams`,
          'missing: the teams to make Home Assistant devices of, e.g. [BOS, LAL] (abbreviations or ESPN ids)',
        );
      }
      s.teams = parsed.teams;
    }
    if (seen.has(s.id))
      throw new InvalidConfigError(`subscribers.${i}.id`, `duplicate subscriber id ${s.id}`);
    seen.add(s.id);
    return s;
  });
  return { ...parsed, name: parsed.name ?? defaultName, rules: rules as RuleSettings, subscribers };
}

/**
 * A problem zod found, as an error naming its field path under `at`; an unknown field gets the
 * closest field `schema` knows there, as a mistyped flag does.
 */
function configError(error: z.ZodError, at: string[], schema: z.ZodType): InvalidConfigError {
  // A misspelt field first: it is why the field it was meant to be is reported missing.
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  const path = [...at, ...(issue?.path.map(String) ?? [])];
  if (issue?.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '?';
    const meant = closest(key, fieldsAt(schema, issue.path));
    return new InvalidConfigError(
      [...path, key].join('.'),
      `unknown field${meant ? `; did you mean ${meant}?` : ''}`,
    );
  }
  return new InvalidConfigError(path.join('.') || '(root)', issue?.message ?? 'invalid');
}

function parseSubscriber(raw: unknown, i: number): SubscriberConfig {
  const at = ['subscribers', String(i)];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InvalidConfigError(at.join('.'), 'expected an object');
  }
  const kind = (raw as { kind?: unknown }).kind ?? 'webhook';
  if (!isDestinationKind(kind)) {
    throw new InvalidConfigError(`${at.join('.')}.kind`, `expected one of ${DESTINATION_KINDS.join(', ')}`);
  }
  const result = subscriberSchemas[kind].safeParse(raw);
  if (!result.success) throw configError(result.error, at, subscriberSchemas[kind]);
  const parsed = result.data as Parsed<DestinationKind> & { events?: EventType[] };
  const id = parsed.id ?? createHash('sha256').update(addressOf(parsed)).digest('hex').slice(0, 12);
  return { ...parsed, id, kind, events: parsed.events ?? [] } as SubscriberConfig;
}

/** What a default subscriber id hashes: where it posts (a Telegram bot posts to a chat). */
function addressOf(s: Parsed<DestinationKind>): string {
  return 'token' in s && 'chatId' in s ? `telegram:${s.token}:${s.chatId}` : (s as { url: string }).url;
}

/** Reads a rules file: YAML for .yaml/.yml, JSON otherwise. */
export async function loadAlertsConfig(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AlertsConfig> {
  return parseAlertsConfig(await readRulesFile(file), env, botNameFromFile(file));
}

/**
 * Only the `rules` part of a rules file, checked as the alert worker checks it: what the daemon
 * needs for its lower thirds (`courtside serve --rules`), so that one file configures both. The
 * rest (subscribers, their `${NAME}` secrets) is the worker's and is not read, so the daemon
 * needs none of the worker's environment. A file without `rules` gives every rule its defaults.
 */
export async function loadRuleSettings(file: string): Promise<RuleSettings> {
  const data = await readRulesFile(file);
  const rules = typeof data === 'object' && data !== null ? (data as { rules?: unknown }).rules : undefined;
  return parseAlertsConfig(rules === undefined ? {} : { rules }).rules;
}

async function readRulesFile(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return /\.ya?ml$/i.test(extname(file)) ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    throw new InvalidConfigError(
      file,
      `not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(err as Error).message}`,
    );
  }
}

/** The configuration used when no rules file is given: every rule on, no subscribers. */
export function defaultAlertsConfig(): AlertsConfig {
  return parseAlertsConfig({});
}
