import type { League } from '../src/core/leagues.js';
import type { GameSituation, PlayRow } from '../src/model/events.js';

/**
 * The counting rules of the game situation per league, and what each ESPN play type counts as.
 * docs/events.md ("Game situation") gives each rule with the rule-book section it comes from.
 */
export interface SituationRules {
  name: GameSituation['rules'];
  /** Regulation periods (quarters). */
  periods: number;
  /** Team fouls a team may commit in a period without penalty (the next one gives free throws). */
  foulsWithoutPenalty: { regulation: number; overtime: number };
  /** The last-two-minutes rule: one team foul without penalty in this closing time, seconds. */
  lastMinutesSeconds: number;
  /** Personal fouls that disqualify a player. */
  foulOut: number;
  /** Flagrant fouls type 1 that eject a player (a single flagrant 2 always does). */
  flagrantOneEjection: number;
  timeouts: {
    /** Team timeouts for regulation. */
    regulation: number;
    /** Most a team may take in the 4th period (null: no such cap). */
    fourthPeriodMax: number | null;
    /**
     * Most a team may take after the later of this many seconds left in the 4th and the end of its
     * second mandatory timeout (null: no such cap).
     */
    lateFourth: { seconds: number; max: number } | null;
    /** Team timeouts per overtime period; none are carried over from regulation or between them. */
    perOvertime: number;
    /** Reset timeouts in the last two minutes of the 4th and of each overtime (null: none). */
    resetPerClosingPeriod: number | null;
    /** The closing time of the 4th and of each overtime in which a reset timeout may be used, seconds. */
    resetWindowSeconds: number;
  };
}

const NBA: SituationRules = {
  name: 'nba',
  periods: 4,
  foulsWithoutPenalty: { regulation: 4, overtime: 3 },
  lastMinutesSeconds: 120,
  foulOut: 6,
  flagrantOneEjection: 2,
  timeouts: {
    regulation: 7,
    fourthPeriodMax: 4,
    lateFourth: { seconds: 180, max: 2 },
    perOvertime: 2,
    resetPerClosingPeriod: null,
    resetWindowSeconds: 120,
  },
};

const WNBA: SituationRules = {
  name: 'wnba',
  periods: 4,
  foulsWithoutPenalty: { regulation: 4, overtime: 3 },
  lastMinutesSeconds: 120,
  foulOut: 6,
  flagrantOneEjection: 2,
  timeouts: {
    regulation: 5,
    fourthPeriodMax: null,
    lateFourth: null,
    // The 2024 change replaced each overtime's one full and one 20-second timeout by two team
    // timeouts (docs/events.md gives the sources and what could be checked).
    perOvertime: 2,
    resetPerClosingPeriod: 1,
    resetWindowSeconds: 120,
  },
};

export function rulesFor(league: League): SituationRules {
  return league === 'womens' ? WNBA : NBA;
}

/** What one play counts as in the situation. */
export type PlayKind =
  /** A personal foul that is also a team foul (defensive, loose ball, take, flagrant, clear path…). */
  | 'team-foul'
  /** A personal foul that is not a team foul: offensive fouls and charges, double fouls. */
  | 'personal-foul'
  /** An unsportsmanlike technical foul charged to a player or coach. */
  | 'technical'
  /** A charged team timeout. */
  | 'timeout'
  /** A WNBA reset timeout. */
  | 'reset-timeout'
  | 'other';

/**
 * Classifies a play by ESPN's type text (the type ids differ between feeds and seasons; the texts
 * are what the recorded games agree on). Turnovers that come with an offensive foul are not a
 * second foul, nor are the free throws a foul gives; defensive three seconds and delay-of-game
 * technicals are charged to the team and count toward no player's ejection; official and TV
 * timeouts are charged to nobody.
 */
export function classifyPlay(row: PlayRow): PlayKind {
  const type = row.type_text ?? '';
  let kind = known.get(type);
  if (kind === undefined) {
    kind = classifyType(type);
    // ESPN has about a hundred type texts; the bound only guards against a feed of made-up ones.
    if (known.size < 1_000) known.set(type, kind);
  }
  return kind;
}

/** Type text → kind, so each poll's recount does not re-read the same few texts. */
const known = new Map<string, PlayKind>();

function classifyType(type: string): PlayKind {
  const text = type.toLowerCase().replace(/\s+/g, ' ').trim();
  if (text === '' || text.includes('turnover') || text.includes('free throw')) return 'other';
  if (text.includes('timeout')) {
    // Official and TV timeouts are charged to no team (mandatory ones neither: the situation
    // reads them by isMandatoryTimeout, by type or text, as the start of the NBA's late cap).
    if (text.includes('official') || text.includes('tv ')) return 'other';
    // ESPN types the WNBA's reset timeout "No Timeout" (its play text reads "<Team> timeout").
    if (text === 'no timeout') return 'reset-timeout';
    return 'timeout';
  }
  if (text.includes('technical')) {
    if (text.includes('3-second') || text.includes('three second') || text.includes('delay')) return 'other';
    if (text.includes('hanging') || text.includes('non-unsportsmanlike')) return 'other';
    return 'technical';
  }
  if (text.includes('foul') || text === 'offensive charge') {
    if (text.startsWith('offensive') || text.includes('double')) return 'personal-foul';
    return 'team-foul';
  }
  return 'other';
}

/** Double fouls charge every participant; every other foul the first one (the fouler). */
export function chargesEveryParticipant(row: PlayRow): boolean {
  return (row.type_text ?? '').toLowerCase().includes('double');
}

/** The flagrant level of a foul play ("Flagrant Foul Type 1" → 1), null for any other play. */
export function flagrantLevel(row: PlayRow): 1 | 2 | null {
  const text = (row.type_text ?? '').toLowerCase();
  if (!text.includes('flagrant')) return null;
  const level = /\b([12])\b/.exec(text)?.[1];
  return level === '2' ? 2 : level === '1' ? 1 : null;
}

/**
 * True for a play that records a mandatory timeout, by its type or its text. None of the recorded
 * games has one (ESPN's NBA feeds list team timeouts only), so this reads any wording that names
 * it: "mandatory" and "timeout" in the type or the text.
 */
export function isMandatoryTimeout(row: PlayRow): boolean {
  const words = `${row.type_text ?? ''} ${row.text ?? ''}`;
  return /mandatory/i.test(words) && /time-?out/i.test(words);
}
