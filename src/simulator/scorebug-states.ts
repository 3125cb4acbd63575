import type { League } from '../core/leagues.js';
import { finalLabel, isOvertime, periodLabel } from '../core/periods.js';
import type { GameSnapshot, PlayRow, SnapshotTeam } from '../model/events.js';
import { computeSituation } from '../../streams/situation.js';
import { displayName, findTeam } from './team-catalog.js';

/**
 * The scorebug's hardest states, as game snapshots: three-digit scores, seven timeouts left, the
 * bonus on both sides, the WNBA's reset timeout, overtime labels, the longest team abbreviations,
 * foul trouble on both teams (fouled out and ejected), halftime and a final in overtime. Each
 * situation is computed by the engine's own rules from built plays, so the states are ones the
 * daemon can produce. The layout tests and the documentation's screenshots store them on a
 * daemon's bus as the engine stores a snapshot, and open the scorebug on them.
 */
export interface ScorebugState {
  name: string;
  /** What the state shows, for a caption. */
  shows: string;
  snapshot: GameSnapshot;
}

interface Spec {
  name: string;
  shows: string;
  league: League;
  gameId: string;
  teams: { home: Team; away: Team };
  score: { home: number; away: number };
  period: number;
  clock: string;
  state?: GameSnapshot['state'];
  /** The status detail ESPN gives, when not the running clock's. */
  detail?: string;
  /** Poll ranks of a college game's teams (null: unranked). */
  ranks?: { home: number | null; away: number | null };
  plays: PlayRow[];
}

interface Team {
  id: string;
  abbreviation: string;
  displayName: string;
  color: string;
  alternateColor: string;
}

/** A team of the simulator's catalog, with ESPN's id, abbreviation and colours. */
function catalogTeam(league: League, id: string): Team {
  const team = findTeam(league, id);
  if (!team) throw new Error(`no ${league} team ${id} in the catalog`);
  return { ...team, displayName: displayName(team) };
}

// The longest abbreviations ESPN uses: UTAH in the NBA, CONN in the WNBA, against WSH (wide letters).
const UTAH = catalogTeam('mens', '26');
const WAS = catalogTeam('mens', '27');
const CONN = catalogTeam('womens', '18');
const WSH = catalogTeam('womens', '16');

// College: Duke and Kansas ranked, in blues too close to tell apart (Kansas changes to its red
// alternate); LSU against Wake Forest in black; North Carolina Central, a long college name with
// a four-letter abbreviation (its colours are the school's maroon and grey).
const DUKE = catalogTeam('mens-college', '150');
const KU = catalogTeam('mens-college', '2305');
const LSU = catalogTeam('womens-college', '99');
const WAKE_W = catalogTeam('womens-college', '154');
const NCCU: Team = {
  id: '2428',
  abbreviation: 'NCCU',
  displayName: 'North Carolina Central Eagles',
  color: '880023',
  alternateColor: 'a5a7a8',
};

/** Box-score names by athlete id: `h…` play for the home team, `a…` for the away team. */
const ROSTER: Record<string, { name: string; jersey: string }> = {
  h1: { name: 'Lauri Markkanen', jersey: '23' },
  h2: { name: 'Walker Kessler', jersey: '24' },
  h3: { name: 'Jordan Clarkson', jersey: '00' },
  a1: { name: 'Jordan Poole', jersey: '13' },
  a2: { name: 'Kyle Kuzma', jersey: '33' },
  a3: { name: 'Marvin Bagley III', jersey: '35' },
};

/** Builds play rows in game order: a foul, timeout or shot of a team, charged to an athlete. */
class Plays {
  private serial = 0;

  constructor(private readonly league: League) {}

  play(type: string, team: Team, period: number, clock: string, athlete: string): PlayRow {
    this.serial++;
    return {
      id: `7000${this.serial}`,
      sequence_number: String(this.serial),
      text: `${team.abbreviation} ${type}`,
      away_score: 0,
      home_score: 0,
      scoring_play: false,
      score_value: 0,
      participants: JSON.stringify([{ athlete: { id: athlete } }]),
      wallclock: null,
      shooting_play: false,
      points_attempted: null,
      short_description: null,
      type_id: '0',
      type_text: type,
      period_number: period,
      period_display_value: periodLabel(this.league, period),
      clock_display_value: clock,
      team_id: team.id,
      coordinate_x: null,
      coordinate_y: null,
    };
  }

