import type { League } from '../src/core/leagues.js';
import type { GameSituation, PlayerFouls, PlayRow, TeamSituation } from '../src/model/events.js';
import { toClockSeconds } from '../src/tables/cells.js';
import type { RosterEntry } from './situation-roster.js';
import { timeoutsOf, type TimeoutCount } from './situation-timeouts.js';
import {
  chargesEveryParticipant,
  classifyPlay,
  flagrantLevel,
  isMandatoryTimeout,
  isOffensiveFoul,
  rulesFor,
  type PlayKind,
  type SituationRules,
} from './situation-rules.js';

export interface SituationInput {
  league: League;
  teams: { home: { id: string }; away: { id: string } };
  /** The game's current plays (any order: nothing here depends on it). */
  plays: Iterable<PlayRow>;
  /**
   * The game's current period (null: the highest period among the plays). The caller knows it
   * better than the plays do: one bad row must not move the fouls to a period never played.
   */
  period: number | null;
  /** Time left in that period as the header shows it; null when the header does not show it. */
  clock: string | null;
  /** Names and numbers from the box score, by athlete id. */
  roster?: ReadonlyMap<string, RosterEntry>;
  /** The situation before: keeps the names of players a later box score does not list. */
  previous?: GameSituation | null;
}

interface TeamCount extends TimeoutCount {
  id: string;
  /**
   * Team fouls in the count the situation's period belongs to (the period, or the last regulation
   * period's continued into overtime), and those in the period's last two minutes.
   */
  fouls: number;
  lateFouls: number;
  players: Map<string, PlayerCount>;
}

interface PlayerCount {
  fouls: number;
  technicals: number;
  flagrantOnes: number;
  flagrantTwo: boolean;
}

/**
 * The game situation from the whole play list: team fouls and the bonus in the current period,
 * timeouts taken and remaining, fouls per player. Recomputed from scratch on every poll, so a
 * foul that is corrected or removed upstream corrects the counts. Pure.
 */
export function computeSituation(input: SituationInput): GameSituation {
  const rules = rulesFor(input.league);
  const facts: PlayFacts[] = [];
  for (const row of input.plays) facts.push(factsOf(row));
  let period = validPeriod(input.period);
  if (period === null) {
    for (const f of facts) if (f.period !== null && (period === null || f.period > period)) period = f.period;
  }
  const now = currentClock(facts, period, input.clock);
  const late = rules.timeouts.kind === 'pro' ? rules.timeouts.lateFourth : null;
  const lateStart = late ? lateCapStart(facts, rules.periods, late.seconds) : null;
  const window = foulWindow(rules, period);

  const home = emptyCount(input.teams.home.id);
  const away = emptyCount(input.teams.away.id);
  const byTeam = (id: string | null): TeamCount | undefined =>
    id === home.id ? home : id === away.id ? away : undefined;

  for (const f of facts) {
    const { kind, period: p, clock } = f;
    if (kind === 'other') continue;
    const team = byTeam(f.team);
    if (kind === 'timeout' || kind === 'reset-timeout') {
      if (!team || p === null) continue;
      if (kind === 'reset-timeout') {
        team.resets++;
        if (p === period) team.resetsInPeriod++;
        continue;
      }
      team.timeoutsByPeriod.set(p, (team.timeoutsByPeriod.get(p) ?? 0) + 1);
      if (lateStart && p === rules.periods && isAfter(f, lateStart)) team.lateFourthTimeouts++;
      continue;
    }
    // A play of a later period than the situation's (a bad row) counts toward nothing yet.
    const counts = period !== null && p !== null && p <= period && foulWindow(rules, p) === window;
    if (team && counts && isTeamFoul(f, rules)) {
      team.fouls++;
      const last = rules.lastMinutesSeconds;
      if (last !== null && p === period && clock !== null && clock < last) team.lateFouls++;
    }
    f.charged.forEach((athlete, i) => {
      // A double foul's players are on both teams: the box score says whose each is.
      const owner = byTeam(input.roster?.get(athlete)?.teamId ?? (i === 0 ? f.team : null));
      if (!owner) return;
      const player = owner.players.get(athlete) ?? {
        fouls: 0,
        technicals: 0,
        flagrantOnes: 0,
        flagrantTwo: false,
      };
      if (kind === 'technical') {
        player.technicals++;
        // College box scores count a technical among the player's fouls, as the foul-out rule does.
        if (rules.technicalIsFoul) player.fouls++;
      } else player.fouls++;
      if (f.flagrant === 1) player.flagrantOnes++;
      if (f.flagrant === 2) player.flagrantTwo = true;
      owner.players.set(athlete, player);
    });
  }

  const side = (team: TeamCount, other: TeamCount, previous: TeamSituation | undefined): TeamSituation => {
    const freeThrows = freeThrowsAgainst(other, period, rules);
    return {
      teamId: team.id,
      fouls: team.fouls,
      bonus: freeThrows !== null,
      freeThrows,
      timeouts: timeoutsOf(team, period, now, rules),
      players: playersOf(team, rules, input.roster, previous),
    };
  };
  return {
    rules: rules.name,
    period,
    home: side(home, away, input.previous?.home),
    away: side(away, home, input.previous?.away),
  };
}

