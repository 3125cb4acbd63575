import type { SimAthlete } from './athletes.js';
import { THREE_POINT_TYPES, TURNOVER_TYPES, TWO_POINT_TYPES } from './play-style.js';
import { pick, randomInt, weighted } from './random.js';
import type { Scoresheet, SimTeam } from './synthetic-scoresheet.js';

/**
 * One possession of a synthetic game, phase by phase: the dead ball before it (media and team
 * timeouts, substitutions), the clock running, and how it ends (a shot made or missed, a
 * turnover, a foul and its free throws, a rebound), each written to the game's scoresheet.
 */

/** One possession; returns the team that has the ball next. */
export function possession(sheet: Scoresheet, offense: SimTeam): SimTeam {
  const { random } = sheet;
  const defense = sheet.other(offense);
  tvTimeout(sheet);
  teamTimeout(sheet, offense);
  // ESPN logs about 60 substitutions a game, roughly one every three possessions.
  while (random() < 0.22) substitute(sheet, random() < 0.5 ? offense : defense);
  // Possessions use most of a 24-second shot clock; the fast ones are in transition.
  sheet.run(Math.min(sheet.clock, randomInt(random, 4, 20)));
  const shooter = pick(random, sheet.court(offense));
  const outcome = weighted(random, [
    ['shot', 0.74],
    ['turnover', 0.13],
    ['shootingFoul', 0.09],
    ['foul', 0.04],
  ] as const);
  if (outcome === 'turnover') return turnover(sheet, offense, shooter);
  if (outcome === 'foul') return commonFoul(sheet, offense, shooter);
  if (outcome === 'shootingFoul') return shootingFoul(sheet, offense, shooter);
  return shot(sheet, offense, shooter);
}

/** The media timeout at the first dead ball under each mark (college regulation periods). */
function tvTimeout(sheet: Scoresheet): void {
  const { tvMarks } = sheet;
  if (sheet.period > sheet.regulationPeriods || tvMarks.length === 0 || sheet.clock > (tvMarks[0] as number))
    return;
  while (tvMarks.length > 0 && sheet.clock <= (tvMarks[0] as number)) tvMarks.shift();
  sheet.add('580', 'OfficialTVTimeOut', 'Official TV Timeout', { short: 'Timeout', deadSeconds: 150 });
}

/** Now and then the offence calls a timeout, while it has one left. */
function teamTimeout(sheet: Scoresheet, offense: SimTeam): void {
  const { random, style } = sheet;
  const used = sheet.timeouts.get(offense.id) ?? 0;
  if (random() < 0.045 && used < style.timeoutsBy(sheet.period)) {
    sheet.timeouts.set(offense.id, used + 1);
    const [typeId, typeText, text] = style.timeout(offense.name, random);
    sheet.add(typeId, typeText, text, {
      team: offense,
      short: 'Timeout',
      deadSeconds: randomInt(random, 90, 150),
    });
  }
}

function substitute(sheet: Scoresheet, team: SimTeam): void {
  const { random } = sheet;
  const bench = team.roster.filter((a) => !sheet.court(team).includes(a));
  const incoming = bench[Math.floor(random() * Math.min(bench.length, 4))];
  const lineup = sheet.court(team);
  const outIndex = Math.floor(random() * lineup.length);
  const outgoing = lineup[outIndex];
  if (!incoming || !outgoing) return;
  lineup[outIndex] = incoming;
  sheet.add('584', 'Substitution', `${incoming.displayName} enters the game for ${outgoing.displayName}`, {
    team,
    participants: [incoming, outgoing],
    short: 'Substitution',
    deadSeconds: 1,
  });
}

function turnover(sheet: Scoresheet, offense: SimTeam, shooter: SimAthlete): SimTeam {
  const { random } = sheet;
  const defense = sheet.other(offense);
  const [id, text, words, canSteal] = pick(random, TURNOVER_TYPES);
  sheet.line(shooter).to++;
  const stealer = canSteal && random() < 0.5 ? pick(random, sheet.court(defense)) : undefined;
  if (stealer) sheet.line(stealer).stl++;
  sheet.add(id, text, `${shooter.displayName} ${words}${stealer ? ` (${stealer.displayName} steals)` : ''}`, {
    team: offense,
    participants: stealer ? [shooter, stealer] : [shooter],
    coordinate: sheet.shotCoordinate(randomInt(random, 10, 40)),
    short: 'Turnover',
  });
  return defense;
}

