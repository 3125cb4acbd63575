import type { League } from '../core/leagues.js';
import { arr, obj } from '../tables/cells.js';
import type { JsonObject } from './espn-shapes.js';
import { statusObject, clockSeconds, type GameState } from './game-status.js';
import { buildScoreboardEvent } from './scoreboard.js';
import type { GameView, SimulatedGame } from './simulated-game.js';

export interface ReplayOptions {
  readonly league: League;
  /** A finished summary; its `plays` are revealed by their wallclocks. */
  readonly final: Readonly<JsonObject>;
  readonly startAt: number;
  /** Game-time multiplier (2 = twice real speed). */
  readonly speed: number;
  /** The game was made up by the simulator rather than recorded; default false. */
  readonly synthetic?: boolean;
}

// ESPN's play type ids of the two plays that close a period and the game.
const END_PERIOD_TYPE = '412';
const END_GAME_TYPE = '402';

const wallclockMs = (play: JsonObject): number => {
  const t = typeof play.wallclock === 'string' ? Date.parse(play.wallclock) : NaN;
  return Number.isFinite(t) ? t : NaN;
};

const typeId = (play: JsonObject): string => String(obj(play.type).id);
const periodOf = (play: JsonObject): unknown => obj(play.period).number;

/** When a replay reveals each play of its finished summary. */
export interface RevealSchedule {
  /** Per play, in payload order: game ms after the first play at which it is revealed. */
  readonly offsets: readonly number[];
  /**
   * Payload indexes in reveal order: by offset, ties in payload order. A moment reveals a prefix
   * of it, and plays of equal offset always together.
   */
  readonly order: readonly number[];
}

/**
 * The plays' reveal schedule, from their wallclocks: a play without one follows the one before it.
 * ESPN enters some plays late, so the order can differ from the payload's (the list order).
 */
export function revealSchedule(plays: readonly JsonObject[]): RevealSchedule {
  const raw = plays.map(wallclockMs);
  const t0 = Math.min(...raw.filter(Number.isFinite));
  let previous = 0;
  const offsets = raw.map((t) => (previous = Number.isFinite(t) ? t - t0 : previous));
  const order = offsets.map((_, i) => i).sort((a, b) => (offsets[a] ?? 0) - (offsets[b] ?? 0) || a - b);
  return { offsets, order };
}