/** The situation of a game with no plays: what a situation is compared with before the first. */
export function emptySituation(league: League, teams: SituationInput['teams']): GameSituation {
  return computeSituation({ league, teams, plays: [], period: null, clock: null });
}

/**
 * What differs between two situations: `home.fouls`, `away.bonus`, `home.freeThrows`,
 * `home.timeouts`, `away.players`, `period`. A change of period alone is not news (the period events say it), so
 * callers emit `situation.changed` only when a team's part changed.
 */
export function situationChanges(before: GameSituation, after: GameSituation): string[] {
  const out: string[] = [];
  if (before.period !== after.period) out.push('period');
  for (const key of ['home', 'away'] as const) {
    const a = before[key];
    const b = after[key];
    if (a.fouls !== b.fouls) out.push(`${key}.fouls`);
    if (a.bonus !== b.bonus) out.push(`${key}.bonus`);
    // A situation stored before freeThrows existed has none: its first recount is not a change.
    if (a.freeThrows !== undefined && a.freeThrows !== b.freeThrows) out.push(`${key}.freeThrows`);
    if (!sameTimeouts(a.timeouts, b.timeouts)) out.push(`${key}.timeouts`);
    if (!samePlayers(a.players, b.players)) out.push(`${key}.players`);
  }
  return out;
}

/** True when a team's part changed (fouls, bonus, timeouts, players). */
export function isNews(changes: readonly string[]): boolean {
  return changes.some((c) => c !== 'period');
}

/** What one play row says for the situation, read once per row object. */
interface PlayFacts {
  kind: PlayKind;
  period: number | null;
  clock: number | null;
  team: string | null;
  /** The athletes the foul or technical is charged to. */
  charged: string[];
  flagrant: 1 | 2 | null;
  /** A mandatory timeout (charged to no team; the start of the NBA's late cap). */
  mandatory: boolean;
  /** An offensive foul (a team foul in college only). */
  offensive: boolean;
  /** The play's place in the game's order, for plays at the same clock. */
  sequence: number;
}

// Rows are kept as the same objects from poll to poll until the play changes (a changed play is
// a new row object; rows are never changed in place), so the recount of a whole game on every
// poll reads each row once.
const factsCache = new WeakMap<PlayRow, PlayFacts>();

function factsOf(row: PlayRow): PlayFacts {
  let f = factsCache.get(row);
  if (f === undefined) {
    // One reading of "mandatory" for both uses: a play it names is charged to no team, and starts
    // the late cap.
    const mandatory = isMandatoryTimeout(row);
    const kind = mandatory ? 'other' : classifyPlay(row);
    const charged =
      kind === 'other' || kind === 'timeout' || kind === 'reset-timeout' ? [] : participantsOf(row);
    f = {
      kind,
      period: validPeriod(row.period_number),
      clock: toClockSeconds(row.clock_display_value),
      team: row.team_id,
      charged: chargesEveryParticipant(row) ? charged : charged.slice(0, 1),
      flagrant: kind === 'team-foul' || kind === 'personal-foul' ? flagrantLevel(row) : null,
      mandatory,
      offensive: kind === 'personal-foul' && isOffensiveFoul(row),
      sequence: Number(row.sequence_number),
    };
    factsCache.set(row, f);
  }
  return f;
}

function emptyCount(id: string): TeamCount {
  return {
    id,
    fouls: 0,
    lateFouls: 0,
    timeoutsByPeriod: new Map(),
    lateFourthTimeouts: 0,
    resets: 0,
    resetsInPeriod: 0,
    players: new Map(),
  };
}

function validPeriod(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : null;
}

/**
 * Seconds left in the situation's period: the lowest of the clock given and the clocks of the
 * period's plays. The clock runs down, so the lowest one seen is the latest moment, whichever of
 * the header and the play list is ahead (either can be).
 */
function currentClock(
  facts: readonly PlayFacts[],
  period: number | null,
  clock: string | null,
): number | null {
  if (period === null) return null;
  let low = toClockSeconds(clock);
  for (const f of facts) {
    if (f.period === period && f.clock !== null && (low === null || f.clock < low)) low = f.clock;
  }
  return low;
}

/** A moment of the game: a clock in the period, and the play's sequence for plays at that clock. */
interface Moment {
  clock: number;
  sequence: number;
}