/** A foul away from a shot: free throws only when the defence is in the bonus. */
function commonFoul(sheet: Scoresheet, offense: SimTeam, shooter: SimAthlete): SimTeam {
  const defense = sheet.other(offense);
  const shots = sheet.style.bonus(foul(sheet, defense, false, [5, 30]));
  if (shots === 0) return offense;
  const missedLast = freeThrows(sheet, offense, shooter, 2, shots === 'one_and_one');
  return missedLast ? rebound(sheet, offense) : defense;
}

function shootingFoul(sheet: Scoresheet, offense: SimTeam, shooter: SimAthlete): SimTeam {
  const defense = sheet.other(offense);
  foul(sheet, defense, true, [0, 6]);
  const missedLast = freeThrows(sheet, offense, shooter, sheet.random() < 0.12 ? 3 : 2);
  return missedLast ? rebound(sheet, offense) : defense;
}

/** A field goal attempt: about 4 in 10 from three. */
function shot(sheet: Scoresheet, offense: SimTeam, shooter: SimAthlete): SimTeam {
  const { random } = sheet;
  const three = random() < 0.4;
  const made = random() < (three ? 0.36 : 0.53);
  const [typeId, typeText, words] = three
    ? pick(random, THREE_POINT_TYPES)
    : weighted(
        random,
        TWO_POINT_TYPES.map((t) => [t, t[3]] as const),
      );
  const attempt: FieldGoal = {
    offense,
    shooter,
    three,
    points: three ? 3 : 2,
    typeId,
    typeText,
    words,
    distance: three ? randomInt(random, 23, 28) : randomInt(random, 0, 20),
  };
  sheet.line(shooter).fga++;
  if (three) sheet.line(shooter).tpa++;
  return made ? madeShot(sheet, attempt) : missedShot(sheet, attempt);
}

interface FieldGoal {
  readonly offense: SimTeam;
  readonly shooter: SimAthlete;
  readonly three: boolean;
  readonly points: number;
  readonly typeId: string;
  readonly typeText: string;
  /** How the shot reads in the play's text ("driving layup"). */
  readonly words: string;
  /** Feet from the basket. */
  readonly distance: number;
}

function madeShot(sheet: Scoresheet, shotTaken: FieldGoal): SimTeam {
  const { random } = sheet;
  const { offense, shooter, three, points, distance, words } = shotTaken;
  const defense = sheet.other(offense);
  sheet.line(shooter).fgm++;
  sheet.line(shooter).points += points;
  if (three) sheet.line(shooter).tpm++;
  const mates = sheet.court(offense).filter((a) => a !== shooter);
  const assister = random() < 0.6 ? pick(random, mates) : undefined;
  if (assister) sheet.line(assister).ast++;
  sheet.add(
    shotTaken.typeId,
    shotTaken.typeText,
    `${shooter.displayName} makes ${distance > 0 ? `${distance}-foot ` : ''}${words}${assister ? ` (${assister.displayName} assists)` : ''}`,
    {
      team: offense,
      participants: assister ? [shooter, assister] : [shooter],
      scoreValue: points,
      shooting: true,
      pointsAttempted: points,
      coordinate: sheet.shotCoordinate(distance),
      short: `+${points} Points`,
    },
  );
  // And-ones are rare: about one made two in twenty.
  if (!three && random() < 0.05) {
    foul(sheet, defense, true);
    const missedLast = freeThrows(sheet, offense, shooter, 1);
    return missedLast ? rebound(sheet, offense) : defense;
  }
  return defense;
}

