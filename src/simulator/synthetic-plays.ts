import type { League } from '../core/leagues.js';
import { periodFormat, periodLabel } from '../core/periods.js';
import type { SimAthlete } from './athletes.js';
import { THREE_POINT_TYPES, TURNOVER_TYPES, TWO_POINT_TYPES, playStyle } from './play-style.js';
import { pick, randomInt, weighted, type Random } from './random.js';

/**
 * A possession-by-possession basketball game: ESPN-shaped plays with running scores,
 * wallclocks, coordinates and a win probability per play, plus each athlete's box score.
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

export interface SimulatedPlays {
  readonly plays: Record<string, unknown>[];
  readonly winprobability: { homeWinPercentage: number; tiePercentage: number; playId: string }[];
  readonly homeScore: number;
  readonly awayScore: number;
  readonly periods: number;
  readonly linescores: { home: number[]; away: number[] };
  readonly lines: ReadonlyMap<string, AthleteLine>;
  readonly firstWallclock: number;
  readonly lastWallclock: number;
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

export function simulatePlays(
  league: League,
  gameId: string,
  home: SimTeam,
  away: SimTeam,
  firstWallclock: number,
  random: Random,
): SimulatedPlays {
  const periodSeconds = PERIOD_SECONDS[league];
  const REGULATION_PERIODS = periodFormat(league).regulation;
  const style = playStyle(league);
  // Team fouls by team and count (a half, a quarter, or a period: play-style.ts), timeouts by team.
  const teamFouls = new Map<string, number>();
  const timeouts = new Map<string, number>();
  let tvMarks = [...style.tvTimeouts];
  const regulationSeconds = periodSeconds * REGULATION_PERIODS;
  const lines = new Map<string, AthleteLine>();
  for (const a of [...home.roster, ...away.roster]) lines.set(a.id, emptyLine());
  const line = (a: SimAthlete): AthleteLine => lines.get(a.id) ?? emptyLine();
  const onCourt = new Map<string, SimAthlete[]>([
    [home.id, home.roster.slice(0, 5)],
    [away.id, away.roster.slice(0, 5)],
  ]);
  const court = (t: SimTeam): SimAthlete[] => onCourt.get(t.id) ?? [];
  const other = (t: SimTeam): SimTeam => (t === home ? away : home);

  const plays: Record<string, unknown>[] = [];
  const winprobability: SimulatedPlays['winprobability'] = [];
  let seq = 1;
  let wall = firstWallclock;
  let period = 1;
  let clock = periodSeconds;
  let homeScore = 0;
  let awayScore = 0;
  const linescores = { home: [] as number[], away: [] as number[] };

  const secondsLeftInGame = (): number =>
    period <= REGULATION_PERIODS ? clock + (REGULATION_PERIODS - period) * periodSeconds : clock;

  /** Runs the clock: on-court athletes accumulate minutes. */
  const run = (seconds: number): void => {
    const s = Math.min(seconds, clock);
    clock -= s;
    for (const a of [...court(home), ...court(away)]) line(a).seconds += s;
    wall += s * 1000;
  };

  const add = (
    typeId: string,
    typeText: string,
    text: string,
    o: {
      team?: SimTeam;
      participants?: SimAthlete[];
      scoreValue?: number;
      shooting?: boolean;
      pointsAttempted?: number;
      coordinate?: { x: number; y: number };
      short: string;
      deadSeconds?: number;
    },
  ): void => {
    // Two to nine seconds of dead ball between events, as in a broadcast game (about 2 h 10 min in all).
    wall += (o.deadSeconds ?? randomInt(random, 2, 9)) * 1000;
    // ESPN's wallclock is not monotonic: now and then a play is stamped a few seconds early.
    const stamp = random() < 0.03 ? wall - randomInt(random, 1, 4) * 1000 : wall;
    const scoreValue = o.scoreValue ?? 0;
    if (scoreValue > 0 && o.team) {
      if (o.team === home) homeScore += scoreValue;
      else awayScore += scoreValue;
      for (const a of court(o.team)) line(a).plusMinus += scoreValue;
      for (const a of court(other(o.team))) line(a).plusMinus -= scoreValue;
    }
    seq += random() < 0.8 ? 1 : randomInt(random, 2, 4);
    const id = `${gameId}${seq}`;
    const play: Record<string, unknown> = {
      id,
      sequenceNumber: String(seq),
      type: { id: typeId, text: typeText },
      text,
      awayScore,
      homeScore,
      period: { number: period, displayValue: periodLabel(league, period) },
      clock: { displayValue: style.clock(clock) },
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
    };
    plays.push(play);
    winprobability.push({
      homeWinPercentage: homeWinProbability(homeScore - awayScore, secondsLeftInGame(), regulationSeconds),
      tiePercentage: 0,
      playId: id,
    });
  };

  const shotCoordinate = (distance: number): { x: number; y: number } => {
    const angle = random() * Math.PI;
    // `|| 0` turns -0 into 0: JSON has no negative zero.
    return {
      x: Math.round(25 + distance * Math.cos(angle)) || 0,
      y: Math.max(0, Math.round(distance * Math.sin(angle))) || 0,
    };
  };

  /** A trip to the line; a one-and-one ends at a missed first shot. Returns whether the last missed. */
  const freeThrows = (shooterTeam: SimTeam, shooter: SimAthlete, n: number, oneAndOne = false): boolean => {
    let lastMissed = false;
    for (let k = 1; k <= n && !(oneAndOne && lastMissed); k++) {
      // 78% is a league-typical free-throw percentage.
      const made = random() < 0.78;
      line(shooter).fta++;
      if (made) {
        line(shooter).ftm++;
        line(shooter).points++;
      }
      const [typeId, typeText] = style.freeThrowType(k, n);
      add(typeId, typeText, `${shooter.displayName} ${made ? 'makes' : 'misses'} free throw ${k} of ${n}`, {
        team: shooterTeam,
        participants: [shooter],
        scoreValue: made ? 1 : 0,
        shooting: true,
        pointsAttempted: 1,
        short: made ? '+1 Point' : 'Missed FT',
        deadSeconds: randomInt(random, 8, 20),
      });
      lastMissed = !made;
    }
    return lastMissed;
  };

  const rebound = (offense: SimTeam): SimTeam => {
    // About a quarter of misses are rebounded by the offence.
    const offensive = random() < 0.25;
    const team = offensive ? offense : other(offense);
    if (random() < 0.07) {
      add(
        offensive ? '156' : '155',
        offensive ? 'Offensive Rebound' : 'Defensive Rebound',
        `${team.name} ${offensive ? 'offensive' : 'defensive'} team rebound`,
        {
          team,
          short: 'Rebound',
          deadSeconds: 1,
        },
      );
    } else {
      const who = pick(random, court(team));
      if (offensive) line(who).oreb++;
      else line(who).dreb++;
      add(
        offensive ? '156' : '155',
        offensive ? 'Offensive Rebound' : 'Defensive Rebound',
        `${who.displayName} ${offensive ? 'offensive' : 'defensive'} rebound`,
        {
          team,
          participants: [who],
          short: 'Rebound',
          deadSeconds: randomInt(random, 1, 3),
        },
      );
    }
    return team;
  };

  const substitute = (team: SimTeam): void => {
    const bench = team.roster.filter((a) => !court(team).includes(a));
    const incoming = bench[Math.floor(random() * Math.min(bench.length, 4))];
    const lineup = court(team);
    const outIndex = Math.floor(random() * lineup.length);
    const outgoing = lineup[outIndex];
    if (!incoming || !outgoing) return;
    lineup[outIndex] = incoming;
    add('584', 'Substitution', `${incoming.displayName} enters the game for ${outgoing.displayName}`, {
      team,
      participants: [incoming, outgoing],
      short: 'Substitution',
      deadSeconds: 1,
    });
  };

  /**
   * A defender's foul. With a range of distances (feet) it is committed there on the floor; without
   * one it comes on a made basket (an and-one), a moment after the shot.
   */
  const foul = (defense: SimTeam, shooting: boolean, distance?: readonly [number, number]): number => {
    const fouler = pick(random, court(defense));
    line(fouler).pf++;
    const count = `${defense.id}/${style.foulCount(period)}`;
    teamFouls.set(count, (teamFouls.get(count) ?? 0) + 1);
    const [typeId, typeText, text] = style.foul(fouler.displayName, shooting);
    add(typeId, typeText, text, {
      team: defense,
      participants: [fouler],
      short: 'Foul',
      ...(distance
        ? { coordinate: shotCoordinate(randomInt(random, distance[0], distance[1])) }
        : { deadSeconds: 2 }),
    });
    return teamFouls.get(count) ?? 0;
  };

  /** The media timeout at the first dead ball under each mark (college regulation periods). */
  const tvTimeout = (): void => {
    if (period > REGULATION_PERIODS || tvMarks.length === 0 || clock > (tvMarks[0] as number)) return;
    while (tvMarks.length > 0 && clock <= (tvMarks[0] as number)) tvMarks.shift();
    add('580', 'OfficialTVTimeOut', 'Official TV Timeout', { short: 'Timeout', deadSeconds: 150 });
  };

  /** One possession; returns the team that has the ball next. */
  const possession = (offense: SimTeam): SimTeam => {
    const defense = other(offense);
    tvTimeout();
    const used = timeouts.get(offense.id) ?? 0;
    if (random() < 0.045 && used < style.timeoutsBy(period)) {
      timeouts.set(offense.id, used + 1);
      const [typeId, typeText, text] = style.timeout(offense.name, random);
      add(typeId, typeText, text, {
        team: offense,
        short: 'Timeout',
        deadSeconds: randomInt(random, 90, 150),
      });
    }
    // ESPN logs about 60 substitutions a game, roughly one every three possessions.
    while (random() < 0.22) substitute(random() < 0.5 ? offense : defense);
    // Possessions use most of a 24-second shot clock; the fast ones are in transition.
    run(Math.min(clock, randomInt(random, 4, 20)));
    const shooter = pick(random, court(offense));
    const outcome = weighted(random, [
      ['shot', 0.74],
      ['turnover', 0.13],
      ['shootingFoul', 0.09],
      ['foul', 0.04],
    ] as const);
    if (outcome === 'turnover') {
      const [id, text, words, canSteal] = pick(random, TURNOVER_TYPES);
      line(shooter).to++;
      const stealer = canSteal && random() < 0.5 ? pick(random, court(defense)) : undefined;
      if (stealer) line(stealer).stl++;
      add(id, text, `${shooter.displayName} ${words}${stealer ? ` (${stealer.displayName} steals)` : ''}`, {
        team: offense,
        participants: stealer ? [shooter, stealer] : [shooter],
        coordinate: shotCoordinate(randomInt(random, 10, 40)),
        short: 'Turnover',
      });
      return defense;
    }
    if (outcome === 'foul') {
      const shots = style.bonus(foul(defense, false, [5, 30]));
      if (shots === 0) return offense;
      const missedLast = freeThrows(offense, shooter, 2, shots === 'one_and_one');
      return missedLast ? rebound(offense) : defense;
    }
    if (outcome === 'shootingFoul') {
      foul(defense, true, [0, 6]);
      const missedLast = freeThrows(offense, shooter, random() < 0.12 ? 3 : 2);
      return missedLast ? rebound(offense) : defense;
    }
    // A shot: about 4 in 10 from three.
    const three = random() < 0.4;
    const made = random() < (three ? 0.36 : 0.53);
    const points = three ? 3 : 2;
    const [typeId, typeText, words] = three
      ? pick(random, THREE_POINT_TYPES)
      : weighted(
          random,
          TWO_POINT_TYPES.map((t) => [t, t[3]] as const),
        );
    const distance = three ? randomInt(random, 23, 28) : randomInt(random, 0, 20);
    line(shooter).fga++;
    if (three) line(shooter).tpa++;
    if (made) {
      line(shooter).fgm++;
      line(shooter).points += points;
      if (three) line(shooter).tpm++;
      const mates = court(offense).filter((a) => a !== shooter);
      const assister = random() < 0.6 ? pick(random, mates) : undefined;
      if (assister) line(assister).ast++;
      add(
        typeId,
        typeText,
        `${shooter.displayName} makes ${distance > 0 ? `${distance}-foot ` : ''}${words}${assister ? ` (${assister.displayName} assists)` : ''}`,
        {
          team: offense,
          participants: assister ? [shooter, assister] : [shooter],
          scoreValue: points,
          shooting: true,
          pointsAttempted: points,
          coordinate: shotCoordinate(distance),
          short: `+${points} Points`,
        },
      );
      // And-ones are rare: about one made two in twenty.
      if (!three && random() < 0.05) {
        foul(defense, true);
        const missedLast = freeThrows(offense, shooter, 1);
        return missedLast ? rebound(offense) : defense;
      }
      return defense;
    }
    const blocker = !three && random() < 0.08 ? pick(random, court(defense)) : undefined;
    if (blocker) line(blocker).blk++;
    add(
      typeId,
      typeText,
      blocker
        ? `${blocker.displayName} blocks ${shooter.displayName} 's ${distance}-foot ${words}`
        : `${shooter.displayName} misses ${distance > 0 ? `${distance}-foot ` : ''}${words}`,
      {
        team: offense,
        participants: blocker ? [shooter, blocker] : [shooter],
        shooting: true,
        pointsAttempted: points,
        coordinate: shotCoordinate(distance),
        short: three ? 'Missed 3PT' : 'Missed 2PT',
      },
    );
    return rebound(offense);
  };

  // Tip-off.
  const [homeCenter, awayCenter] = [court(home)[4], court(away)[4]];
  let offense = random() < 0.5 ? home : away;
  const gainer = pick(random, court(offense).slice(0, 4));
  if (homeCenter && awayCenter) {
    add(
      '615',
      'Jumpball',
      `${homeCenter.displayName} vs. ${awayCenter.displayName} (${gainer.displayName} gains possession)`,
      {
        team: offense,
        participants: [homeCenter, awayCenter, gainer],
        short: 'Jump Ball',
        deadSeconds: 0,
      },
    );
  }
  const firstOffense = offense;
  while (true) {
    const startHome = homeScore;
    const startAway = awayScore;
    while (clock > 0) offense = possession(offense);
    linescores.home.push(homeScore - startHome);
    linescores.away.push(awayScore - startAway);
    const [endText, endShort] = style.endOfPeriod(period);
    add('412', 'End Period', endText, { short: endShort, deadSeconds: 1 });
    if (period >= REGULATION_PERIODS && homeScore !== awayScore) break;
    // A break between quarters lasts about two minutes, halftime fifteen.
    wall += (period === REGULATION_PERIODS / 2 ? 15 * 60 : 130) * 1000;
    period++;
    clock = period <= REGULATION_PERIODS ? periodSeconds : OVERTIME_SECONDS;
    tvMarks = [...style.tvTimeouts];
    // The second and third quarters (or the second half) start with the team that did not win the
    // tip (alternating).
    if (period <= REGULATION_PERIODS)
      offense = period === 2 || period === 3 ? other(firstOffense) : firstOffense;
    for (const t of [home, away]) onCourt.set(t.id, t.roster.slice(0, 5));
  }
  add('402', 'End Game', 'End of Game', { short: 'End of Game', deadSeconds: randomInt(random, 5, 12) });
  return {
    plays,
    winprobability,
    homeScore,
    awayScore,
    periods: period,
    linescores,
    lines,
    firstWallclock,
    lastWallclock: wall,
  };
}
