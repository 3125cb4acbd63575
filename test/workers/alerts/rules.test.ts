import { describe, expect, it } from 'vitest';
import { defaultAlertsConfig } from '../../../workers/rules-file.js';
import { clockSeconds, periodLabel } from '../../../workers/alerts/format.js';
import { evaluate, firstParticipant, scorerName } from '../../../workers/alerts/rules.js';
import type { Alert, GameRuleState } from '../../../workers/alerts/types.js';
import type { GameEvent, PlayRow } from '../../../src/model/events.js';
import { evaluateAll } from '../../support/alert-rules.js';
import { GameScript } from '../../support/events.js';

const rules = defaultAlertsConfig().rules;

function run(
  events: readonly GameEvent[],
  settings = rules,
): { alerts: Alert[]; state: GameRuleState | undefined } {
  return evaluateAll(events, settings);
}

const byRule = (alerts: Alert[], rule: Alert['rule']) => alerts.filter((a) => a.rule === rule);

describe('format', () => {
  it('labels periods 1st..4th, OT, 2OT; halves in men’s college', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((p) => periodLabel(p, 'mens'))).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      'OT',
      '2OT',
      '3OT',
    ]);
    expect([1, 2, 3, 8].map((p) => periodLabel(p, 'mens-college'))).toEqual(['1st', '2nd', 'OT', '6OT']);
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

describe('corrections', () => {
  /** Appends an event of the engine's kind to a script's events, next in `seq`. */
  function append<T extends GameEvent['type']>(
    g: GameScript,
    type: T,
    data: Extract<GameEvent, { type: T }>['data'],
  ): void {
    const last = g.events.at(-1)!;
    g.events.push({
      ...last,
      id: `${type}:${g.events.length + 1}`,
      type,
      seq: last.seq + 1,
      data,
    } as GameEvent);
  }

  /** A rescore as the engine reports it: the play updated (value, running score), the score down. */
  function rescore(g: GameScript, play: PlayRow, side: 'home' | 'away', less: number): void {
    const key = side === 'home' ? 'home_score' : 'away_score';
    const corrected: PlayRow = {
      ...play,
      score_value: (play.score_value ?? 0) - less,
      [key]: (play[key] ?? 0) - less,
      text: `${play.text ?? ''} (on review)`,
    };
    append(g, 'play.updated', {
      play: corrected,
      changed: ['text', key, 'score_value'],
      previous: { text: play.text, [key]: play[key], score_value: play.score_value },
    });
    const previous = { ...g.score };
    g.score = { ...g.score, [side]: g.score[side] - less };
    append(g, 'score.changed', {
      score: { ...g.score },
      previous,
      period: g.period,
      clock: g.clock,
      correction: true,
    });
  }

  function fourthQuarterAt(home: number, away: number): GameScript {
    const g = new GameScript().started();
    g.toPeriod(4, '6:00');
    if (home > 0) g.scores('home', home, { athlete: '6583' });
    if (away > 0) g.scores('away', away, { athlete: '4066' });
    return g;
  }

  it('gives a lead change undone by a correction back silently: the old leader scoring next is no lead change', () => {
    const g = fourthQuarterAt(10, 8); // LAL 10 - BOS 8
    const goAhead = g.scores('away', 3); // BOS 11 - LAL 10: lead change
    rescore(g, goAhead, 'away', 1); // ruled a two: 10-10, the lead never changed
    g.scores('home', 2); // LAL 12 - BOS 10: LAL still (never stopped) leading
    const { alerts, state } = run(g.events);
    const changes = byRule(alerts, 'lead_change');
    expect(changes.map((a) => a.moment)).toEqual([goAhead.id]);
    expect(state?.leader).toBe('home');
    expect(state?.score).toEqual({ home: 12, away: 10 });

    // Without the correction, the same basket is a lead change: the test above can fail.
    const h = fourthQuarterAt(10, 8);
    h.scores('away', 3);
    h.scores('home', 2);
    expect(byRule(run(h.events).alerts, 'lead_change')).toHaveLength(2);
  });

  it('keeps the lead where a correction leaves it, and the next real change still fires', () => {
    const g = fourthQuarterAt(10, 9);
    const goAhead = g.scores('away', 3); // BOS 12 - LAL 10
    rescore(g, goAhead, 'away', 1); // BOS 11 - LAL 10: still BOS
    g.scores('home', 2); // LAL 12 - BOS 11: a real lead change
    const changes = byRule(run(g.events).alerts, 'lead_change');
    expect(changes).toHaveLength(2);
    expect(changes[1]?.details).toMatchObject({ leader: 'LAL' });
  });

  it('fires nothing for a correction, and a player pushed back under a threshold is not announced twice', () => {
    const g = new GameScript().started();
    g.toPeriod(4, '6:00');
    const plays: PlayRow[] = [];
    for (let i = 0; i < 7; i++) plays.push(g.scores('home', 3, { athlete: '1966' })); // 21
    g.scores('home', 3, { athlete: '1966' }); // ... 24
    for (let i = 0; i < 2; i++) g.scores('home', 3, { athlete: '1966' }); // 30: fires
    rescore(g, plays[0]!, 'home', 1); // 29
    g.scores('home', 2, { athlete: '1966' }); // 31: over 30 again
    const { alerts, state } = run(g.events);
    // Reached once (30), pushed under by the correction (29), over again (31): one alert.
    expect(byRule(alerts, 'player_points').map((a) => a.moment)).toEqual(['1966-30']);
    expect(state?.points['1966']).toBe(31);
    const corrections = new Set(
      g.events.filter((e) => e.type === 'play.updated' || e.type === 'score.changed').map((e) => e.id),
    );
    expect(alerts.filter((a) => corrections.has(a.eventId))).toEqual([]);
  });

  it('credits a play entered late but moves neither score nor lead with it', () => {
    const g = fourthQuarterAt(10, 8);
    g.scores('home', 2); // LAL 12 - BOS 8 (sequence 4)
    // Entered late: sequence number 2 (between earlier plays), BOS ahead by its own running score.
    const late: PlayRow = {
      ...g.play({}),
      id: '401000001999',
      sequence_number: '2',
      home_score: 0,
      away_score: 3,
      scoring_play: true,
      score_value: 3,
      participants: JSON.stringify([{ athlete: { id: '4066' } }]),
    };
    g.events.pop();
    append(g, 'play.added', { play: late, after: null, index: 1 });
    const { alerts, state } = run(g.events);
    expect(byRule(alerts, 'lead_change')).toEqual([]);
    expect(state?.score).toEqual({ home: 12, away: 8 });
    expect(state?.leader).toBe('home');
    expect(state?.points['4066']).toBe(11);
  });
});

