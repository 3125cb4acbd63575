import { InvalidConfigError } from '../src/core/errors.js';

/** `${NAME}`: the only form replaced, so a `$` elsewhere in a value stays as written. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${NAME}` in every string of a parsed rules file with the environment variable's value,
 * so tokens and webhook URLs can stay out of a committed file. A variable that is unset or empty
 * is an error naming the field and the variable (never its value).
 */
export function expandEnv(value: unknown, env: NodeJS.ProcessEnv, path: string[] = []): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_, name: string) => {
      const found = env[name];
      if (found === undefined || found === '') {
        throw new InvalidConfigError(
          path.join('.') || '(root)',
          `environment variable ${name} is ${found === undefined ? 'not set' : 'empty'}`,
        );
      }
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => expandEnv(item, env, [...path, String(i)]));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandEnv(item, env, [...path, key])]),
    );
  }
  return value;
}
