import { obj } from '../tables/cells.js';
import type { JsonObject } from './espn-shapes.js';
import type { Random } from './random.js';

/**
 * A replay's plays as the stat crews leave them: the recorded ones with their corrections,
 * removals and rescores applied, and the plays entered late woven in. The edits persist, and each
 * one bumps a version, so that a cached document knows it is stale.
 */

// ESPN's play type ids of the two plays that close a period and the game.
const END_PERIOD_TYPE = '412';
const END_GAME_TYPE = '402';

const typeId = (play: JsonObject): string => String(obj(play.type).id);
export const periodOf = (play: JsonObject): unknown => obj(play.period).number;
export const isEndOfPeriod = (play: JsonObject): boolean => typeId(play) === END_PERIOD_TYPE;

export type Side = 'home' | 'away';

export class ReplayPlays {
  private readonly corrections = new Map<string, JsonObject>();
  private readonly removed = new Set<string>();
  // Rescores: from the play at `index` (payload order) on, a side's running score is `delta` lower.
  private readonly shifts: Array<{ index: number; side: Side; delta: number; period: number }> = [];
  private readonly rescoredIds = new Set<string>();
  // Plays revealed late, each placed right after the play at `anchor` (payload order).
  private readonly inserted: Array<{ anchor: number; play: JsonObject }> = [];
  private highestId: string;
  private edits = 0;

  constructor(
    private readonly plays: readonly JsonObject[],
    private readonly competitors: readonly JsonObject[],
  ) {
    this.highestId = highestPlayId(plays);
  }

  /** How many edits were made. */
  get version(): number {
    return this.edits;
  }

  /** A rescore changed the final score. */
  get rescored(): boolean {
    return this.shifts.length > 0;
  }

  /** The play at payload index `i` with its corrections and its running score after rescores. */
  at(i: number): JsonObject {
    return this.shifted(this.correctedAt(i), i);
  }

  /** The plays at the payload indexes `keep` accepts, removals left out and late plays woven in. */
  listOf(keep: (i: number) => boolean): JsonObject[] {
    const out: JsonObject[] = [];
    const late = new Map<number, JsonObject[]>();
    for (const x of this.inserted) {
      if (!keep(x.anchor)) continue;
      const anchor = this.at(x.anchor);
      // A late play stands at its anchor's moment, running score included.
      const play = { ...x.play, homeScore: anchor.homeScore, awayScore: anchor.awayScore };
      late.set(x.anchor, [...(late.get(x.anchor) ?? []), play]);
    }
    this.plays.forEach((_, i) => {
      if (!keep(i)) return;
      const p = this.at(i);
      if (!this.removed.has(String(p.id))) out.push(p);
      out.push(...(late.get(i) ?? []));
    });
    return out;
  }

  isRemoved(playId: string): boolean {
    return this.removed.has(playId);
  }

  /** The final score, after rescores. */
  finalScore(side: Side): number {
    const recorded = Number(this.sideOf(side)?.score ?? 0);
    return recorded + this.shifts.reduce((n, s) => n + (s.side === side ? s.delta : 0), 0);
  }

  /** The points rescores added to `side`'s `period` (negative: taken off). */
  periodShift(side: Side, period: number): number {
    return this.shifts.reduce((n, s) => n + (s.side === side && s.period === period ? s.delta : 0), 0);
  }

  /** Whether the stat crews may change the play at `i`: still there, and not a period's or the game's end. */
  editable(i: number): boolean {
    const p = this.plays[i];
    return !!p && !this.removed.has(String(p.id)) && !isEndOfPeriod(p) && typeId(p) !== END_GAME_TYPE;
  }

  // The edits, each on a play drawn from `pool` (payload indexes); each returns the play id.