  /** `n` personal fouls of `team` in `period`, a minute apart from 9:00. */
  fouls(n: number, team: Team, period: number, athlete: (i: number) => string): PlayRow[] {
    return Array.from({ length: n }, (_, i) =>
      this.play('Personal Foul', team, period, `${9 - i}:00`, athlete(i)),
    );
  }

  /** Five fouls for h1 and a1, six (fouled out) for h2, two flagrant fouls type 1 (ejected) for a2. */
  trouble(home: Team, away: Team): PlayRow[] {
    return [
      ...this.fouls(5, home, 1, () => 'h1'),
      ...this.fouls(6, home, 2, () => 'h2'),
      ...this.fouls(5, away, 1, () => 'a1'),
      this.play('Flagrant Foul Type 1', away, 2, '3:00', 'a2'),
      this.play('Flagrant Foul Type 1', away, 3, '3:00', 'a2'),
    ];
  }
}

function specs(): Spec[] {
  return [...proSpecs(), ...collegeSpecs()];
}

function proSpecs(): Spec[] {
  const p = new Plays('mens');
  const nba = { home: UTAH, away: WAS };
  return [
    {
      name: 'q4-bonus-both',
      shows: 'the 4th quarter, both teams in the bonus, three-digit scores, foul trouble on both teams',
      league: 'mens',
      gameId: '800000001',
      teams: nba,
      score: { home: 123, away: 118 },
      period: 4,
      clock: '1:48',
      plays: [...p.trouble(UTAH, WAS), ...p.fouls(5, UTAH, 4, () => 'h3'), ...p.fouls(5, WAS, 4, () => 'a3')],
    },
    {
      name: 'seven-timeouts',
      shows: 'seven timeouts left each, no team fouls, no foul trouble',
      league: 'mens',
      gameId: '800000002',
      teams: nba,
      score: { home: 101, away: 99 },
      period: 2,
      clock: '5:00',
      plays: [p.play('Jump Shot', UTAH, 2, '5:10', 'h1')],
    },
    {
      name: 'wnba-reset-bonus',
      shows: "the WNBA's last two minutes: the reset timeout and the bonus on both sides",
      league: 'womens',
      gameId: '800000003',
      teams: { home: CONN, away: WSH },
      score: { home: 109, away: 107 },
      period: 4,
      clock: '1:30',
      plays: [...p.trouble(CONN, WSH), ...p.fouls(5, CONN, 4, () => 'h3'), ...p.fouls(5, WSH, 4, () => 'a3')],
    },
    {
      name: 'double-overtime',
      shows: 'the second overtime (2OT), both in the bonus',
      league: 'mens',
      gameId: '800000004',
      teams: nba,
      score: { home: 141, away: 139 },
      period: 6,
      clock: '0:45',
      plays: [
        ...p.trouble(UTAH, WAS),
        ...p.fouls(3, UTAH, 6, (i) => `h${i + 1}`),
        ...p.fouls(3, WAS, 6, (i) => `a${i + 1}`),
      ],
    },
    {
      name: 'halftime',
      shows: 'halftime, the longest word of the clock cell',
      league: 'mens',
      gameId: '800000006',
      teams: nba,
      score: { home: 118, away: 120 },
      period: 2,
      clock: '0.0',
      detail: 'Halftime',
      plays: p.trouble(UTAH, WAS),
    },
    {
      name: 'final-overtime',
      shows: 'a final in overtime, the winner marked',
      league: 'mens',
      gameId: '800000005',
      teams: nba,
      score: { home: 131, away: 128 },
      period: 5,
      clock: '0.0',
      state: 'post',
      plays: p.trouble(UTAH, WAS),
    },
  ];
}

/**
 * College states: a ranked men's game in the 2nd half with both free-throw levels (one-and-one
 * and double bonus), a women's game in double overtime shooting two, and an unranked team
 * leading #1 late.
 */
