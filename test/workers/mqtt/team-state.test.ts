import { describe, expect, it } from 'vitest';
import { evaluateAll } from '../../support/alert-rules.js';
import { GameScript } from '../../support/events.js';
import { evaluate } from '../../../workers/alerts/rules.js';
import { parseAlertsConfig } from '../../../workers/rules-file.js';
import type { Alert, GameRuleState } from '../../../workers/alerts/types.js';
import { entityEvents, nextView, teamState, type GameView } from '../../../workers/mqtt/team-state.js';

const rules = parseAlertsConfig({}, {}).rules;

/** Every view of a script, event by event, as the destination builds them. */
function views(game: GameScript): GameView[] {
  const out: GameView[] = [];
  let state: GameRuleState | undefined;
  for (const event of game.events) {
    state = evaluate(state, event, rules).state;
    out.push(nextView(out.at(-1), event, state));
  }
  return out;
}

describe('a team state from the game', () => {
  it('reads pre-game, live and final from the events, with the period label and each side', () => {
    const g = new GameScript();
    g.started();
    g.scores('away', 3);
    g.toPeriod(5);
    g.scores('home', 2);
    g.winprob(0.25);
    g.ended();
    const all = views(g);
    expect(teamState(all[0]!, 'home')).toMatchObject({
      state: 'in',
      playing: true,
      score: 0,
      win_probability: null,
    });
    const ot = teamState(all[4]!, 'away');
    expect(ot).toMatchObject({ team: 'BOS', opponent: 'LAL', home: false, score: 3, opponent_score: 2 });
    expect(ot).toMatchObject({ period: 5, period_label: 'OT', win_probability: 75 });
    const final = teamState(all.at(-1)!, 'home');
    expect(final).toMatchObject({ state: 'post', playing: false, period_label: 'Final', clock: null });
  });

  it('leaves out a tie chance from the away side, rounded to a tenth of a percent', () => {
    const g = new GameScript();
    g.started();
    g.winprob(0.4567);
    (g.events[1]!.data as { tiePercentage: number }).tiePercentage = 0.01;
    const all = views(g);
    expect(teamState(all[1]!, 'home').win_probability).toBe(45.7);
    expect(teamState(all[1]!, 'away').win_probability).toBe(53.3);
  });
});

describe('the event entity of a game', () => {
  it('announces a score to both sides, not a correction down, and alerts by type', () => {
    const g = new GameScript();
    g.started();
    const start = views(g)[0]!;
    g.scores('home', 2);
    const state = evaluateAll(g.events, rules).state!;
    const scored = nextView(start, g.events.at(-1)!, state);
    const moments = entityEvents(start.score, scored, g.events.at(-1)!, []);
    expect(moments.map((m) => [m.side, m.type])).toEqual([
      ['home', 'scored'],
      ['away', 'opponent_scored'],
    ]);
    // A correction: the score goes down, nothing to announce.
    expect(entityEvents(scored.score, start, g.events.at(-1)!, [])).toEqual([]);
  });

  it('announces both upset rules as upset, and a rule it has no type for not at all', () => {
    const g = new GameScript();
    g.started();
    const view = views(g)[0]!;
    const alert = (rule: Alert['rule']): Alert => ({
      id: `${rule}:mens-college:1:late`,
      rule,
      league: 'mens-college',
      gameId: '1',
      moment: 'late',
      text: `${rule} text`,
      at: g.events[0]!.at,
      eventId: g.events[0]!.id,
      seq: 1,
      teams: { home: { id: '1', abbreviation: 'H' }, away: { id: '2', abbreviation: 'A' } },
      score: { home: 0, away: 0 },
      period: 2,
      clock: '1:00',
      details: {},
    });
    const moments = entityEvents(undefined, view, g.events[0]!, [alert('upset'), alert('upset_watch')]);
    const upsets = moments.filter((m) => m.type === 'upset');
    expect(upsets.map((m) => [m.side, m.text])).toEqual([
      ['home', 'upset text'],
      ['away', 'upset text'],
      ['home', 'upset_watch text'],
      ['away', 'upset_watch text'],
    ]);
    expect(entityEvents(undefined, view, g.events[0]!, [alert('final_score')]).map((m) => m.type)).toEqual([
      'game_started',
      'game_started',
    ]);
  });

  it('gives the same ids on every evaluation, distinct across sides and types', () => {
    const g = new GameScript();
    g.started();
    g.scores('home', 3);
    g.ended();
    const all = views(g);
    const ids = g.events.flatMap((e, i) => entityEvents(all[i - 1]?.score, all[i]!, e, []).map((m) => m.id));
    const again = g.events.flatMap((e, i) =>
      entityEvents(all[i - 1]?.score, all[i]!, e, []).map((m) => m.id),
    );
    expect(ids).toEqual(again);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(6);
  });
});
