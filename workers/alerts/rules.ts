import { isOvertime, periodFormat, periodLabel as fullPeriodLabel } from '../../src/core/periods.js';
import type { GameEvent, PlayRow, Score, TeamRef } from '../../src/model/events.js';
import type { RuleSettings } from '../rules-file.js';
import { clockSeconds, finalLabel, momentLine, periodLabel, scoreLine, teamName } from './format.js';
import type { Alert, GameRuleState, RuleName, Side } from './types.js';

export interface Evaluation {
  state: GameRuleState;
  alerts: Alert[];
}

/** A fresh state for a game, from the first event seen. */
export function initialState(event: GameEvent): GameRuleState {
  return {
    league: event.league,
    lastSeq: 0,
    teams: event.teams,
    score: { home: 0, away: 0 },
    period: null,
    clock: null,
    leader: null,
    lastPlaySequence: null,
    run: null,
    points: {},
    credited: {},
    names: {},
    ended: false,
    fired: [],
  };
}

/**
 * Applies one event to a game's rule state and returns the alerts it triggers. Pure: the caller
 * stores the state and makes alerts idempotent. Events must come in `seq` order per game.
 * The running score comes from the plays (each play carries its own), so every alert can quote
 * the exact moment; `score.changed` (header score) only moves the clock and period.
 */
export function evaluate(
  previous: GameRuleState | undefined,
  event: GameEvent,
  rules: RuleSettings,
): Evaluation {
  const state: GameRuleState = structuredClone(previous ?? initialState(event));
  state.fired ??= [];
  state.lastSeq = event.seq;
  state.league = event.league;
  state.teams = event.teams;
  const alerts: Alert[] = [];
  const emit = (
    rule: RuleName,
    moment: string,
    text: string,
    details: Record<string, unknown> = {},
  ): void => {
    const mark = `${rule}:${moment}`;
    if (state.fired.includes(mark)) return;
    state.fired.push(mark);
    alerts.push({
      id: `${rule}:${event.league}:${event.gameId}:${moment}`,
      rule,
      league: event.league,
      gameId: event.gameId,
      moment,
      text,
      at: event.at,
      eventId: event.id,
      seq: event.seq,
      teams: state.teams,
      score: { ...state.score },
      period: state.period,
      clock: state.clock,
      details,
    });
  };

  switch (event.type) {
    case 'period.started':
      state.period = event.data.period;
      break;
    case 'score.changed':
      if (event.data.period != null) state.period = event.data.period;
      if (event.data.clock != null) state.clock = event.data.clock;
      break;
    case 'play.added':
      applyPlay(state, event.data.play, rules, emit);
      break;
    case 'play.updated':
      // A correction can change who scored or how much: points are credited anew, and a running
      // score it changes is taken in silently (correctRunningScore). It never fires an alert of
      // its own, and an alert already sent is not taken back.
      correctRunningScore(state, event.data.play, event.data.changed);
      creditPoints(state, event.data.play, rules, emit);
      break;
    case 'play.removed':
      uncredit(state, event.data.playId);
      break;
    case 'winprob.changed':
      applyWinprob(state, event.data.homeWinPercentage, event.data.previousHomeWinPercentage, rules, emit);
      break;
    case 'game.ended': {
      state.ended = true;
      state.score = { ...event.data.score };
      if (rules.final_score.enabled) {
        const periods = event.data.periods;
        state.period = periods || state.period;
        state.clock = null;
        emit(
          'final_score',
          'final',
          `${finalLabel(periods, state.league)}: ${scoreLine(state.teams, event.data.score)}`,
          { winner: event.data.winner, periods },
        );
      }
      upsetAtEnd(state, event.data.winner, event.data.periods, rules, emit);
      break;
    }
    default:
      break;
  }
  return { state, alerts };
}

type Emit = (rule: RuleName, moment: string, text: string, details?: Record<string, unknown>) => void;