describe('upset (ranked teams)', () => {
  const college = (homeRank: number | null, awayRank: number | null) =>
    new GameScript('401706886', 'mens-college', Date.UTC(2025, 0, 1), {
      home: { id: '150', abbreviation: 'DUKE', rank: homeRank, conference: { id: '2', name: null } },
      away: { id: '2305', abbreviation: 'KU', rank: awayRank, conference: { id: '8', name: null } },
    });

  it('fires once when the ranked team trails an unranked one late in the 2nd half, and at the final', () => {
    const g = college(3, null).started().toPeriod(1, '20:00');
    g.scores('away', 3, { clock: '10:00' }); // trailing in the 1st half: not late
    g.toPeriod(2, '20:00');
    g.scores('home', 2, { clock: '8:00' });
    g.scores('away', 3, { clock: '4:59' }); // 2:4 with under 5:00 left: late
    g.scores('away', 2, { clock: '3:00' });
    g.ended();
    const upsets = byRule(run(g.events).alerts, 'upset');
    expect(upsets.map((a) => [a.moment, a.text])).toEqual([
      ['late', 'KU 6 - #3 DUKE 2, 4:59 2nd: upset alert, #3 DUKE trails unranked KU by 4'],
      ['final', 'Final: KU 8 - #3 DUKE 2: upset, unranked KU beat #3 DUKE'],
    ]);
    expect(upsets[1]?.details).toMatchObject({
      favourite: 'DUKE',
      favouriteRank: 3,
      underdog: 'KU',
      underdogRank: null,
    });
  });

  it('counts a lower-ranked winner as an upset, and nothing when the better-ranked team wins', () => {
    const beaten = college(15, 1).started().toPeriod(2, '20:00');
    beaten.scores('home', 2, { clock: '1:00' });
    beaten.ended();
    expect(byRule(run(beaten.events).alerts, 'upset').map((a) => a.text)).toEqual([
      '#1 KU 0 - #15 DUKE 2, 1:00 2nd: upset alert, #1 KU trails #15 DUKE by 2',
      'Final: #1 KU 0 - #15 DUKE 2: upset, #15 DUKE beat #1 KU',
    ]);
    const expected = college(1, 15).started().toPeriod(2, '20:00');
    expected.scores('home', 2, { clock: '1:00' });
    expected.ended();
    expect(byRule(run(expected.events).alerts, 'upset')).toHaveLength(0);
    // Two unranked teams, or a pro game, have no favourite by rank.
    const unranked = college(null, null).started().toPeriod(2, '20:00');
    unranked.scores('away', 2, { clock: '1:00' });
    unranked.ended();
    expect(byRule(run(unranked.events).alerts, 'upset')).toHaveLength(0);
  });

  it('waits for the 4th quarter in women’s college, and may be turned off', () => {
    const g = new GameScript('401469447', 'womens-college', Date.UTC(2025, 0, 1), {
      home: { id: '99', abbreviation: 'LSU', rank: 3, conference: null },
      away: { id: '61', abbreviation: 'UGA', rank: null, conference: null },
    }).started();
    g.toPeriod(3, '10:00');
    g.scores('away', 2, { clock: '1:00' }); // the 3rd quarter is not late
    g.toPeriod(4, '10:00');
    g.scores('away', 2, { clock: '2:00' });
    expect(byRule(run(g.events).alerts, 'upset').map((a) => a.moment)).toEqual(['late']);
    const off = { ...rules, upset: { ...rules.upset, enabled: false } };
    expect(byRule(run(g.events, off).alerts, 'upset')).toHaveLength(0);
  });
});
