// The game situation on the scorebug: timeouts left, team fouls, the bonus and reset-timeout
// markers, and the foul-trouble line. The daemon computes the situation from the plays
// (docs/events.md, "Game situation"); the page only draws it.

/**
 * The bonus chip's words for what the team shoots on the next common foul: men's college has two
 * levels, the one-and-one (from the 7th team foul of the half) and the double bonus (two shots,
 * from the 10th); everywhere else two shots are just the bonus.
 */
export function bonusText(team, rules) {
  const level = team?.freeThrows ?? (team?.bonus ? 'two' : null);
  if (level === null) return '';
  if (level === 'one_and_one') return '1-and-1';
  return rules === 'ncaam' ? 'Double bonus' : 'Bonus';
}

/**
 * Fills one team's situation cells. `team` is the situation's `home` or `away`, or null; `rules`
 * the situation's rules (`nba`, `ncaam`…).
 */
export function renderTeamSituation(cell, team, rules) {
  const fouls = cell.querySelector('.fouls');
  const bonus = cell.querySelector('.bonus');
  const reset = cell.querySelector('.reset');
  const timeouts = cell.querySelector('.timeouts');
  cell.dataset.situation = team ? 'shown' : 'none';
  if (!team) return;
  fouls.textContent = `Fouls ${team.fouls}`;
  fouls.dataset.fouls = String(team.fouls);
  const words = bonusText(team, rules);
  bonus.hidden = words === '';
  bonus.textContent = words || 'Bonus';
  bonus.dataset.level = team.freeThrows ?? (team.bonus ? 'two' : '');
  cell.classList.toggle('in-bonus', words !== '');
  const { taken = 0, remaining = null, reset: resets = null } = team.timeouts ?? {};
  timeouts.dataset.taken = String(taken);
  timeouts.dataset.remaining = remaining === null ? '' : String(remaining);
  // Timeouts LEFT, as broadcasts label them ("TOL 3"). A situation stored by an older daemon may
  // give no number (a WNBA overtime): then nothing is shown rather than a count read the wrong way.
  timeouts.hidden = remaining === null;
  timeouts.textContent = remaining === null ? '' : `TOL ${remaining}`;
  timeouts.title = remaining === null ? '' : `${remaining} timeout${remaining === 1 ? '' : 's'} left`;
  // The WNBA's reset timeout, marked only while it can be called (the last two minutes of the 4th
  // and of each overtime) and is unused.
  reset.hidden = !resets?.available;
}

// Six personal fouls foul a player out in the pro leagues, five in college; broadcasts flag the
// foul before the last one.
export const FOUL_TROUBLE = 5;
const FOUL_OUT = 6;
const COLLEGE_RULES = new Set(['ncaam', 'ncaaw']);

/** Fouls that put a player out of the game under the situation's rules. */
export function foulOutAt(rules) {
  return COLLEGE_RULES.has(rules) ? FOUL_OUT - 1 : FOUL_OUT;
}

/**
 * Players at or above `limit` fouls or out of the game, for the foul-trouble line: those out of
 * the game first, then the most fouls first.
 */
export function foulTrouble(team, limit = FOUL_TROUBLE) {
  if (!team?.players) return [];
  return Object.entries(team.players)
    .filter(([, p]) => p.fouls >= limit || p.disqualified)
    .sort(
      (a, b) =>
        Number(b[1].disqualified) - Number(a[1].disqualified) ||
        b[1].fouls - a[1].fouls ||
        a[0].localeCompare(b[0]),
    )
    .map(([id, p]) => ({ id, name: p.name, jersey: p.jersey, fouls: p.fouls, disqualified: p.disqualified }));
}

// Generational suffixes: "Marvin Bagley III" is Bagley on the line, "Jaren Jackson Jr." is Jackson.
const SUFFIX = /^(jr\.?|sr\.?|ii|iii|iv|v)$/i;

/** The last name of a display name, without a generational suffix. */
export function surname(name) {
  const words = name.trim().split(/\s+/);
  while (words.length > 1 && SUFFIX.test(words.at(-1))) words.pop();
  return words.at(-1);
}

/** What the line says of a player: the foul count, or why the player is out of the game. */
function standing(p, foulOut) {
  if (!p.disqualified) return String(p.fouls);
  // Out with the league's fouls is "fouled out"; out on technicals or flagrant fouls is an ejection.
  return p.fouls >= foulOut ? 'fouled out' : 'ejected';
}

/** "TOR #33 Coleman 5 · ORL #5 Banchero fouled out": who is in foul trouble, or '' when nobody is. */
export function foulTroubleLine(situation, teams) {
  if (!situation) return '';
  const parts = [];
  const foulOut = foulOutAt(situation.rules);
  for (const side of ['away', 'home']) {
    for (const p of foulTrouble(situation[side], foulOut - 1)) {
      const who = [p.jersey ? `#${p.jersey}` : '', p.name ? surname(p.name) : `player ${p.id}`]
        .filter(Boolean)
        .join(' ');
      parts.push(`${teams[side]?.abbreviation ?? side} ${who} ${standing(p, foulOut)}`);
    }
  }
  return parts.length ? `Foul trouble: ${parts.join(' · ')}` : '';
}
