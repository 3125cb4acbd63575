import { describe, expect, it } from 'vitest';
import { defaultAlertsConfig } from '../../../workers/rules-file.js';
import { clockSeconds, periodLabel } from '../../../workers/alerts/format.js';
import { evaluate, firstParticipant, scorerName } from '../../../workers/alerts/rules.js';
import type { Alert, GameRuleState } from '../../../workers/alerts/types.js';
import type { GameEvent } from '../../../src/model/events.js';
import { GameScript } from '../../support/events.js';

const rules = defaultAlertsConfig().rules;

function run(
  events: readonly GameEvent[],
  settings = rules,
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

const byRule = (alerts: Alert[], rule: Alert['rule']) => alerts.filter((a) => a.rule === rule);

describe('format', () => {
  it('labels periods 1st..4th, OT, 2OT', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(periodLabel)).toEqual(['1st', '2nd', '3rd', '4th', 'OT', '2OT', '3OT']);
  });
  it('reads game clocks', () => {
    expect(clockSeconds('1:12')).toBe(72);
    expect(clockSeconds('12:00')).toBe(720);
    expect(clockSeconds('45.1')).toBeCloseTo(45.1);
    expect(clockSeconds('soon')).toBeNull();
  });
  it('finds the scorer', () => {
    expect(firstParticipant('[{"athlete":{"id":"1966"}},{"athlete":{"id":"2"}}]')).toBe('1966');
    expect(firstParticipant(null)).toBeNull();
    expect(scorerName('LeBron James makes 26-foot three point jumper (Anthony Davis assists)')).toBe(
      'LeBron James',
    );
  });
});

describe('lead change', () => {
  it('counts only changes of the leading side in the 4th quarter and overtime, not ties', () => {
    const g = new GameScript().started();
    g.scores('home', 2); // LAL lead
    g.scores('away', 3); // BOS lead, 1st quarter: not alerted
    g.toPeriod(4, '8:00');
    g.scores('home', 2); // tie 4-3? home 4 away 3 -> LAL lead: change
    g.scores('away', 1); // tie 4-4
    g.scores('home', 2); // LAL again after a tie: not a change
    g.at('1:12');
    g.scores('away', 3, { text: 'LeBron James makes 26-foot three point jumper' }); // BOS 7-6: change
    g.toPeriod(5);
    g.scores('home', 2); // OT, LAL 8-7: change
    const { alerts } = run(g.events);
    const changes = byRule(alerts, 'lead_change');
    expect(changes).toHaveLength(3);
    expect(changes[1]?.text).toBe(
      'BOS 7 - LAL 6, 1:12 4th: lead change. LeBron James makes 26-foot three point jumper',
    );
    expect(changes[2]?.text.startsWith('BOS 7 - LAL 8, 5:00 OT: lead change.')).toBe(true);
    expect(changes[0]?.id).toBe(`lead_change:mens:${g.gameId}:${changes[0]?.moment}`);
  });
});

describe('run', () => {
  it('alerts once when one side scores 10 unanswered, from the run’s first play', () => {
    const g = new GameScript().started();
    g.scores('away', 2);
    const first = g.scores('home', 3);
    g.scores('home', 2);
    g.scores('home', 2);
    g.scores('home', 2); // 9-0
    const { alerts: none } = run(g.events);
    expect(byRule(none, 'run')).toHaveLength(0);
    g.scores('home', 1); // 10-0
    g.scores('home', 2); // 12-0, same run
    g.scores('away', 2);
    const { alerts } = run(g.events);
    const runs = byRule(alerts, 'run');
    expect(runs).toHaveLength(1);
    expect(runs[0]?.moment).toBe(first.id);
    expect(runs[0]?.text).toContain('LAL on a 10-0 run');
  });
});

