import type { League } from '../core/leagues.js';
import { periodFormat, periodLabel } from '../core/periods.js';
import type { SimAthlete } from './athletes.js';
import { playStyle, type PlayStyle } from './play-style.js';
import { randomInt, type Random } from './random.js';

/**
 * The scoresheet of a synthetic game in progress: period, clock, score, who is on the court, each
 * athlete's box score line, the team fouls and timeouts, and the ESPN-shaped plays written so far
 * with a win probability each. The possessions (synthetic-possession.ts) write to it.
 */

// ESPN puts these out-of-range values in `coordinate` for plays that have no court location.
export const NO_COORDINATE = { x: -214748340, y: -214748365 } as const;
// A period is 12 minutes in the men's league and 10 in the women's; overtime is 5 in both.
// College: two 20-minute halves for the men, four 10-minute quarters for the women.
export const PERIOD_SECONDS: Readonly<Record<League, number>> = {
  mens: 720,
  womens: 600,
  'mens-college': 1200,
  'womens-college': 600,
};
export const OVERTIME_SECONDS = 300;

export interface SimTeam {
  readonly id: string;
  readonly name: string;
  readonly roster: readonly SimAthlete[];
}

export interface AthleteLine {
  seconds: number;
  points: number;
  fgm: number;
  fga: number;
  tpm: number;
  tpa: number;
  ftm: number;
  fta: number;
  oreb: number;
  dreb: number;
  ast: number;
  to: number;
  stl: number;
  blk: number;
  pf: number;
  plusMinus: number;
}

export interface WinProbabilityEntry {
  homeWinPercentage: number;
  tiePercentage: number;
  playId: string;
}

export const emptyLine = (): AthleteLine => ({
  seconds: 0,
  points: 0,
  fgm: 0,
  fga: 0,
  tpm: 0,
  tpa: 0,
  ftm: 0,
  fta: 0,
  oreb: 0,
  dreb: 0,
  ast: 0,
  to: 0,
  stl: 0,
  blk: 0,
  pf: 0,
  plusMinus: 0,
});

/** Home win probability from the lead, the time left and a small home edge (a logistic fit). */
export function homeWinProbability(lead: number, secondsLeft: number, regulationSeconds: number): number {
  if (secondsLeft <= 0) return lead > 0 ? 1 : lead < 0 ? 0 : 0.5;
  const fractionLeft = Math.min(1, secondsLeft / regulationSeconds);
  // Home teams start about 2.5 points better, an edge that fades as time runs out, and a full game
  // spreads results by about 11 points.
  const spread = 11 * Math.sqrt(fractionLeft) + 0.5;
  const z = (lead + 2.5 * fractionLeft) / spread;
  const p = 1 / (1 + Math.exp(-1.7 * z));
  return Math.round(Math.min(0.999, Math.max(0.001, p)) * 1000) / 1000;
}

/** What a play says beyond its type and text. */
export interface PlayDetails {
  team?: SimTeam;
  participants?: SimAthlete[];
  scoreValue?: number;
  shooting?: boolean;
  pointsAttempted?: number;
  coordinate?: { x: number; y: number };
  short: string;
  /** Seconds of dead ball before the play; two to nine at random when not given. */
  deadSeconds?: number;
}

export class Scoresheet {
  readonly style: PlayStyle;
  readonly periodSeconds: number;
  readonly regulationPeriods: number;
  readonly regulationSeconds: number;
  readonly plays: Record<string, unknown>[] = [];
  readonly winprobability: WinProbabilityEntry[] = [];
  readonly lines = new Map<string, AthleteLine>();
  /** Team fouls by team and count (a half, a quarter, or a period: play-style.ts). */
  readonly teamFouls = new Map<string, number>();
  /** Timeouts taken by team. */
  readonly timeouts = new Map<string, number>();
  /** The media timeout marks of the period not passed yet. */
  tvMarks: number[];
  period = 1;
  clock: number;
  homeScore = 0;
  awayScore = 0;
  /** Wallclock (ms) of the latest event. */
  wall: number;
  private seq = 1;
  private readonly onCourt = new Map<string, SimAthlete[]>();

  constructor(
    readonly league: League,
    private readonly gameId: string,
    readonly home: SimTeam,
    readonly away: SimTeam,
    firstWallclock: number,
    readonly random: Random,
  ) {
    this.periodSeconds = PERIOD_SECONDS[league];
    this.regulationPeriods = periodFormat(league).regulation;
    this.style = playStyle(league);
    this.tvMarks = [...this.style.tvTimeouts];
    this.regulationSeconds = this.periodSeconds * this.regulationPeriods;
    for (const a of [...home.roster, ...away.roster]) this.lines.set(a.id, emptyLine());
    this.startersIn();
    this.wall = firstWallclock;
    this.clock = this.periodSeconds;
  }

