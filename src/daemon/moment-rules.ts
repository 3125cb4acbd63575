import { CourtsideError, InvalidParamsError } from '../core/errors.js';
import type { GameEvent } from '../model/events.js';
import type { MomentRules } from '../server/overlay-moments.js';
import { evaluate } from '../../workers/alerts/rules.js';
import type { GameRuleState } from '../../workers/alerts/types.js';
import {
  defaultAlertsConfig,
  parseAlertsConfig,
  RULE_NAMES,
  type RuleSettings,
} from '../../workers/rules-file.js';

/**
 * The alert worker's rules as the overlay's lower thirds use them: the daemon is the one layer
 * that may import both the server and the workers, so it builds the server's `MomentRules` here.
 *
 * A page's query picks the rules and their settings with the rules file's names:
 * `rules=lead_change,run` turns on exactly those (default: the `base` settings, every rule with
 * its defaults unless the daemon was given others), and `<rule>.<setting>=<value>` sets one
 * (`run.points=8`, `player_points.thresholds=20,30`). Values are checked by the rules file's own
 * schema, so a page and the worker accept the same settings.
 */
export function alertMomentRules(base: RuleSettings = defaultAlertsConfig().rules): MomentRules {
  const names: readonly string[] = RULE_NAMES;
  const settingParam = /^([a-z_]+)\.([A-Za-z]+)$/;

  function settings(query: URLSearchParams): { key: string; settings: RuleSettings } {
    const listed = query.get('rules');
    const on = new Set<string>();
    if (listed !== null) {
      for (const name of listed.split(',').filter(Boolean)) {
        if (!names.includes(name))
          throw new InvalidParamsError(
            'rules',
            listed,
            `a comma-separated list of ${names.join(', ')}`,
            'overlay',
          );
        on.add(name);
      }
    }
    const rules: Record<string, Record<string, unknown>> = {};
    for (const name of names) {
      const given = base[name as keyof RuleSettings] as unknown as Record<string, unknown>;
      const enabled = listed === null ? given.enabled === true : on.has(name);
      rules[name] = { ...given, enabled };
    }
    for (const [param, raw] of query) {
      const m = settingParam.exec(param);
      if (!m) continue;
      const [, rule = '', setting = ''] = m;
      const target = Object.hasOwn(rules, rule) ? rules[rule] : undefined;
      if (!target)
        throw new InvalidParamsError(param, raw, `a setting of one of ${names.join(', ')}`, 'overlay');
      if (target.enabled !== true)
        throw new InvalidParamsError(
          param,
          raw,
          `a setting of a rule that is on (add ${rule} to rules)`,
          'overlay',
        );
      const value = parseValue(raw);
      // A list given as one value (`thresholds=30`) is a list of one.
      if (setting === '__proto__' || setting === 'constructor')
        throw new InvalidParamsError(param, raw, 'a setting of the rule', 'overlay');
      target[setting] = Array.isArray(target[setting]) && !Array.isArray(value) ? [value] : value;
    }
    let parsed: RuleSettings;
    try {
      parsed = parseAlertsConfig({ rules }).rules;
    } catch (err) {
      throw asParamError(err, query);
    }
    return { key: JSON.stringify(parsed), settings: parsed };
  }

  return {
    names,
    accepts: (param) => param === 'rules' || settingParam.test(param),
    settings,
    evaluate(state, event: GameEvent, ruleSettings) {
      const step = evaluate(state as GameRuleState | undefined, event, ruleSettings as RuleSettings);
      return { state: step.state, moments: step.alerts };
    },
  };
}

/** `8` → 8, `true` → true, `20,30` → [20, 30]; anything else stays text for the schema to refuse. */
function parseValue(raw: string): unknown {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (/^\d+(,\d+)+$/.test(raw)) return raw.split(',').map(Number);
  return raw;
}

/** The rules file names a field (`rules.run.points`); the page's parameter is `run.points`. */
function asParamError(err: unknown, query: URLSearchParams): unknown {
  if (!(err instanceof CourtsideError) || err.code !== 'INVALID_CONFIG') return err;
  const field = (err as CourtsideError & { field?: string }).field ?? '';
  const param = field.replace(/^rules\./, '');
  const expected = err.message.slice(field.length + 2) || 'a valid setting';
  return new InvalidParamsError(param, query.get(param) ?? undefined, expected, 'overlay');
}