/**
 * Where the NBA's late cap starts counting: "after the later of the 3:00 mark of the 4th and the
 * end of its second mandatory timeout". A mandatory timeout under `seconds` is after the 3:00
 * mark, so it is the second one; the latest such play is the start. Without one, the 3:00 mark.
 */
function lateCapStart(facts: readonly PlayFacts[], periods: number, seconds: number): Moment {
  let start: Moment = { clock: seconds, sequence: Number.POSITIVE_INFINITY };
  for (const f of facts) {
    if (!f.mandatory || f.period !== periods || f.clock === null || f.clock >= seconds) continue;
    if (f.clock < start.clock || (f.clock === start.clock && f.sequence > start.sequence))
      start = { clock: f.clock, sequence: f.sequence };
  }
  return start;
}

/**
 * True when a play comes after the moment: a lower clock, or the same clock and a later sequence.
 * A mandatory timeout is not after itself: the timeouts counted are those after its end.
 */
function isAfter(f: PlayFacts, m: Moment): boolean {
  if (f.clock === null) return false;
  if (f.clock !== m.clock) return f.clock < m.clock;
  return Number.isFinite(m.sequence) && f.sequence > m.sequence;
}

/**
 * The count of team fouls a period's fouls go to: the period itself, or, when overtime continues
 * the count (college), the last regulation period for every overtime. Null for no period.
 */
function foulWindow(rules: SituationRules, period: number | null): number | null {
  if (period === null) return null;
  return rules.overtimeContinuesFouls ? Math.min(period, rules.periods) : period;
}

/** True when the play is a team foul under the league's rules. */
function isTeamFoul(f: PlayFacts, rules: SituationRules): boolean {
  if (f.kind === 'team-foul') return true;
  if (f.kind === 'technical') return rules.technicalIsFoul;
  return f.kind === 'personal-foul' && f.offensive && rules.offensiveIsTeamFoul;
}

/**
 * What the other team shoots on this team's next common foul: null while this team is within the
 * fouls it may commit without penalty (in the period, or its one foul of the last two minutes where
 * that rule applies), then a one-and-one or two shots.
 */
function freeThrowsAgainst(
  team: TeamCount,
  period: number | null,
  rules: SituationRules,
): TeamSituation['freeThrows'] {
  if (period === null) return null;
  const limit =
    period > rules.periods ? rules.foulsWithoutPenalty.overtime : rules.foulsWithoutPenalty.regulation;
  if (team.fouls < limit && team.lateFouls < 1) return null;
  const double = rules.doubleBonusAfter;
  return double !== null && team.fouls < double ? 'one_and_one' : 'two';
}

function playersOf(
  team: TeamCount,
  rules: SituationRules,
  roster: ReadonlyMap<string, RosterEntry> | undefined,
  previous: TeamSituation | undefined,
): Record<string, PlayerFouls> {
  const out: Record<string, PlayerFouls> = {};
  for (const [id, p] of team.players) {
    const listed = roster?.get(id);
    const before = previous?.players[id];
    out[id] = {
      fouls: p.fouls,
      technicals: p.technicals,
      disqualified:
        p.fouls >= rules.foulOut ||
        p.technicals >= 2 ||
        p.flagrantTwo ||
        (rules.flagrantOneEjection !== null && p.flagrantOnes >= rules.flagrantOneEjection),
      name: listed?.name ?? before?.name ?? null,
      jersey: listed?.jersey ?? before?.jersey ?? null,
    };
  }
  return out;
}

/** The athlete ids of a play's `participants` column (JSON text), in order. */
function participantsOf(row: PlayRow): string[] {
  if (row.participants === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.participants);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const ids: string[] = [];
  for (const p of parsed) {
    const id = (p as { athlete?: { id?: unknown } } | null)?.athlete?.id;
    if (typeof id === 'string' && id !== '') ids.push(id);
    else if (typeof id === 'number' && Number.isFinite(id)) ids.push(String(id));
  }
  return ids;
}

function sameTimeouts(a: TeamSituation['timeouts'], b: TeamSituation['timeouts']): boolean {
  return (
    a.taken === b.taken &&
    a.remaining === b.remaining &&
    a.reset?.taken === b.reset?.taken &&
    a.reset?.remaining === b.reset?.remaining &&
    a.reset?.available === b.reset?.available
  );
}

function samePlayers(a: Record<string, PlayerFouls>, b: Record<string, PlayerFouls>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((id) => {
    const x = a[id] as PlayerFouls;
    const y = b[id];
    return (
      y !== undefined &&
      x.fouls === y.fouls &&
      x.technicals === y.technicals &&
      x.disqualified === y.disqualified &&
      x.name === y.name &&
      x.jersey === y.jersey
    );
  });
}