  /** A correction: a two judged a three (or back), else only the text. */
  correct(pool: readonly number[], random: Random): string | undefined {
    const i = drawFrom(pool, random);
    if (i === undefined) return undefined;
    const p = this.correctedAt(i);
    const fix: JsonObject = { ...this.corrections.get(String(p.id)) };
    const value = p.scoreValue;
    if (p.scoringPlay && (value === 2 || value === 3)) {
      // A two judged a three on review (or back): the play's own value and score change.
      const delta = value === 2 ? 1 : -1;
      const home = String(obj(p.team).id) === String(this.sideOf('home')?.id);
      fix.scoreValue = value + delta;
      if (home) fix.homeScore = Number(p.homeScore) + delta;
      else fix.awayScore = Number(p.awayScore) + delta;
      fix.text = `${String(p.text ?? '')} (scoring changed on review)`;
    } else {
      fix.text = `${String(p.text ?? '')} (corrected)`;
    }
    this.corrections.set(String(p.id), fix);
    return this.edited(String(p.id));
  }

  /** A play entered late, right after the one drawn. */
  insert(pool: readonly number[], random: Random): string | undefined {
    const anchor = drawFrom(pool, random);
    if (anchor === undefined) return undefined;
    const at = this.at(anchor);
    this.highestId = nextId(this.highestId);
    this.inserted.push({ anchor, play: latePlay(this.highestId, at) });
    return this.edited(this.highestId);
  }

  /** A scoring play marked down on review, and every running score after it. */
  rescore(pool: readonly number[], random: Random): string | undefined {
    const home = String(this.sideOf('home')?.id);
    const margin = this.finalScore('home') - this.finalScore('away');
    // Never one that would tie or turn the final result: the recorded winner stays the winner.
    const i = drawFrom(
      pool.filter((i) => {
        const p = this.at(i);
        if (p.scoringPlay !== true || !(Number(p.scoreValue) >= 1) || this.rescoredIds.has(String(p.id)))
          return false;
        const less = lessOnReview(Number(p.scoreValue));
        const after = String(obj(p.team).id) === home ? margin - less : margin + less;
        return after !== 0 && after > 0 === margin > 0;
      }),
      random,
    );
    if (i === undefined) return undefined;
    const p = this.at(i);
    const value = Number(p.scoreValue);
    const less = lessOnReview(value);
    const fix: JsonObject = {
      ...this.corrections.get(String(p.id)),
      scoreValue: value - less,
      text: `${String(p.text ?? '')} (${value - less === 0 ? 'no good' : `a ${value - less}`} on review)`,
    };
    if (value - less === 0) fix.scoringPlay = false;
    this.corrections.set(String(p.id), fix);
    const side = String(obj(p.team).id) === home ? 'home' : 'away';
    this.shifts.push({ index: i, side, delta: -less, period: Number(periodOf(p) ?? 1) });
    this.rescoredIds.add(String(p.id));
    return this.edited(String(p.id));
  }

  /** A play that vanishes from then on. */
  remove(pool: readonly number[], random: Random): string | undefined {
    const i = drawFrom(pool, random);
    const p = i === undefined ? undefined : this.plays[i];
    if (!p) return undefined;
    this.removed.add(String(p.id));
    return this.edited(String(p.id));
  }

  private edited(playId: string): string {
    this.edits++;
    return playId;
  }

  private sideOf(homeAway: string): JsonObject | undefined {
    return this.competitors.find((c) => c.homeAway === homeAway);
  }

  /** The play at `i` with its corrections, before rescores move its running score. */
  private correctedAt(i: number): JsonObject {
    const play = this.plays[i] ?? {};
    const fix = this.corrections.get(String(play.id));
    return fix ? { ...play, ...fix } : play;
  }

  private shifted(play: JsonObject, i: number): JsonObject {
    let home = 0;
    let away = 0;
    for (const s of this.shifts) {
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
  }
}

const drawFrom = (pool: readonly number[], random: Random): number | undefined =>
  pool[Math.floor(random() * pool.length)];

/** A play entered late at `at`'s moment, numbered `id`. */
function latePlay(id: string, at: JsonObject): JsonObject {
  return {
    id,
    // Lower than the plays after it: the anchor's own number, as ESPN numbers a play entered late.
    sequenceNumber: String(at.sequenceNumber ?? '0'),
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
