import type { League } from '../../src/core/leagues.js';
import type { GameKey, NewGameEvent } from '../../src/bus/types.js';
import type { EventType, GameEvent, GameSnapshot, PlayRow, TeamRef } from '../../src/model/events.js';

export const HOME: TeamRef = { id: '13', abbreviation: 'LAL' };
export const AWAY: TeamRef = { id: '2', abbreviation: 'BOS' };

export interface PlayOptions {
  period?: number;
  clock?: string;
  text?: string;
  athlete?: string;
}

/**
 * Builds a game's event sequence the way the engine emits it: `seq` +1 per event, plays with
 * running scores and increasing sequence numbers. `at` is `start` plus one second per event.
 */
export class GameScript {
  readonly events: GameEvent[] = [];
  score = { home: 0, away: 0 };
  period = 1;
  clock = '12:00';
  private playSeq = 0;

  constructor(
    readonly gameId = '401000001',
    readonly league: League = 'mens',
    readonly start = Date.now(),
    readonly teams = { home: HOME, away: AWAY },
  ) {}

  private push<T extends GameEvent['type']>(
    type: T,
    data: Extract<GameEvent, { type: T }>['data'],
    idTail: string,
  ): GameEvent {
    const seq = this.events.length + 1;
    const event = {
      id: `${this.league}:${this.gameId}:${type}:${idTail}`,
      type,
      league: this.league,
      gameId: this.gameId,
      seq,
      at: new Date(this.start + seq * 1000).toISOString(),
      teams: this.teams,
      data,
    } as GameEvent;
    this.events.push(event);
    return event;
  }

  started(): this {
    this.push('game.started', { home: this.teams.home, away: this.teams.away, date: null }, 'start');
    return this;
  }

  toPeriod(period: number, clock = period > 4 ? '5:00' : '12:00'): this {
    this.period = period;
    this.clock = clock;
    this.push('period.started', { period }, `p${period}`);
    return this;
  }

  at(clock: string): this {
    this.clock = clock;
    return this;
  }

  play(row: Partial<PlayRow>): PlayRow {
    this.playSeq += 1;
    const id = `${this.gameId}${this.playSeq}`;
    const play: PlayRow = {
      id,
      sequence_number: String(this.playSeq),
      text: 'Timeout',
      away_score: this.score.away,
      home_score: this.score.home,
      scoring_play: false,
      score_value: 0,
      participants: null,
      wallclock: null,
      shooting_play: false,
      points_attempted: null,
      short_description: null,
      type_id: '16',
      type_text: 'Timeout',
      period_number: this.period,
      period_display_value: null,
      clock_display_value: this.clock,
      team_id: null,
      coordinate_x: null,
      coordinate_y: null,
      ...row,
    };
    this.push('play.added', { play }, id);
    return play;
  }

  /** A scoring play by `side`; the scorer is the first participant. */
  scores(side: 'home' | 'away', points: number, options: PlayOptions = {}): PlayRow {
    if (options.period !== undefined) this.period = options.period;
    if (options.clock !== undefined) this.clock = options.clock;
    this.score = { ...this.score, [side]: this.score[side] + points };
    const athlete = options.athlete ?? (side === 'home' ? '1966' : '3917376');
    return this.play({
      text:
        options.text ??
        `Player ${athlete} makes ${points === 3 ? 'three point jumper' : points === 1 ? 'free throw' : 'jumper'}`,
      scoring_play: true,
      score_value: points,
      shooting_play: true,
      participants: JSON.stringify([{ athlete: { id: athlete } }]),
      team_id: this.teams[side].id,
      type_text: 'Jump Shot',
    });
  }

  winprob(homeWinPercentage: number, previous: number | null = null): this {
    const playId = `${this.gameId}${this.playSeq}`;
    this.push(
      'winprob.changed',
      { playId, homeWinPercentage, previousHomeWinPercentage: previous, tiePercentage: 0 },
      `wp${this.events.length}`,
    );
    return this;
  }

  ended(): this {
    const { home, away } = this.score;
    this.push(
      'game.ended',
      {
        score: { ...this.score },
        winner: home > away ? 'home' : away > home ? 'away' : null,
        periods: this.period,
        detail: 'Final',
      },
      'end',
    );
    return this;
  }
}

/** A game of the gateway, bus and engine tests: league, id and the two teams. */
export interface Game {
  league: League;
  gameId: string;
  home: TeamRef;
  away: TeamRef;
}

export function game(league: League, gameId: string, home: [string, string], away: [string, string]): Game {
  return {
    league,
    gameId,
    home: { id: home[0], abbreviation: home[1] },
    away: { id: away[0], abbreviation: away[1] },
  };
}

const seqs = new Map<string, number>();
const DEFAULT_TEAMS = { home: { id: '1', abbreviation: 'HOM' }, away: { id: '2', abbreviation: 'AWY' } };

/**
 * A `score.changed` (or the given type) event for `g`, small but realistic: numbered `seq`, by
 * default the game's next. A game without teams (a bus key) gets two placeholder teams.
 */
export function makeEvent(
  g: GameKey & Partial<Pick<Game, 'home' | 'away'>>,
  type: EventType = 'score.changed',
  pad = 0,
  seq = (seqs.get(`${g.league}:${g.gameId}`) ?? 0) + 1,
): NewGameEvent {
  const key = `${g.league}:${g.gameId}`;
  seqs.set(key, Math.max(seq, seqs.get(key) ?? 0));
  return {
    id: `${g.league}-${g.gameId}-${seq}-${type}`,
    type,
    league: g.league,
    gameId: g.gameId,
    seq,
    at: new Date().toISOString(),
    teams: { home: g.home ?? DEFAULT_TEAMS.home, away: g.away ?? DEFAULT_TEAMS.away },
    data: {
      score: { home: seq, away: seq - 1 },
      previous: { home: seq - 1, away: seq - 1 },
      period: 1,
      clock: pad > 0 ? 'x'.repeat(pad) : '10:00',
    },
  } as NewGameEvent;
}

/** `count` events of `g` numbered from `from`, as one poll would commit them. */
export function makeEvents(g: GameKey, from: number, count: number): NewGameEvent[] {
  return Array.from({ length: count }, (_, i) => makeEvent(g, 'score.changed', 0, from + i));
}

export function makeSnapshot(g: Game, state: GameSnapshot['state'] = 'in'): GameSnapshot {
  const team = (t: TeamRef) => ({
    ...t,
    displayName: t.abbreviation,
    color: null,
    alternateColor: null,
    logo: null,
  });
  return {
    league: g.league,
    gameId: g.gameId,
    seq: 0,
    state,
    status: { name: null, detail: null, description: null },
    teams: { home: team(g.home), away: team(g.away) },
    score: { home: 0, away: 0 },
    period: 1,
    clock: '12:00',
    date: null,
    scoreboard: null,
    recentPlays: [],
    winProbability: null,
    updatedAt: new Date().toISOString(),
  };
}
