import type { League } from '../core/leagues.js';
import { statusObject, clockSeconds, type GameState } from './game-status.js';
import type { Random } from './random.js';
import { buildScoreboardEvent } from './scoreboard.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- summary payloads are ESPN's free-form JSON */
type Json = Record<string, any>;

/** Where a simulated game stands at a moment. */
export interface GameView {
  readonly state: GameState;
  readonly period: number;
  readonly displayClock: string;
  readonly clock: number;
  /** The last revealed play ended a period (end of quarter, halftime). */
  readonly endOfPeriod: boolean;
  readonly homeScore: number;
  readonly awayScore: number;
  /** Plays revealed (before removals). */
  readonly revealed: number;
  readonly totalPlays: number;
}

/** A live game the simulator serves: a finished summary revealed over time. */
export interface SimulatedGame {
  readonly league: League;
  readonly id: string;
  /** The finished summary payload the game ends as. */
  readonly final: Readonly<Json>;
  /** Clock time (ms) the game starts. */
  readonly startAt: number;
  /** Clock time (ms) the last play is revealed. */
  readonly endAt: number;
  state(now: number): GameView;
  /** The summary payload as ESPN would serve it at `now`. */
  summary(now: number): Json;
  /** The summary as JSON text (cached while nothing changes). */
  summaryText(now: number): string;
  /** The game as a scoreboard `events[]` entry at `now`. */
  scoreboardEvent(now: number): Json;
  /** Changes an already revealed play (text or score); the change persists. Returns the play id. */
  correctPlay(now: number, random: Random): string | undefined;
  /** Makes an already revealed play vanish from then on. Returns the play id. */
  removePlay(now: number, random: Random): string | undefined;
}

export interface ReplayOptions {
  readonly league: League;
  readonly final: Json;
  readonly startAt: number;
  /** Game-time multiplier (2 = twice real speed). */
  readonly speed: number;
}

const wallclockMs = (play: Json): number => {
  const t = typeof play.wallclock === 'string' ? Date.parse(play.wallclock) : NaN;
  return Number.isFinite(t) ? t : NaN;
};

