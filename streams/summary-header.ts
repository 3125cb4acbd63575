import { UpstreamPayloadError } from '../src/core/errors.js';
import type { Conference, GameState, SnapshotTeam } from '../src/model/events.js';
import { isObject } from '../src/core/is-object.js';

/** What the engine reads from a summary's `header` (the game's own status, teams and score). */
export interface SummaryHeader {
  state: GameState;
  name: string | null;
  detail: string | null;
  description: string | null;
  completed: boolean | null;
  period: number | null;
  clock: string | null;
  date: string | null;
  home: HeaderSide;
  away: HeaderSide;
}

export interface HeaderSide {
  team: SnapshotTeam;
  /** The header's score (ahead of the last play's running score during live play). */
  score: number | null;
  winner: boolean | null;
}

type Obj = Record<string, unknown>;

const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;

function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * Reads the header of a raw summary. A body without a usable header (no competition, no
 * home/away competitor, no status state) is an `UpstreamPayloadError`: the poll fails and backs
 * off, and no event is produced from it.
 */
export function readSummaryHeader(raw: unknown, where: string): SummaryHeader {
  const fail = (reason: string): never => {
    throw new UpstreamPayloadError(where, reason);
  };
  if (!isObject(raw)) return fail('summary is not an object');
  const header = raw.header;
  if (!isObject(header)) return fail('summary has no header');
  const competitions = header.competitions;
  const competition = Array.isArray(competitions) ? competitions[0] : undefined;
  if (!isObject(competition)) return fail('summary header has no competition');
  const status = isObject(competition.status) ? competition.status : fail('competition has no status');
  const type = isObject(status.type) ? status.type : fail('status has no type');
  const state = type.state;
  if (state !== 'pre' && state !== 'in' && state !== 'post')
    return fail(`status state ${String(state)} is unknown`);
  const competitors = Array.isArray(competition.competitors) ? competition.competitors : [];
  const home = competitors.find((c) => isObject(c) && c.homeAway === 'home');
  const away = competitors.find((c) => isObject(c) && c.homeAway === 'away');
  if (!isObject(home) || !isObject(away)) return fail('competition lacks a home and an away competitor');
  return {
    state,
    name: str(type.name),
    detail: str(type.detail),
    description: str(type.description),
    completed: typeof type.completed === 'boolean' ? type.completed : null,
    period: num(status.period),
    clock: str(status.displayClock),
    date: str(competition.date) ?? str((header as Obj).date),
    home: side(home, competition, fail),
    away: side(away, competition, fail),
  };
}

function side(c: Obj, competition: Obj, fail: (reason: string) => never): HeaderSide {
  const team = isObject(c.team) ? c.team : fail('competitor has no team');
  const id = str(team.id) ?? str(c.id) ?? fail('competitor team has no id');
  const logos = Array.isArray(team.logos) ? team.logos : [];
  const firstLogo = logos.find(isObject);
  return {
    team: {
      id,
      abbreviation: str(team.abbreviation) ?? '',
      displayName: str(team.displayName),
      color: str(team.color),
      alternateColor: str(team.alternateColor),
      logo: str(team.logo) ?? (firstLogo ? str(firstLogo.href) : null),
      rank: rankOf(c.rank),
      conference: conferenceOf(team, competition),
    },
    score: num(c.score),
    winner: typeof c.winner === 'boolean' ? c.winner : null,
  };
}

/**
 * A poll rank: ESPN's header carries `rank` only for a ranked team, and its scoreboards mark an
 * unranked one with 99; a rank is a whole number from 1 to 98, anything else is no rank.
 */
export function rankOf(value: unknown): number | null {
  const n = num(value);
  return n !== null && Number.isInteger(n) && n >= 1 && n <= 98 ? n : null;
}

/**
 * The team's conference: the header's `team.groups` when it says it is a conference, named by the
 * competition's `groups` when that is the same group (a conference game). The pro leagues' headers
 * carry no groups: null.
 */
function conferenceOf(team: Obj, competition: Obj): Conference | null {
  const groups = isObject(team.groups) ? team.groups : null;
  const id = groups && groups.isConference !== false ? str(groups.id) : null;
  if (id === null || id === '') return null;
  const game = isObject(competition.groups) ? competition.groups : null;
  const name = game && str(game.id) === id ? str(game.name) : null;
  return { id, name };
}

/** Seconds left on a displayed clock ("8:10", "45.1", "0.0"), or null when unreadable. */
export function clockSeconds(clock: string | null): number | null {
  if (clock === null) return null;
  const m = /^\s*(?:(\d+):)?(\d+(?:\.\d+)?)\s*$/.exec(clock);
  if (!m) return null;
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

// Status names that say the game left its normal course; they are believed even when they move
// the game "backwards" (in → pre), unlike a stale response.
const IRREGULAR = /POSTPONED|SUSPENDED|CANCELED|CANCELLED|DELAYED|FORFEIT/;

export function isIrregularStatus(name: string | null): boolean {
  return name !== null && IRREGULAR.test(name);
}

/** The game is over with a result (not postponed, suspended or canceled into `post`). */
export function isFinal(h: Pick<SummaryHeader, 'state' | 'completed' | 'name'>): boolean {
  return h.state === 'post' && h.completed !== false && !isIrregularStatus(h.name);
}

const END_OF_PERIOD = /END_PERIOD|HALFTIME|END_OF_PERIOD/;

/** The status says the current period is over (end of quarter, halftime). */
export function isEndOfPeriod(h: Pick<SummaryHeader, 'name' | 'detail'>): boolean {
  return (
    (h.name !== null && END_OF_PERIOD.test(h.name)) ||
    (h.detail !== null && /^(End of|Halftime)/i.test(h.detail))
  );
}

/**
 * The game is being played (started, resumed, into a new period). A change to such a status comes
 * before the plays that follow it; any other status (end of period, halftime, delay, final,
 * suspension, postponement) comes after the plays before it.
 */
export function isUnderWay(h: Pick<SummaryHeader, 'state' | 'name' | 'detail'>): boolean {
  return h.state === 'in' && !isEndOfPeriod(h) && !isIrregularStatus(h.name);
}

const STATE_RANK: Record<GameState, number> = { pre: 0, in: 1, post: 2 };

export interface Progress {
  state: GameState;
  period: number | null;
  clock: string | null;
}

/**
 * Orders two observations of a game by how far the game had got: state, then period, then the
 * clock (which counts down). Negative when `a` is behind `b`; unknown parts compare equal.
 */
export function compareProgress(a: Progress, b: Progress): number {
  const rank = STATE_RANK[a.state] - STATE_RANK[b.state];
  if (rank !== 0) return rank;
  if (a.period !== null && b.period !== null && a.period !== b.period) return a.period - b.period;
  if (a.period !== b.period) return 0;
  const ca = clockSeconds(a.clock);
  const cb = clockSeconds(b.clock);
  if (ca === null || cb === null) return 0;
  return cb - ca;
}