describe('close game', () => {
  it('fires under 2:00 of the 4th with a margin of 5 or less, once per period', () => {
    const g = new GameScript().started();
    g.scores('home', 3);
    g.toPeriod(4, '2:30');
    g.scores('away', 2); // 3-2 but over 2:00
    expect(byRule(run(g.events).alerts, 'close_game')).toHaveLength(0);
    g.at('1:40');
    g.scores('away', 2);
    g.at('1:10');
    g.scores('home', 2);
    g.toPeriod(5, '1:30');
    g.scores('home', 2);
    const close = byRule(run(g.events).alerts, 'close_game');
    expect(close.map((a) => a.moment)).toEqual(['p4', 'p5']);
    expect(close[0]?.text).toBe(
      'BOS 4 - LAL 3, 1:40 4th: close game, BOS by 1 in the final 2:00 of the 4th quarter',
    );
    expect(close[1]?.text).toBe('BOS 4 - LAL 7, 1:30 OT: close game, LAL by 3 in the final 2:00 of OT');
  });

  it('does not fire when the margin is larger', () => {
    const g = new GameScript().started();
    for (let i = 0; i < 4; i++) g.scores('home', 3);
    g.toPeriod(4, '1:00');
    g.scores('away', 2);
    expect(byRule(run(g.events).alerts, 'close_game')).toHaveLength(0);
  });
});

describe('player points', () => {
  it('sums the first participant’s points and fires when the threshold is reached', () => {
    const g = new GameScript().started();
    for (let i = 0; i < 9; i++)
      g.scores('home', 3, { athlete: '1966', text: 'LeBron James makes three point jumper' });
    g.scores('home', 2, { athlete: '6583' }); // somebody else
    expect(byRule(run(g.events).alerts, 'player_points')).toHaveLength(0);
    g.scores('home', 3, { athlete: '1966', text: 'LeBron James makes 26-foot three point jumper' }); // 30
    g.scores('home', 2, { athlete: '1966', text: 'LeBron James makes layup' }); // 32
    const { alerts, state } = run(g.events);
    const hits = byRule(alerts, 'player_points');
    expect(hits).toHaveLength(1);
    expect(hits[0]?.moment).toBe('1966-30');
    expect(hits[0]?.text).toContain('LeBron James reaches 30 points (30)');
    expect(state?.points['1966']).toBe(32);
  });

  it('takes corrections back', () => {
    const g = new GameScript().started();
    const play = g.scores('home', 3, { athlete: '1966' });
    const { state } = run(g.events);
    const removed = {
      ...g.events[0]!,
      id: 'x',
      seq: 99,
      type: 'play.removed',
      data: { playId: play.id!, play },
    } as GameEvent;
    expect(evaluate(state, removed, rules).state.points['1966']).toBe(0);
  });
});

describe('upset watch', () => {
  it('fires when the pre-game underdog passes 75% in the 4th quarter', () => {
    const g = new GameScript().started();
    g.winprob(0.7); // home favoured: BOS is the underdog
    g.scores('away', 3);
    g.winprob(0.2, 0.7); // 80% BOS but 1st quarter
    g.toPeriod(4, '5:00');
    g.scores('away', 3);
    g.winprob(0.3, 0.2); // 70%
    expect(byRule(run(g.events).alerts, 'upset_watch')).toHaveLength(0);
    g.winprob(0.2, 0.3); // 80%
    g.winprob(0.1, 0.2);
    const upsets = byRule(run(g.events).alerts, 'upset_watch');
    expect(upsets).toHaveLength(1); // once per game, however long the condition holds
    expect(upsets[0]?.text).toContain('upset watch. BOS (30% before the game) now 80% to win');
  });

  it('does not fire for the favourite', () => {
    const g = new GameScript().started();
    g.winprob(0.7);
    g.toPeriod(4);
    g.winprob(0.9, 0.7);
    expect(byRule(run(g.events).alerts, 'upset_watch')).toHaveLength(0);
  });
});

describe('final score', () => {
  it('quotes the final, with overtime', () => {
    const g = new GameScript().started();
    g.scores('home', 3);
    g.scores('away', 2);
    g.toPeriod(5);
    g.scores('away', 2);
    g.ended();
    const finals = byRule(run(g.events).alerts, 'final_score');
    expect(finals).toHaveLength(1);
    expect(finals[0]?.text).toBe('Final/OT: BOS 4 - LAL 3');
    expect(finals[0]?.id).toBe(`final_score:mens:${g.gameId}:final`);
  });

  it('respects disabled rules', () => {
    const g = new GameScript().started().ended();
    const off = { ...rules, final_score: { enabled: false } };
    expect(run(g.events, off).alerts).toHaveLength(0);
  });
});