  line(a: SimAthlete): AthleteLine {
    return this.lines.get(a.id) ?? emptyLine();
  }

  /** The team's five on the court; a substitution changes it in place. */
  court(t: SimTeam): SimAthlete[] {
    return this.onCourt.get(t.id) ?? [];
  }

  other(t: SimTeam): SimTeam {
    return t === this.home ? this.away : this.home;
  }

  /** Runs the clock: on-court athletes accumulate minutes. */
  run(seconds: number): void {
    const s = Math.min(seconds, this.clock);
    this.clock -= s;
    for (const a of [...this.court(this.home), ...this.court(this.away)]) this.line(a).seconds += s;
    this.wall += s * 1000;
  }

  /** Writes a play at the current clock, with the running score and the home side's win probability. */
  add(typeId: string, typeText: string, text: string, o: PlayDetails): void {
    const { random } = this;
    // Two to nine seconds of dead ball between events, as in a broadcast game (about 2 h 10 min in all).
    this.wall += (o.deadSeconds ?? randomInt(random, 2, 9)) * 1000;
    // ESPN's wallclock is not monotonic: now and then a play is stamped a few seconds early.
    const stamp = random() < 0.03 ? this.wall - randomInt(random, 1, 4) * 1000 : this.wall;
    const scoreValue = o.scoreValue ?? 0;
    if (scoreValue > 0 && o.team) this.score(o.team, scoreValue);
    this.seq += random() < 0.8 ? 1 : randomInt(random, 2, 4);
    const id = `${this.gameId}${this.seq}`;
    this.plays.push({
      id,
      sequenceNumber: String(this.seq),
      type: { id: typeId, text: typeText },
      text,
      awayScore: this.awayScore,
      homeScore: this.homeScore,
      period: { number: this.period, displayValue: periodLabel(this.league, this.period) },
      clock: { displayValue: this.style.clock(this.clock) },
      scoringPlay: scoreValue > 0,
      scoreValue,
      ...(o.team ? { team: { id: o.team.id } } : {}),
      ...(o.participants?.length
        ? { participants: o.participants.map((a) => ({ athlete: { id: a.id } })) }
        : {}),
      wallclock: new Date(stamp).toISOString().replace('.000', ''),
      shootingPlay: o.shooting ?? false,
      coordinate: o.coordinate ?? NO_COORDINATE,
      pointsAttempted: o.pointsAttempted ?? 0,
      shortDescription: o.short,
    });
    this.winprobability.push({
      homeWinPercentage: homeWinProbability(
        this.homeScore - this.awayScore,
        this.secondsLeftInGame(),
        this.regulationSeconds,
      ),
      tiePercentage: 0,
      playId: id,
    });
  }

  /** A court location `distance` feet from the basket, at a random angle. */
  shotCoordinate(distance: number): { x: number; y: number } {
    const angle = this.random() * Math.PI;
    // `|| 0` turns -0 into 0: JSON has no negative zero.
    return {
      x: Math.round(25 + distance * Math.cos(angle)) || 0,
      y: Math.max(0, Math.round(distance * Math.sin(angle))) || 0,
    };
  }

  /** The break after a period, then the next period's clock, media timeouts and starting fives. */
  nextPeriod(): void {
    // A break between quarters lasts about two minutes, halftime fifteen.
    this.wall += (this.period === this.regulationPeriods / 2 ? 15 * 60 : 130) * 1000;
    this.period++;
    this.clock = this.period <= this.regulationPeriods ? this.periodSeconds : OVERTIME_SECONDS;
    this.tvMarks = [...this.style.tvTimeouts];
    this.startersIn();
  }

  private score(team: SimTeam, points: number): void {
    if (team === this.home) this.homeScore += points;
    else this.awayScore += points;
    for (const a of this.court(team)) this.line(a).plusMinus += points;
    for (const a of this.court(this.other(team))) this.line(a).plusMinus -= points;
  }

  private secondsLeftInGame(): number {
    const { period, clock, regulationPeriods } = this;
    return period <= regulationPeriods ? clock + (regulationPeriods - period) * this.periodSeconds : clock;
  }

  private startersIn(): void {
    for (const t of [this.home, this.away]) this.onCourt.set(t.id, t.roster.slice(0, 5));
  }
}