function collegeSpecs(): Spec[] {
  const m = new Plays('mens-college');
  const w = new Plays('womens-college');
  return [
    {
      name: 'college-ranked-second-half',
      shows:
        "a ranked men's college game in the 2nd half: the one-and-one on one side, the double bonus on the other, Kansas in its alternate colour",
      league: 'mens-college',
      gameId: '800000101',
      teams: { home: DUKE, away: KU },
      ranks: { home: 1, away: 11 },
      score: { home: 64, away: 61 },
      period: 2,
      clock: '4:12',
      plays: [
        ...m.fouls(7, DUKE, 2, (i) => `h${(i % 3) + 1}`),
        ...m.fouls(10, KU, 2, (i) => `a${(i % 3) + 1}`),
      ],
    },
    {
      name: 'womens-college-double-overtime',
      shows: "a women's college game in 2OT, both teams shooting two",
      league: 'womens-college',
      gameId: '800000102',
      teams: { home: LSU, away: WAKE_W },
      ranks: { home: 5, away: null },
      score: { home: 98, away: 97 },
      period: 6,
      clock: '1:05',
      plays: [
        ...w.fouls(5, LSU, 6, (i) => `h${(i % 3) + 1}`),
        ...w.fouls(5, WAKE_W, 6, (i) => `a${(i % 3) + 1}`),
      ],
    },
    {
      name: 'college-upset-late',
      shows: 'an unranked team (North Carolina Central) leading #1 late, a player fouled out with five',
      league: 'mens-college',
      gameId: '800000103',
      teams: { home: DUKE, away: NCCU },
      ranks: { home: 1, away: null },
      score: { home: 68, away: 71 },
      period: 2,
      clock: '0:48',
      plays: [...m.fouls(5, DUKE, 2, () => 'h1'), ...m.fouls(4, NCCU, 2, (i) => `a${(i % 2) + 1}`)],
    },
  ];
}

const snapshotTeam = (t: Team, rank: number | null | undefined): SnapshotTeam => ({
  ...t,
  logo: null,
  ...(rank === undefined ? {} : { rank }),
});

function snapshotOf(s: Spec, updatedAt: string): GameSnapshot {
  const roster = new Map(
    Object.entries(ROSTER).map(([id, p]) => [
      id,
      { teamId: id.startsWith('h') ? s.teams.home.id : s.teams.away.id, ...p },
    ]),
  );
  const final = s.state === 'post';
  return {
    league: s.league,
    gameId: s.gameId,
    seq: s.plays.length,
    state: s.state ?? 'in',
    status: {
      name: final ? 'STATUS_FINAL' : 'STATUS_IN_PROGRESS',
      detail:
        s.detail ??
        (final ? finalLabel(s.league, s.period) : `${s.clock} - ${periodLabel(s.league, s.period)}`),
      description: null,
    },
    teams: {
      home: snapshotTeam(s.teams.home, s.ranks?.home),
      away: snapshotTeam(s.teams.away, s.ranks?.away),
    },
    score: s.score,
    period: s.period,
    periodLabel: periodLabel(s.league, s.period),
    overtime: isOvertime(s.league, s.period),
    clock: s.clock,
    date: null,
    scoreboard: null,
    // Every other play with a long text: the plays list wraps rather than running out of its box.
    recentPlays: s.plays.slice(-6).map((p, i) => ({
      ...p,
      text: i % 2 ? `${p.text} by a player with a long name (L.G. Takes 3 PF, 2 FTA)` : p.text,
    })),
    winProbability: { playId: s.plays.at(-1)?.id ?? '1', homeWinPercentage: 0.62, tiePercentage: null },
    situation: computeSituation({
      league: s.league,
      teams: { home: { id: s.teams.home.id }, away: { id: s.teams.away.id } },
      plays: s.plays,
      period: s.period,
      clock: s.clock,
      roster,
    }),
    updatedAt,
  };
}

export function scorebugStates(updatedAt = new Date().toISOString()): ScorebugState[] {
  return specs().map((s) => ({ name: s.name, shows: s.shows, snapshot: snapshotOf(s, updatedAt) }));
}
