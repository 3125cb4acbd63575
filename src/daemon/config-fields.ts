import { z } from 'zod';
import { InvalidConfigError } from '../core/errors.js';

/**
 * One setting of the daemon: its environment variable, its CLI flag (commander's camelCase name;
 * undefined: environment only), its default as text (undefined: unset) and its rule.
 */
export interface ConfigField<Flag extends string = string> {
  env: string;
  flag: Flag | undefined;
  default: string | undefined;
  schema: z.ZodType;
}

export type ConfigEnv = NodeJS.ProcessEnv | Record<string, string | undefined>;

/** A flag as typed on the command line: commander's camelCase name back in kebab case (`--summary-interval`). */
export function flagName(flag: string): string {
  return `--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export interface ConfigValues<K extends string> {
  /** Each field's parsed value; undefined for a field left unset (no flag, no variable, no default). */
  values: Record<K, unknown>;
  /** Where each set field came from: `--flag`, `VARIABLE` or `VARIABLE (default)`. */
  sources: Partial<Record<K, string>>;
}

/**
 * Reads a table of fields: each from its flag when given, else its environment variable when set
 * and non-empty, else its default, parsed by its rule. Throws `InvalidConfigError` naming the flag
 * or variable the value came from and the form that was expected.
 */
export function readConfigFields<K extends string, Flag extends string>(
  fields: Record<K, ConfigField<Flag>>,
  env: ConfigEnv,
  flags: Partial<Record<Flag, string | number | boolean>>,
): ConfigValues<K> {
  const values = {} as Record<K, unknown>;
  const sources: Partial<Record<K, string>> = {};
  for (const key of Object.keys(fields) as K[]) {
    const field: ConfigField<Flag> = fields[key];
    const flagValue = field.flag !== undefined ? flags[field.flag] : undefined;
    const envValue = env[field.env];
    let raw: string | undefined;
    let from: string;
    if (flagValue !== undefined && field.flag !== undefined) {
      raw = String(flagValue);
      from = flagName(field.flag);
    } else if (envValue !== undefined && envValue !== '') {
      raw = envValue;
      from = field.env;
    } else {
      raw = field.default;
      from = `${field.env} (default)`;
    }
    if (raw === undefined) {
      values[key] = undefined;
      continue;
    }
    const parsed = field.schema.safeParse(raw.trim());
    if (!parsed.success) {
      const expected = parsed.error.issues[0]?.message ?? 'a valid value';
      throw new InvalidConfigError(from, `invalid value ${JSON.stringify(raw)}; expected ${expected}`);
    }
    values[key] = parsed.data;
    sources[key] = from;
  }
  return { values, sources };
}

/** An integer between `min` and `max`, written in digits; `form` names the expected form. */
export const intIn = (min: number, max: number, form: string) =>
  z
    .string()
    .regex(/^[0-9]+$/, form)
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n) && n >= min && n <= max, form);

/** An absolute http(s) URL without query or fragment, trailing slashes dropped. */
export const httpUrl = (form: string) =>
  z
    .string()
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !u.search && !u.hash;
      } catch {
        return false;
      }
    }, form)
    .transform((v) => v.replace(/\/+$/, ''));

/** Whether `text` is an origin as a browser writes it: scheme, host, optional port; no path. */
export function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}
