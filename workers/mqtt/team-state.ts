import type { League } from '../../src/core/leagues.js';
import type { GameEvent, GameState, Score, TeamRef } from '../../src/model/events.js';
import { periodLabel } from '../alerts/format.js';
import type { Alert, GameRuleState, RuleName, Side } from '../alerts/types.js';

/** One game as the MQTT destination shows it: the alert rules' state plus status and win chance. */
export interface GameView {
  league: League;
  gameId: string;
  teams: { home: TeamRef; away: TeamRef };
  score: Score;
  period: number | null;
  clock: string | null;
  state: GameState;
  /** The home team's chance to win, 0 to 1; null before the first estimate. */
  homeWin: number | null;
  tie: number | null;
  /** The newest event applied, ISO 8601. */
  at: string;
}

/** What a team's state topic carries (JSON; Home Assistant's sensors read one field each). */
export interface TeamState {
  league: League;
  game_id: string;
  team: string;
  opponent: string;
  home: boolean;
  score: number;
  opponent_score: number;
  period: number | null;
  period_label: string;
  clock: string | null;
  state: GameState;
  /** Percent, one decimal; null before the first estimate. */
  win_probability: number | null;
  playing: boolean;
  updated_at: string;
}

/**
 * The event entity's types: a score by the team or its opponent, tip-off, the final, and the alert
 * rules (both upset rules, the win-probability watch and the ranked-team upset, as `upset`; the
 * final score alert is the `final` the game's end gives).
 */
export const ENTITY_EVENT_TYPES = [
  'scored',
  'opponent_scored',
  'game_started',
  'final',
  'upset',
  'lead_change',
  'close_game',
  'run',
  'player_points',
] as const;
export type EntityEventType = (typeof ENTITY_EVENT_TYPES)[number];

const ALERT_EVENT: Partial<Record<RuleName, EntityEventType>> = {
  upset_watch: 'upset',
  upset: 'upset',
  lead_change: 'lead_change',
  close_game: 'close_game',
  run: 'run',
  player_points: 'player_points',
};

/** One message for a team's event entity. `id` is the same on every evaluation of the same moment. */
export interface EntityEvent {
  id: string;
  side: Side;
  type: EntityEventType;
  text: string | null;
}

/** The view after `event`, given the alert rules' state after it (score, period, clock, end). */
export function nextView(before: GameView | undefined, event: GameEvent, rules: GameRuleState): GameView {
  let state: GameState = before?.state ?? 'pre';
  let homeWin = before?.homeWin ?? null;
  let tie = before?.tie ?? null;
  switch (event.type) {
    case 'game.status':
      state = event.data.state;
      break;
    case 'game.started':
      state = 'in';
      break;
    case 'winprob.changed':
      homeWin = event.data.homeWinPercentage;
      tie = event.data.tiePercentage;
      break;
    case 'score.changed':
    case 'play.added':
    case 'period.started':
      // A view built mid-game (a worker started late) learns the game is on from its plays.
      if (state === 'pre') state = 'in';
      break;
    default:
      break;
  }
  if (rules.ended || event.type === 'game.ended') state = 'post';
  return {
    league: event.league,
    gameId: event.gameId,
    teams: rules.teams,
    score: { ...rules.score },
    period: rules.period,
    clock: state === 'post' ? null : rules.clock,
    state,
    homeWin,
    tie,
    at: event.at,
  };
}

const other = (side: Side): Side => (side === 'home' ? 'away' : 'home');

/** The view from one team's side. */
export function teamState(view: GameView, side: Side): TeamState {
  const win =
    view.homeWin === null
      ? null
      : side === 'home'
        ? view.homeWin
        : Math.max(0, 1 - view.homeWin - (view.tie ?? 0));
  return {
    league: view.league,
    game_id: view.gameId,
    team: view.teams[side].abbreviation,
    opponent: view.teams[other(side)].abbreviation,
    home: side === 'home',
    score: view.score[side],
    opponent_score: view.score[other(side)],
    period: view.period,
    period_label: view.state === 'post' ? 'Final' : periodLabel(view.period, view.league),
    clock: view.clock,
    state: view.state,
    win_probability: win === null ? null : Math.round(win * 1000) / 10,
    playing: view.state === 'in',
    updated_at: view.at,
  };
}

/**
 * The event entity's messages `event` gives each side: a score that went up (not a correction
 * down), tip-off, the final, and `alerts` as their types. Ids derive from the event's or the
 * alert's id, so evaluating the same moment again gives the same ids.
 */
export function entityEvents(
  scoreBefore: Score | undefined,
  after: GameView,
  event: GameEvent,
  alerts: readonly Alert[],
): EntityEvent[] {
  const out: EntityEvent[] = [];
  const add = (side: Side, type: EntityEventType, id: string, text: string | null) =>
    out.push({ id: `${id}:${type}:${side}`, side, type, text });
  const both = (type: EntityEventType, id: string, text: string | null) => {
    for (const side of ['home', 'away'] as const) add(side, type, id, text);
  };
  if (event.type === 'game.started') both('game_started', event.id, null);
  if (scoreBefore) {
    for (const side of ['home', 'away'] as const) {
      if (after.score[side] > scoreBefore[side]) {
        add(side, 'scored', event.id, null);
        add(other(side), 'opponent_scored', event.id, null);
      }
    }
  }
  if (event.type === 'game.ended') both('final', event.id, null);
  for (const alert of alerts) {
    const type = ALERT_EVENT[alert.rule];
    if (type) both(type, alert.id, alert.text);
  }
  return out;
}