function applyPlay(state: GameRuleState, play: PlayRow, rules: RuleSettings, emit: Emit): void {
  const sequence = play.sequence_number === null ? NaN : Number(play.sequence_number);
  const inOrder =
    Number.isFinite(sequence) && (state.lastPlaySequence === null || sequence > state.lastPlaySequence);
  if (inOrder && play.home_score !== null && play.away_score !== null) {
    state.lastPlaySequence = sequence;
    if (play.period_number !== null) state.period = play.period_number;
    if (play.clock_display_value !== null) state.clock = play.clock_display_value;
    const before = state.score;
    const after: Score = { home: play.home_score, away: play.away_score };
    state.score = after;
    const playText = play.text ?? '';
    const moment = play.id ?? `seq${play.sequence_number}`;

    // Lead change: the leading side differs from the side that last led (ties do not count).
    const leader: Side | null = after.home > after.away ? 'home' : after.away > after.home ? 'away' : null;
    if (leader !== null) {
      if (
        rules.lead_change.enabled &&
        state.leader !== null &&
        leader !== state.leader &&
        (state.period ?? 0) >= rules.lead_change.fromPeriod
      ) {
        emit('lead_change', moment, `${line(state)}: lead change. ${playText}`.trim(), {
          leader: state.teams[leader].abbreviation,
          playId: play.id,
          play: play.text,
        });
      }
      if (leader !== state.leader && play.id !== null) {
        state.leadChange = { playId: play.id, previous: state.leader };
      }
      state.leader = leader;
    }

    // Runs: points scored by one side while the other scores none.
    const dHome = after.home - before.home;
    const dAway = after.away - before.away;
    if (dHome > 0 !== dAway > 0 && dHome >= 0 && dAway >= 0) {
      const side: Side = dHome > 0 ? 'home' : 'away';
      const points = dHome + dAway;
      if (state.run && state.run.side === side) state.run.points += points;
      else state.run = { side, points, startPlayId: moment, alerted: false };
      if (rules.run.enabled && !state.run.alerted && state.run.points >= rules.run.points) {
        state.run.alerted = true;
        const team = state.teams[side].abbreviation;
        emit(
          'run',
          state.run.startPlayId,
          `${line(state)}: ${team} on a ${state.run.points}-0 run. ${playText}`.trim(),
          {
            team,
            points: state.run.points,
            play: play.text,
          },
        );
      }
    }

    // Close game: first moment of a late period under the time mark with a small margin.
    const left = clockSeconds(state.clock);
    if (
      rules.close_game.enabled &&
      state.period !== null &&
      state.period >= rules.close_game.fromPeriod &&
      left !== null &&
      left > 0 &&
      left < rules.close_game.underSeconds &&
      Math.abs(after.home - after.away) <= rules.close_game.margin
    ) {
      emit(
        'close_game',
        `p${state.period}`,
        `${line(state)}: close game, ${marginText(state)} in the final ${minutes(rules.close_game.underSeconds)} of ${periodName(state.period, state)}`,
        {
          margin: Math.abs(after.home - after.away),
        },
      );
    }
    upsetLate(state, rules, emit);
  }
  creditPoints(state, play, rules, emit);
}

/** The better-ranked side, when one team is ranked and the other is not or is ranked lower. */
export function favourite(teams: { home: TeamRef; away: TeamRef }): Side | null {
  const home = teams.home.rank ?? null;
  const away = teams.away.rank ?? null;
  if (home !== null && (away === null || home < away)) return 'home';
  if (away !== null && (home === null || away < home)) return 'away';
  return null;
}

const otherSide = (side: Side): Side => (side === 'home' ? 'away' : 'home');

function upsetDetails(state: GameRuleState, favoured: Side): Record<string, unknown> {
  const fav = state.teams[favoured];
  const dog = state.teams[otherSide(favoured)];
  return {
    favourite: fav.abbreviation,
    favouriteRank: fav.rank ?? null,
    underdog: dog.abbreviation,
    underdogRank: dog.rank ?? null,
    margin: Math.abs(state.score.home - state.score.away),
  };
}

/**
 * A ranked team trailing an unranked or lower-ranked one late: under `underSeconds` in the last
 * regulation period (the 2nd half, the 4th quarter) or in an overtime. Once a game.
 */
function upsetLate(state: GameRuleState, rules: RuleSettings, emit: Emit): void {
  const favoured = favourite(state.teams);
  if (!rules.upset.enabled || state.ended || favoured === null || state.period === null) return;
  if (state.period < periodFormat(state.league).regulation) return;
  const left = clockSeconds(state.clock);
  if (left === null || left <= 0 || left >= rules.upset.underSeconds) return;
  const dog = otherSide(favoured);
  if (state.score[dog] <= state.score[favoured]) return;
  const margin = state.score[dog] - state.score[favoured];
  emit(
    'upset',
    'late',
    `${line(state)}: upset alert, ${teamName(state.teams[favoured])} trails ${underdogName(state.teams[dog])} by ${margin}`,
    upsetDetails(state, favoured),
  );
}

/** A ranked team beaten by an unranked or lower-ranked one. */
function upsetAtEnd(
  state: GameRuleState,
  winner: Side | null,
  periods: number,
  rules: RuleSettings,
  emit: Emit,
): void {
  const favoured = favourite(state.teams);
  if (!rules.upset.enabled || favoured === null || winner !== otherSide(favoured)) return;
  emit(
    'upset',
    'final',
    `${finalLabel(periods, state.league)}: ${scoreLine(state.teams, state.score)}: upset, ${underdogName(state.teams[winner])} beat ${teamName(state.teams[favoured])}`,
    upsetDetails(state, favoured),
  );
}

/** `#15 UNC`, or `unranked UNC`. */
function underdogName(team: TeamRef): string {
  return team.rank != null ? teamName(team) : `unranked ${team.abbreviation}`;
}

/**
 * A corrected play's running score (a rescore lowers it for the play and every play after it).
 * The latest play applied sets the score; the play that last changed the lead, corrected so that
 * its side no longer leads, hands the lead back to the side that held it before: the lead change
 * never happened, so the next basket of that side is no lead change either.
 */