export function createReplayGame(options: ReplayOptions): SimulatedGame {
  const { league, final, startAt } = options;
  const speed = options.speed > 0 ? options.speed : 1;
  const plays: readonly JsonObject[] = arr(final.plays).map(obj);
  const header = obj(final.header);
  const competition = obj(arr(header.competitions)[0]);
  const competitors = arr(competition.competitors).map(obj);
  const id = String(header.id ?? competition.id ?? 'unknown');
  const regulationPeriods = Number(obj(obj(final.format).regulation).periods ?? 4) || 4;

  const { offsets, order } = revealSchedule(plays);
  const sortedOffsets = order.map((i) => offsets[i] ?? 0);
  const lastOffset = sortedOffsets[sortedOffsets.length - 1] ?? 0;
  // The latest revealed play in payload (game) order once k plays are revealed: status, clock and
  // score come from it, so a play stamped early never makes the score go back when its predecessor appears.
  let runningMax = 0;
  const lastInGameOrder = order.map((i) => (runningMax = Math.max(runningMax, i)));
  const endAt = startAt + lastOffset / speed;

  const corrections = new Map<string, JsonObject>();
  const removed = new Set<string>();
  // Rescores: from the play at `index` (payload order) on, a side's running score is `delta` lower.
  const shifts: Array<{ index: number; side: 'home' | 'away'; delta: number; period: number }> = [];
  const rescored = new Set<string>();
  // Plays revealed late, each placed right after the play at `anchor` (payload order).
  const inserted: Array<{ anchor: number; play: JsonObject }> = [];
  let highestId = highestPlayId(plays);
  let version = 0;
  let cache: { key: string; text: string } | undefined;

  const revealedCount = (now: number): number => {
    if (now < startAt) return -1;
    const elapsed = (now - startAt) * speed;
    let lo = 0;
    let hi = sortedOffsets.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sortedOffsets[mid] ?? 0) <= elapsed) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const stateOf = (count: number): GameState => {
    if (count < 0) return 'pre';
    return count >= plays.length ? 'post' : 'in';
  };

  const shifted = (play: JsonObject, i: number): JsonObject => {
    let home = 0;
    let away = 0;
    for (const s of shifts) {
      if (s.index > i) continue;
      if (s.side === 'home') home += s.delta;
      else away += s.delta;
    }
    if (home === 0 && away === 0) return play;
    return {
      ...play,
      homeScore: Number(play.homeScore ?? 0) + home,
      awayScore: Number(play.awayScore ?? 0) + away,
    };
  };

  /** The play at `i` with its corrections, before rescores move its running score. */
  const correctedAt = (i: number): JsonObject => {
    const play = plays[i] ?? {};
    const fix = corrections.get(String(play.id));
    return fix ? { ...play, ...fix } : play;
  };

  const playAt = (i: number): JsonObject => shifted(correctedAt(i), i);

  /** The plays at `indexes` (payload order) with the late ones woven in after their anchors. */
  const listOf = (keep: (i: number) => boolean): JsonObject[] => {
    const out: JsonObject[] = [];
    const late = new Map<number, JsonObject[]>();
    for (const x of inserted) {
      if (!keep(x.anchor)) continue;
      const anchor = playAt(x.anchor);
      // A late play stands at its anchor's moment, running score included.
      const play = { ...x.play, homeScore: anchor.homeScore, awayScore: anchor.awayScore };
      late.set(x.anchor, [...(late.get(x.anchor) ?? []), play]);
    }
    plays.forEach((_, i) => {
      if (!keep(i)) return;
      const p = playAt(i);
      if (!removed.has(String(p.id))) out.push(p);
      out.push(...(late.get(i) ?? []));
    });
    return out;
  };

  /** The final score, after rescores. */
  const finalScore = (side: 'home' | 'away'): number =>
    Number(sideOf(side)?.score ?? 0) + shifts.reduce((n, s) => n + (s.side === side ? s.delta : 0), 0);

  const sideOf = (homeAway: string): JsonObject | undefined =>
    competitors.find((c) => c.homeAway === homeAway);

  const isEndOfPeriod = (play: JsonObject): boolean => typeId(play) === END_PERIOD_TYPE;

  const view = (now: number): GameView => {
    const count = revealedCount(now);
    const state = stateOf(count);
    if (state !== 'in') {
      const last = state === 'post' ? playAt(plays.length - 1) : undefined;
      return {
        state,
        period:
          state === 'post'
            ? Number((last && periodOf(last)) ?? obj(competition.status).period ?? regulationPeriods)
            : 0,
        displayClock: '0.0',
        clock: 0,
        endOfPeriod: false,
        homeScore: state === 'post' ? finalScore('home') : 0,
        awayScore: state === 'post' ? finalScore('away') : 0,
        revealed: Math.max(0, count),
        totalPlays: plays.length,
      };
    }
    const last = playAt(lastInGameOrder[count - 1] ?? 0);
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
      totalPlays: plays.length,
    };
  };

  const revealedIndexes = (count: number): Set<number> => new Set(order.slice(0, Math.max(0, count)));

  const linescores = (indexes: Set<number>): { home: number[]; away: number[] } => {
    // Per period, the score at the latest revealed play of that period, minus the one before.
    const atPeriodEnd = new Map<number, { home: number; away: number; offset: number }>();
    for (const i of indexes) {
      const p = playAt(i);
      const period = Number(periodOf(p) ?? 1);
      const offset = offsets[i] ?? 0;
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
  };

  /** The win probability entries of the plays `keep` accepts. */
  const winprobabilityOf = (keep: (playId: string) => boolean): unknown[] =>
    arr(final.winprobability).filter((w) => keep(String(obj(w).playId)));

  const summary = (now: number): JsonObject => {
    const count = revealedCount(now);
    const state = stateOf(count);
    if (state === 'post') {
      if (version === 0) return final;
      const out: JsonObject = {
        ...final,
        plays: listOf(() => true),
        winprobability: winprobabilityOf((playId) => !removed.has(playId)),
      };
      if (shifts.length > 0) out.header = rescoredHeader();
      return out;
    }
    const v = view(now);
    const status = statusObject({ ...v, league });
    const out: JsonObject = { ...final };
    // The recap is written after the final buzzer.
    delete out.article;
    if (final.meta) out.meta = { ...obj(final.meta), gameState: state };
    const indexes = revealedIndexes(count);
    const lines = linescores(indexes);
    const liveCompetitors = competitors.map((c) => {
      const copy: JsonObject = { ...c };
      if (state === 'pre') {
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
    out.header = {
      ...header,
      competitions: [
        { ...competition, status, competitors: liveCompetitors },
        ...arr(header.competitions).slice(1),
      ],
    };
    if (state === 'pre') {
      delete out.plays;
      delete out.winprobability;
      return out;
    }
    const livePlays = listOf((i) => indexes.has(i));
    const revealedIds = new Set(livePlays.map((p) => String(p.id)));
    out.plays = livePlays;
    out.winprobability = winprobabilityOf((playId) => revealedIds.has(playId));
    return out;
  };

  const summaryText = (now: number): string => {
    const key = `${revealedCount(now)}|${version}`;
    if (cache?.key !== key) cache = { key, text: JSON.stringify(summary(now)) };
    return cache.text;
  };

  /** The final header with the rescores applied to each side's score and period line. */
  const rescoredHeader = (): JsonObject => ({
    ...header,
    competitions: [
      {
        ...competition,
        competitors: competitors.map((c) => {
          const side = c.homeAway === 'home' ? 'home' : 'away';
          const mine = shifts.filter((s) => s.side === side);
          const lines = arr(c.linescores).map((l, i) => {
            const less = mine.reduce((n, s) => n + (s.period === i + 1 ? s.delta : 0), 0);
            const value = Number(obj(l).displayValue ?? obj(l).value ?? 0) + less;
            return {
              ...obj(l),
              displayValue: String(value),
              ...(obj(l).value !== undefined ? { value } : {}),
            };
          });
          return { ...c, score: String(finalScore(side)), linescores: lines };
        }),
      },
      ...arr(header.competitions).slice(1),
    ],
  });

  const candidates = (now: number): number[] => {
    const count = revealedCount(now);
    if (stateOf(count) !== 'in') return [];
    // Never the latest play (its score drives the status) and never a period boundary.
    return order.slice(0, Math.max(0, count - 1)).filter((i) => {
      const p = plays[i];
      return p && !removed.has(String(p.id)) && !isEndOfPeriod(p) && typeId(p) !== END_GAME_TYPE;
    });
  };

  return {
    league,
    id,
    synthetic: options.synthetic ?? false,
    final,
    startAt,
    endAt,
    state: view,
    summary,
    summaryText,
    scoreboardEvent: (now) =>
      buildScoreboardEvent(league, final, view(now), (count) => linescores(revealedIndexes(count))),
    correctPlay(now, random) {
      const pool = candidates(now);
      const i = pool[Math.floor(random() * pool.length)];
      if (i === undefined) return undefined;
      const p = correctedAt(i);
      const fix: JsonObject = { ...corrections.get(String(p.id)) };
      const value = p.scoreValue;
      if (p.scoringPlay && (value === 2 || value === 3)) {
        // A two judged a three on review (or back): the play's own value and score change.
        const delta = value === 2 ? 1 : -1;
        const home = String(obj(p.team).id) === String(sideOf('home')?.id);
        fix.scoreValue = value + delta;
        if (home) fix.homeScore = Number(p.homeScore) + delta;
        else fix.awayScore = Number(p.awayScore) + delta;
        fix.text = `${String(p.text ?? '')} (scoring changed on review)`;
      } else {
        fix.text = `${String(p.text ?? '')} (corrected)`;
      }
      corrections.set(String(p.id), fix);
      version++;
      return String(p.id);
    },
    insertPlay(now, random) {
      const pool = candidates(now);
      const anchor = pool[Math.floor(random() * pool.length)];
      if (anchor === undefined) return undefined;
      const at = playAt(anchor);
      highestId = nextId(highestId);
      const id = highestId;
      // Lower than the plays after it: the anchor's own number, as ESPN numbers a play entered late.
      const sequenceNumber = String(at.sequenceNumber ?? '0');
      inserted.push({
        anchor,
        play: {
          id,
          sequenceNumber,
          // A substitution: entered late by stat crews, and it changes no score.
          type: { id: '584', text: 'Substitution' },
          text: 'Substitution (entered late)',
          awayScore: at.awayScore,
          homeScore: at.homeScore,
          period: at.period,
          clock: at.clock,
          scoringPlay: false,
          scoreValue: 0,
          ...(at.team ? { team: at.team } : {}),
          wallclock: at.wallclock,
          shootingPlay: false,
          pointsAttempted: 0,
        },
      });
      version++;
      return id;
    },
    rescorePlay(now, random) {
      const home = String(sideOf('home')?.id);
      const margin = finalScore('home') - finalScore('away');
      // Never one that would tie or turn the final result: the recorded winner stays the winner.
      const pool = candidates(now).filter((i) => {
        const p = playAt(i);
        if (p.scoringPlay !== true || !(Number(p.scoreValue) >= 1) || rescored.has(String(p.id)))
          return false;
        const less = lessOnReview(Number(p.scoreValue));
        const after = String(obj(p.team).id) === home ? margin - less : margin + less;
        return after !== 0 && after > 0 === margin > 0;
      });
      const i = pool[Math.floor(random() * pool.length)];
      if (i === undefined) return undefined;
      const p = playAt(i);
      const value = Number(p.scoreValue);
      const less = lessOnReview(value);
      const fix: JsonObject = {
        ...corrections.get(String(p.id)),
        scoreValue: value - less,
        text: `${String(p.text ?? '')} (${value - less === 0 ? 'no good' : `a ${value - less}`} on review)`,
      };
      if (value - less === 0) fix.scoringPlay = false;
      corrections.set(String(p.id), fix);
      const side = String(obj(p.team).id) === home ? 'home' : 'away';
      shifts.push({ index: i, side, delta: -less, period: Number(periodOf(p) ?? 1) });
      rescored.add(String(p.id));
      version++;
      return String(p.id);
    },
    removePlay(now, random) {
      const pool = candidates(now);
      const i = pool[Math.floor(random() * pool.length)];
      const p = i === undefined ? undefined : plays[i];
      if (!p) return undefined;
      removed.add(String(p.id));
      version++;
      return String(p.id);
    },
  };
}

/** The highest play id: numeric as ESPN's are (BigInt: they pass 2^53), else the last one. */
function highestPlayId(plays: readonly JsonObject[]): string {
  let best: bigint | null = null;
  for (const p of plays) {
    const id = String(p.id ?? '');
    if (!/^[0-9]+$/.test(id)) continue;
    const n = BigInt(id);
    if (best === null || n > best) best = n;
  }
  return best === null ? String(plays[plays.length - 1]?.id ?? '0') : best.toString();
}

/** An id after `id`: one more when numeric, else `id` with a suffix. */
function nextId(id: string): string {
  return /^[0-9]+$/.test(id) ? (BigInt(id) + 1n).toString() : `${id}1`;
}

/**
 * Points a scoring play loses on review: a three becomes a two (a foot on the line), a two is waived
 * off (goaltending, a foul before the shot), a free throw is ruled no good (a lane violation).
 */
function lessOnReview(value: number): number {
  return value >= 3 ? 1 : value;
}