export function createReplayGame(options: ReplayOptions): SimulatedGame {
  const { league, final, startAt } = options;
  const speed = options.speed > 0 ? options.speed : 1;
  const plays: Json[] = Array.isArray(final.plays) ? final.plays : [];
  const competition: Json = final.header?.competitions?.[0] ?? {};
  const id = String(final.header?.id ?? competition.id ?? 'unknown');
  const regulationPeriods = Number(final.format?.regulation?.periods ?? 4) || 4;

  // Offsets (game ms after the first play) per play; a play without a wallclock follows the one before it.
  const raw = plays.map(wallclockMs);
  const t0 = Math.min(...raw.filter(Number.isFinite));
  let previous = 0;
  const offsets = raw.map((t) => (previous = Number.isFinite(t) ? t - t0 : previous));
  // Reveal order: by offset, ties in payload order; the k first of it are revealed at one moment.
  const order = offsets.map((_, i) => i).sort((a, b) => (offsets[a] ?? 0) - (offsets[b] ?? 0) || a - b);
  const sortedOffsets = order.map((i) => offsets[i] ?? 0);
  const lastOffset = sortedOffsets[sortedOffsets.length - 1] ?? 0;
  // The latest revealed play in payload (game) order once k plays are revealed: status, clock and
  // score come from it, so a play stamped early never makes the score go back when its predecessor appears.
  let runningMax = 0;
  const lastInGameOrder = order.map((i) => (runningMax = Math.max(runningMax, i)));
  const endAt = startAt + lastOffset / speed;

  const corrections = new Map<string, Json>();
  const removed = new Set<string>();
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

  const playAt = (i: number): Json => {
    const play = plays[i] ?? {};
    const fix = corrections.get(String(play.id));
    return fix ? { ...play, ...fix } : play;
  };

  const view = (now: number): GameView => {
    const count = revealedCount(now);
    const state = stateOf(count);
    const finalScores = competitorScores();
    if (state !== 'in') {
      const last = state === 'post' ? playAt(plays.length - 1) : undefined;
      return {
        state,
        period:
          state === 'post'
            ? Number(last?.period?.number ?? competition.status?.period ?? regulationPeriods)
            : 0,
        displayClock: '0.0',
        clock: 0,
        endOfPeriod: false,
        homeScore: state === 'post' ? finalScores.home : 0,
        awayScore: state === 'post' ? finalScores.away : 0,
        revealed: Math.max(0, count),
        totalPlays: plays.length,
      };
    }
    const last = playAt(lastInGameOrder[count - 1] ?? 0);
    const displayClock = String(last.clock?.displayValue ?? '0.0');
    return {
      state,
      period: Number(last.period?.number ?? 1),
      displayClock,
      clock: clockSeconds(displayClock),
      endOfPeriod: isEndOfPeriod(last),
      homeScore: Number(last.homeScore ?? 0),
      awayScore: Number(last.awayScore ?? 0),
      revealed: count,
      totalPlays: plays.length,
    };
  };

  function competitorScores(): { home: number; away: number } {
    const comps: Json[] = competition.competitors ?? [];
    const home = comps.find((c) => c.homeAway === 'home');
    const away = comps.find((c) => c.homeAway === 'away');
    return { home: Number(home?.score ?? 0), away: Number(away?.score ?? 0) };
  }

  const isEndOfPeriod = (play: Json): boolean => String(play.type?.id) === '412';

  const revealedIndexes = (count: number): Set<number> => new Set(order.slice(0, Math.max(0, count)));

  const linescores = (indexes: Set<number>): { home: number[]; away: number[] } => {
    // Per period, the score at the latest revealed play of that period, minus the one before.
    const atPeriodEnd = new Map<number, { home: number; away: number; offset: number }>();
    for (const i of indexes) {
      const p = playAt(i);
      const period = Number(p.period?.number ?? 1);
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

  const summary = (now: number): Json => {
    const count = revealedCount(now);
    const state = stateOf(count);
    if (state === 'post') {
      if (version === 0) return final;
      const keep = (p: Json) => !removed.has(String(p.id));
      return {
        ...final,
        plays: plays.map((_, i) => playAt(i)).filter(keep),
        winprobability: (final.winprobability ?? []).filter((w: Json) => !removed.has(String(w.playId))),
      };
    }
    const v = view(now);
    const status = statusObject({ ...v, regulationPeriods });
    const out: Json = { ...final };
    delete out.article;
    if (final.meta) out.meta = { ...final.meta, gameState: state };
    const indexes = revealedIndexes(count);
    const lines = linescores(indexes);
    const competitors = (competition.competitors ?? []).map((c: Json) => {
      const copy: Json = { ...c };
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
      ...final.header,
      competitions: [
        { ...competition, status, competitors },
        ...(final.header?.competitions?.slice(1) ?? []),
      ],
    };
    if (state === 'pre') {
      delete out.plays;
      delete out.winprobability;
      return out;
    }
    const revealedIds = new Set<string>();
    const livePlays: Json[] = [];
    plays.forEach((_, i) => {
      if (!indexes.has(i)) return;
      const p = playAt(i);
      if (removed.has(String(p.id))) return;
      revealedIds.add(String(p.id));
      livePlays.push(p);
    });
    out.plays = livePlays;
    out.winprobability = (final.winprobability ?? []).filter((w: Json) => revealedIds.has(String(w.playId)));
    return out;
  };

  const summaryText = (now: number): string => {
    const key = `${revealedCount(now)}|${version}`;
    if (cache?.key !== key) cache = { key, text: JSON.stringify(summary(now)) };
    return cache.text;
  };

  const candidates = (now: number): number[] => {
    const count = revealedCount(now);
    if (stateOf(count) !== 'in') return [];
    // Never the latest play (its score drives the status) and never a period boundary.
    return order.slice(0, Math.max(0, count - 1)).filter((i) => {
      const p = plays[i];
      return p && !removed.has(String(p.id)) && !isEndOfPeriod(p) && String(p.type?.id) !== '402';
    });
  };

  return {
    league,
    id,
    final,
    startAt,
    endAt,
    state: view,
    summary,
    summaryText,
    scoreboardEvent: (now) =>
      buildScoreboardEvent(
        league,
        final,
        view(now),
        (count) => linescores(revealedIndexes(count)),
        regulationPeriods,
      ),
    correctPlay(now, random) {
      const pool = candidates(now);
      const i = pool[Math.floor(random() * pool.length)];
      if (i === undefined) return undefined;
      const p = playAt(i);
      const fix: Json = { ...(corrections.get(String(p.id)) ?? {}) };
      if (p.scoringPlay && (p.scoreValue === 2 || p.scoreValue === 3)) {
        // A two judged a three on review (or back): the play's own value and score change.
        const delta = p.scoreValue === 2 ? 1 : -1;
        const home =
          String(p.team?.id) ===
          String(competition.competitors?.find((c: Json) => c.homeAway === 'home')?.id);
        fix.scoreValue = p.scoreValue + delta;
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