function correctRunningScore(state: GameRuleState, play: PlayRow, changed: readonly string[]): void {
  if (!changed.includes('home_score') && !changed.includes('away_score')) return;
  if (play.home_score === null || play.away_score === null) return;
  const sequence = play.sequence_number === null ? NaN : Number(play.sequence_number);
  if (Number.isFinite(sequence) && sequence === state.lastPlaySequence) {
    state.score = { home: play.home_score, away: play.away_score };
  }
  const change = state.leadChange;
  if (change === undefined || change.playId !== play.id || state.leader === null) return;
  const margin = play.home_score - play.away_score;
  const stillLeads = state.leader === 'home' ? margin > 0 : margin < 0;
  if (stillLeads) return;
  const leader: Side | null = margin > 0 ? 'home' : margin < 0 ? 'away' : change.previous;
  state.leader = leader;
  delete state.leadChange;
}

function creditPoints(state: GameRuleState, play: PlayRow, rules: RuleSettings, emit: Emit): void {
  if (play.id === null) return;
  const athlete = firstParticipant(play.participants);
  const points = play.scoring_play && athlete ? (play.score_value ?? 0) : 0;
  const had = state.credited[play.id];
  if (had) uncredit(state, play.id);
  if (!athlete || points <= 0) return;
  const name = scorerName(play.text);
  if (name) state.names[athlete] = name;
  const before = state.points[athlete] ?? 0;
  const after = before + points;
  state.points[athlete] = after;
  state.credited[play.id] = [athlete, points];
  if (!rules.player_points.enabled) return;
  for (const threshold of rules.player_points.thresholds) {
    if (before < threshold && after >= threshold) {
      const who = state.names[athlete] ?? `Player ${athlete}`;
      emit(
        'player_points',
        `${athlete}-${threshold}`,
        `${line(state)}: ${who} reaches ${threshold} points (${after}). ${play.text ?? ''}`.trim(),
        {
          athleteId: athlete,
          name: who,
          threshold,
          points: after,
          teamId: play.team_id,
          play: play.text,
        },
      );
    }
  }
}

function uncredit(state: GameRuleState, playId: string): void {
  const had = state.credited[playId];
  if (!had) return;
  const [athlete, points] = had;
  state.points[athlete] = Math.max(0, (state.points[athlete] ?? 0) - points);
  delete state.credited[playId];
}

function applyWinprob(
  state: GameRuleState,
  homeWin: number,
  previousHomeWin: number | null,
  rules: RuleSettings,
  emit: Emit,
): void {
  const home = normalise(homeWin);
  if (state.underdog === undefined) {
    // The first value the worker sees: the series' first when it has no previous value.
    const first = normalise(previousHomeWin ?? homeWin);
    state.underdog = first < 0.5 ? 'home' : first > 0.5 ? 'away' : null;
    state.underdogStart = state.underdog === 'home' ? first : 1 - first;
  }
  if (!rules.upset_watch.enabled || !state.underdog || state.ended) return;
  if ((state.period ?? 0) < rules.upset_watch.fromPeriod) return;
  const chance = state.underdog === 'home' ? home : 1 - home;
  if (chance > rules.upset_watch.probability) {
    const team = state.teams[state.underdog].abbreviation;
    emit(
      'upset_watch',
      'game',
      `${line(state)}: upset watch. ${team} (${pct(state.underdogStart ?? 0)} before the game) now ${pct(chance)} to win`,
      { team, probability: chance, pregame: state.underdogStart ?? null },
    );
  }
}

/** The scorer is the first participant; `participants` is the play's list as JSON text. */
export function firstParticipant(participants: string | null): string | null {
  if (!participants) return null;
  try {
    const list = JSON.parse(participants) as unknown;
    if (!Array.isArray(list)) return null;
    const first = list[0] as { athlete?: { id?: unknown } } | undefined;
    const id = first?.athlete?.id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
  } catch {
    return null;
  }
}

/** "LeBron James makes 26-foot three point jumper" → "LeBron James". */
export function scorerName(text: string | null): string | null {
  if (!text) return null;
  const match = /^(.+?) (?:makes|dunks|layup|hook)\b/.exec(text);
  return match?.[1]?.trim() || null;
}

function line(state: GameRuleState): string {
  return momentLine(state.teams, state.score, state.period, state.clock, state.league);
}

function marginText(state: GameRuleState): string {
  const diff = state.score.home - state.score.away;
  if (diff === 0) return 'tied';
  const leader = diff > 0 ? state.teams.home : state.teams.away;
  return `${leader.abbreviation} by ${Math.abs(diff)}`;
}

function minutes(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60}:00` : `${seconds} s`;
}

/** `the 4th quarter`, `the 2nd half`, `2OT`. */
function periodName(period: number, state: GameRuleState): string {
  if (isOvertime(state.league, period)) return periodLabel(period, state.league);
  return `the ${fullPeriodLabel(state.league, period).toLowerCase()}`;
}

function normalise(p: number): number {
  // ESPN sends 0..1; tolerate a percentage.
  return p > 1 ? p / 100 : p;
}

function pct(p: number): string {
  return `${Math.round(p * 100)}%`;
}
