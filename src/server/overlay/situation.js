// The game situation on the scorebug: timeouts left, team fouls, the bonus and reset-timeout
// markers, and the foul-trouble line. The daemon computes the situation from the plays
// (docs/events.md, "Game situation"); the page only draws it.

/** Fills one team's situation cells. `team` is the situation's `home` or `away`, or null. */
export function renderTeamSituation(cell, team) {
  const fouls = cell.querySelector('.fouls');
  const bonus = cell.querySelector('.bonus');
  const reset = cell.querySelector('.reset');
  const timeouts = cell.querySelector('.timeouts');
  cell.dataset.situation = team ? 'shown' : 'none';
  if (!team) return;
  fouls.textContent = `Fouls ${team.fouls}`;
  fouls.dataset.fouls = String(team.fouls);
  bonus.hidden = !team.bonus;
  cell.classList.toggle('in-bonus', Boolean(team.bonus));
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

// Six personal fouls foul a player out in both leagues; the fifth is when broadcasts flag it.
export const FOUL_TROUBLE = 5;
const FOUL_OUT = 6;

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
function standing(p) {
  if (!p.disqualified) return String(p.fouls);
  // Out with six fouls is "fouled out"; out on technicals or flagrant fouls is an ejection.
  return p.fouls >= FOUL_OUT ? 'fouled out' : 'ejected';
}

/** "TOR #33 Coleman 5 · ORL #5 Banchero fouled out": who is in foul trouble, or '' when nobody is. */
export function foulTroubleLine(situation, teams) {
  if (!situation) return '';
  const parts = [];
  for (const side of ['away', 'home']) {
    for (const p of foulTrouble(situation[side])) {
      const who = [p.jersey ? `#${p.jersey}` : '', p.name ? surname(p.name) : `player ${p.id}`]
        .filter(Boolean)
        .join(' ');
      parts.push(`${teams[side]?.abbreviation ?? side} ${who} ${standing(p)}`);
    }
  }
  return parts.length ? `Foul trouble: ${parts.join(' · ')}` : '';
}
