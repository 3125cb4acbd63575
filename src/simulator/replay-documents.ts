import type { League } from '../core/leagues.js';
import { arr, obj } from '../tables/cells.js';
import type { JsonObject } from './espn-shapes.js';
import { clockSeconds, statusObject } from './game-status.js';
import { isEndOfPeriod, periodOf, type ReplayPlays } from './replay-plays.js';
import type { ReplayTimeline } from './replay-timeline.js';
import type { GameView } from './simulated-game.js';

/**
 * What a replay serves at a moment, from its timeline and its (edited) plays: where the game
 * stands, the summary document as ESPN would serve it, and each side's points per period.
 */

export class ReplayDocuments {
  private readonly total: number;
  private readonly header: JsonObject;
  private readonly competition: JsonObject;
  private readonly competitors: JsonObject[];
  private readonly regulationPeriods: number;

  constructor(
    private readonly league: League,
    private readonly final: Readonly<JsonObject>,
    private readonly timeline: ReplayTimeline,
    private readonly plays: ReplayPlays,
  ) {
    this.total = arr(final.plays).length;
    this.header = obj(final.header);
    this.competition = obj(arr(this.header.competitions)[0]);
    this.competitors = arr(this.competition.competitors).map(obj);
    this.regulationPeriods = Number(obj(obj(final.format).regulation).periods ?? 4) || 4;
  }

  /** Where the game stands at `now`. */
  view(now: number): GameView {
    const { timeline, plays, total } = this;
    const count = timeline.revealedCount(now);
    const state = timeline.stateOf(count);
    if (state !== 'in') {
      const last = state === 'post' ? plays.at(total - 1) : undefined;
      return {
        state,
        period:
          state === 'post'
            ? Number(
                (last && periodOf(last)) ?? obj(this.competition.status).period ?? this.regulationPeriods,
              )
            : 0,
        displayClock: '0.0',
        clock: 0,
        endOfPeriod: false,
        homeScore: state === 'post' ? plays.finalScore('home') : 0,
        awayScore: state === 'post' ? plays.finalScore('away') : 0,
        revealed: Math.max(0, count),
        totalPlays: total,
      };
    }
    const last = plays.at(timeline.latestInGameOrder(count));
    const displayClock = String(obj(last.clock).displayValue ?? '0.0');
    return {
      state,
      period: Number(periodOf(last) ?? 1),
      displayClock,
      clock: clockSeconds(displayClock),
      endOfPeriod: isEndOfPeriod(last),
      homeScore: Number(last.homeScore ?? 0),
      awayScore: Number(last.awayScore ?? 0),
      revealed: count,
      totalPlays: total,
    };
  }

  /** The summary document as ESPN would serve it at `now`. */
  summary(now: number): JsonObject {
    const { timeline, final, header } = this;
    const count = timeline.revealedCount(now);
    const state = timeline.stateOf(count);
    if (state === 'post') return this.finalSummary();
    const v = this.view(now);
    const status = statusObject({ ...v, league: this.league });
    const out: JsonObject = { ...final };
    // The recap is written after the final buzzer.
    delete out.article;
    if (final.meta) out.meta = { ...obj(final.meta), gameState: state };
    const indexes = new Set(timeline.revealed(count));
    out.header = {
      ...header,
      competitions: [
        { ...this.competition, status, competitors: this.liveCompetitors(v, indexes) },
        ...arr(header.competitions).slice(1),
      ],
    };
    if (state === 'pre') {
      delete out.plays;
      delete out.winprobability;
      return out;
    }
    const livePlays = this.plays.listOf((i) => indexes.has(i));
    const revealedIds = new Set(livePlays.map((p) => String(p.id)));
    out.plays = livePlays;
    out.winprobability = this.winprobabilityOf((playId) => revealedIds.has(playId));
    return out;
  }

  /** Per side, the points of each period once `count` plays are revealed. */
  linescores(count: number): { home: number[]; away: number[] } {
    return this.linescoresOf(new Set(this.timeline.revealed(count)));
  }

  private linescoresOf(indexes: Set<number>): { home: number[]; away: number[] } {
    // Per period, the score at the latest revealed play of that period, minus the one before.
    const atPeriodEnd = new Map<number, { home: number; away: number; offset: number }>();
    for (const i of indexes) {
      const p = this.plays.at(i);
      const period = Number(periodOf(p) ?? 1);
      const offset = this.timeline.offsetOf(i);
      const seen = atPeriodEnd.get(period);
      if (!seen || offset >= seen.offset)
        atPeriodEnd.set(period, { home: Number(p.homeScore ?? 0), away: Number(p.awayScore ?? 0), offset });
    }
    const periods = [...atPeriodEnd.keys()].sort((a, b) => a - b);
    const home: number[] = [];
    const away: number[] = [];
    let ph = 0;
    let pa = 0;
    for (let p = 1; p <= (periods[periods.length - 1] ?? 0); p++) {
      const s = atPeriodEnd.get(p) ?? { home: ph, away: pa };
      home.push(s.home - ph);
      away.push(s.away - pa);
      ph = s.home;
      pa = s.away;
    }
    return { home, away };
  }

  /** The win probability entries of the plays `keep` accepts. */
  private winprobabilityOf(keep: (playId: string) => boolean): unknown[] {
    return arr(this.final.winprobability).filter((w) => keep(String(obj(w).playId)));
  }

  /** The finished summary, with the stat crews' edits when there were any. */
  private finalSummary(): JsonObject {
    const { final, plays } = this;
    if (plays.version === 0) return final;
    const out: JsonObject = {
      ...final,
      plays: plays.listOf(() => true),
      winprobability: this.winprobabilityOf((playId) => !plays.isRemoved(playId)),
    };
    if (plays.rescored) out.header = this.rescoredHeader();
    return out;
  }

  /** The final header with the rescores applied to each side's score and period line. */
  private rescoredHeader(): JsonObject {
    const { header, plays } = this;
    return {
      ...header,
      competitions: [
        {
          ...this.competition,
          competitors: this.competitors.map((c) => {
            const side = c.homeAway === 'home' ? 'home' : 'away';
            const lines = arr(c.linescores).map((l, i) => {
              const value = Number(obj(l).displayValue ?? obj(l).value ?? 0) + plays.periodShift(side, i + 1);
              return {
                ...obj(l),
                displayValue: String(value),
                ...(obj(l).value !== undefined ? { value } : {}),
              };
            });
            return { ...c, score: String(plays.finalScore(side)), linescores: lines };
          }),
        },
        ...arr(header.competitions).slice(1),
      ],
    };
  }

  /** The header's competitors before and during the game: the score so far, no winner yet. */
  private liveCompetitors(v: GameView, indexes: Set<number>): JsonObject[] {
    const lines = this.linescoresOf(indexes);
    return this.competitors.map((c) => {
      const copy: JsonObject = { ...c };
      if (v.state === 'pre') {
        delete copy.score;
        delete copy.linescores;
        delete copy.winner;
        return copy;
      }
      const side = c.homeAway === 'home' ? 'home' : 'away';
      copy.score = String(side === 'home' ? v.homeScore : v.awayScore);
      copy.winner = false;
      copy.linescores = lines[side].map((n) => ({ displayValue: String(n) }));
      return copy;
    });
  }
}