function missedShot(sheet: Scoresheet, shotTaken: FieldGoal): SimTeam {
  const { random } = sheet;
  const { offense, shooter, three, points, distance, words } = shotTaken;
  const blocker = !three && random() < 0.08 ? pick(random, sheet.court(sheet.other(offense))) : undefined;
  if (blocker) sheet.line(blocker).blk++;
  sheet.add(
    shotTaken.typeId,
    shotTaken.typeText,
    blocker
      ? `${blocker.displayName} blocks ${shooter.displayName} 's ${distance}-foot ${words}`
      : `${shooter.displayName} misses ${distance > 0 ? `${distance}-foot ` : ''}${words}`,
    {
      team: offense,
      participants: blocker ? [shooter, blocker] : [shooter],
      shooting: true,
      pointsAttempted: points,
      coordinate: sheet.shotCoordinate(distance),
      short: three ? 'Missed 3PT' : 'Missed 2PT',
    },
  );
  return rebound(sheet, offense);
}

/**
 * A defender's foul. With a range of distances (feet) it is committed there on the floor; without
 * one it comes on a made basket (an and-one), a moment after the shot. Returns the defence's team
 * fouls in the current count.
 */
function foul(
  sheet: Scoresheet,
  defense: SimTeam,
  shooting: boolean,
  distance?: readonly [number, number],
): number {
  const { random, teamFouls } = sheet;
  const fouler = pick(random, sheet.court(defense));
  sheet.line(fouler).pf++;
  const count = `${defense.id}/${sheet.style.foulCount(sheet.period)}`;
  teamFouls.set(count, (teamFouls.get(count) ?? 0) + 1);
  const [typeId, typeText, text] = sheet.style.foul(fouler.displayName, shooting);
  sheet.add(typeId, typeText, text, {
    team: defense,
    participants: [fouler],
    short: 'Foul',
    ...(distance
      ? { coordinate: sheet.shotCoordinate(randomInt(random, distance[0], distance[1])) }
      : { deadSeconds: 2 }),
  });
  return teamFouls.get(count) ?? 0;
}

/** A trip to the line; a one-and-one ends at a missed first shot. Returns whether the last missed. */
function freeThrows(
  sheet: Scoresheet,
  shooterTeam: SimTeam,
  shooter: SimAthlete,
  n: number,
  oneAndOne = false,
): boolean {
  const { random } = sheet;
  let lastMissed = false;
  for (let k = 1; k <= n && !(oneAndOne && lastMissed); k++) {
    // 78% is a league-typical free-throw percentage.
    const made = random() < 0.78;
    sheet.line(shooter).fta++;
    if (made) {
      sheet.line(shooter).ftm++;
      sheet.line(shooter).points++;
    }
    const [typeId, typeText] = sheet.style.freeThrowType(k, n);
    sheet.add(
      typeId,
      typeText,
      `${shooter.displayName} ${made ? 'makes' : 'misses'} free throw ${k} of ${n}`,
      {
        team: shooterTeam,
        participants: [shooter],
        scoreValue: made ? 1 : 0,
        shooting: true,
        pointsAttempted: 1,
        short: made ? '+1 Point' : 'Missed FT',
        deadSeconds: randomInt(random, 8, 20),
      },
    );
    lastMissed = !made;
  }
  return lastMissed;
}

/** Who gets a missed shot: about a quarter go back to the offence. Returns that team. */
function rebound(sheet: Scoresheet, offense: SimTeam): SimTeam {
  const { random } = sheet;
  const offensive = random() < 0.25;
  const team = offensive ? offense : sheet.other(offense);
  const [typeId, typeText] = offensive ? ['156', 'Offensive Rebound'] : ['155', 'Defensive Rebound'];
  const side = offensive ? 'offensive' : 'defensive';
  if (random() < 0.07) {
    sheet.add(typeId, typeText, `${team.name} ${side} team rebound`, {
      team,
      short: 'Rebound',
      deadSeconds: 1,
    });
  } else {
    const who = pick(random, sheet.court(team));
    if (offensive) sheet.line(who).oreb++;
    else sheet.line(who).dreb++;
    sheet.add(typeId, typeText, `${who.displayName} ${side} rebound`, {
      team,
      participants: [who],
      short: 'Rebound',
      deadSeconds: randomInt(random, 1, 3),
    });
  }
  return team;
}
