import type { GameEvent } from '../../src/model/events.js';
import { evaluate } from '../../workers/alerts/rules.js';
import type { Alert, GameRuleState } from '../../workers/alerts/types.js';
import type { RuleSettings } from '../../workers/rules-file.js';

/**
 * The alerts the rules fire over `events`, evaluated in order from a fresh state, in process
 * (no Redis, no worker), and the rule state they leave: what a test expects the worker to send.
 */
export function evaluateAll(
  events: readonly GameEvent[],
  settings: RuleSettings,
): { alerts: Alert[]; state: GameRuleState | undefined } {
  let state: GameRuleState | undefined;
  const alerts: Alert[] = [];
  for (const event of events) {
    const result = evaluate(state, event, settings);
    state = result.state;
    alerts.push(...result.alerts);
  }
  return { alerts, state };
}
