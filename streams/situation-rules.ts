import type { League } from '../src/core/leagues.js';
import type { GameSituation, PlayRow } from '../src/model/events.js';

/**
 * The counting rules of the game situation per league, and what each ESPN play type counts as.
 * docs/events.md ("Game situation") gives each rule with the rule-book section it comes from.
 */
export interface SituationRules {
  name: GameSituation['rules'];
  /** Regulation periods (quarters, or halves in men's college). */
  periods: number;
  /**
   * Team fouls a team may commit in a period without penalty: the next common foul gives the other
   * team free throws (its bonus).
   */
  foulsWithoutPenalty: { regulation: number; overtime: number };
  /**
   * Team fouls after which the penalty is two free throws rather than a one-and-one (men's college:
   * from the 10th). Null: the penalty is always two free throws.
   */
  doubleBonusAfter: number | null;
  /**
   * True when an overtime period continues the team-foul count of the last regulation period
   * (college); false when each overtime period starts from zero (NBA, WNBA).
   */
  overtimeContinuesFouls: boolean;
  /** The last-two-minutes rule: one team foul without penalty in this closing time, seconds (null: none). */
  lastMinutesSeconds: number | null;
  /** Personal fouls that disqualify a player. */
  foulOut: number;
  /** Flagrant fouls type 1 that eject a player (a single flagrant 2 always does); null: none by count. */
  flagrantOneEjection: number | null;
  /**
   * True when a player's technical foul is also a team foul and counts toward the player's foul-out
   * (college: the box score's PF counts it); false when it is neither (NBA, WNBA).
   */
  technicalIsFoul: boolean;
  /** True when an offensive foul is a team foul (college); false when it is not (NBA, WNBA). */
  offensiveIsTeamFoul: boolean;
  timeouts: ProTimeouts | CollegeTimeouts;
}

/** The NBA's and WNBA's timeouts: a regulation allowance, and a fresh allowance per overtime. */
export interface ProTimeouts {
  kind: 'pro';
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
}

/**
 * The NCAA's timeouts: an allowance for the game, of which at most a number may be carried into the
 * second half, and one more per overtime period on top of those not used.
 */
export interface CollegeTimeouts {
  kind: 'college';
  /** Team timeouts for the game (regulation). */
  perGame: number;
  /** Periods that make up the first half: 1 (halves) or 2 (quarters). */
  firstHalfPeriods: number;
  /** Most of them a team may still have at the start of the second half. */
  secondHalfMax: number;
  /** Timeouts each overtime period adds; the unused ones of the second half carry into overtime. */
  perOvertime: number;
}

const NBA: SituationRules = {
  name: 'nba',
  periods: 4,
  foulsWithoutPenalty: { regulation: 4, overtime: 3 },
  doubleBonusAfter: null,
  overtimeContinuesFouls: false,
  lastMinutesSeconds: 120,
  foulOut: 6,
  flagrantOneEjection: 2,
  technicalIsFoul: false,
  offensiveIsTeamFoul: false,
  timeouts: {
    kind: 'pro',
    regulation: 7,
    fourthPeriodMax: 4,
    lateFourth: { seconds: 180, max: 2 },
    perOvertime: 2,
    resetPerClosingPeriod: null,
    resetWindowSeconds: 120,
  },
};

const WNBA: SituationRules = {
  ...NBA,
  name: 'wnba',
  timeouts: {
    kind: 'pro',
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

// NCAA rules (docs/events.md gives each rule's section): fouls counted per half, one-and-one from
// the 7th team foul and two shots from the 10th; a player out at 5; overtime an extension of the
// second half. The timeouts are those of a game with electronic media, as every game ESPN carries is.
const NCAAM: SituationRules = {
  name: 'ncaam',
  periods: 2,
  foulsWithoutPenalty: { regulation: 6, overtime: 6 },
  doubleBonusAfter: 9,
  overtimeContinuesFouls: true,
  lastMinutesSeconds: null,
  foulOut: 5,
  flagrantOneEjection: null,
  technicalIsFoul: true,
  offensiveIsTeamFoul: true,
  timeouts: { kind: 'college', perGame: 4, firstHalfPeriods: 1, secondHalfMax: 3, perOvertime: 1 },
};

// Women's college: quarters, two shots from the 5th team foul of a quarter, the 4th quarter's
// count carried into overtime.
const NCAAW: SituationRules = {
  ...NCAAM,
  name: 'ncaaw',
  periods: 4,
  foulsWithoutPenalty: { regulation: 4, overtime: 4 },
  doubleBonusAfter: null,
  timeouts: { kind: 'college', perGame: 4, firstHalfPeriods: 2, secondHalfMax: 3, perOvertime: 1 },
};

const RULES: Readonly<Record<League, SituationRules>> = {
  mens: NBA,
  womens: WNBA,
  'mens-college': NCAAM,
  'womens-college': NCAAW,
};

export function rulesFor(league: League): SituationRules {
  return RULES[league];
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
 * timeouts are charged to nobody. College feeds have one `PersonalFoul` type for every personal
 * foul, `ShortTimeOut` and `RegularTimeOut` for team timeouts and `OfficialTVTimeOut` (no team).
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

/** An offensive foul or charge (a personal foul that is a team foul in college only). */
export function isOffensiveFoul(row: PlayRow): boolean {
  return (row.type_text ?? '').trim().toLowerCase().startsWith('offensive');
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
