// The game situation on the scorebug: team fouls with the bonus marker, and timeout dots.
// The daemon computes the situation from the plays (docs/events.md, "Game situation"); the page
// only draws it.

// Dots drawn at most: the NBA's seven timeouts a game is the most either league allows.
const MAX_DOTS = 7;

/** Fills one team's situation cells. `team` is the situation's `home` or `away`, or null. */
export function renderTeamSituation(cell, team) {
  const fouls = cell.querySelector('.fouls');
  const bonus = cell.querySelector('.bonus');
  const dots = cell.querySelector('.timeouts');
  cell.dataset.situation = team ? 'shown' : 'none';
  if (!team) return;
  fouls.textContent = `Fouls ${team.fouls}`;
  fouls.dataset.fouls = String(team.fouls);
  bonus.hidden = !team.bonus;
  cell.classList.toggle('in-bonus', Boolean(team.bonus));
  const { taken, remaining } = team.timeouts ?? { taken: 0, remaining: null };
  dots.dataset.taken = String(taken);
  dots.dataset.remaining = remaining === null ? '' : String(remaining);
  if (remaining === null) {
    // The league gives no number: say how many were taken.
    dots.replaceChildren(document.createTextNode(`TO ${taken}`));
    dots.title = `${taken} timeouts taken`;
    return;
  }
  const shown = Math.min(remaining, MAX_DOTS);
  dots.replaceChildren(
    ...Array.from({ length: shown }, () => {
      const dot = document.createElement('span');
      dot.className = 'dot';
      return dot;
    }),
  );
  dots.title = `${remaining} timeouts left`;
}

// Six personal fouls foul a player out in both leagues; the fifth is when broadcasts flag it.
export const FOUL_TROUBLE = 5;

/** Players at or above `limit` fouls, most fouls first: the foul-trouble line. */
export function foulTrouble(team, limit = FOUL_TROUBLE) {
  if (!team?.players) return [];
  return Object.entries(team.players)
    .filter(([, p]) => p.fouls >= limit)
    .sort((a, b) => b[1].fouls - a[1].fouls || a[0].localeCompare(b[0]))
    .map(([id, p]) => ({ id, name: p.name, jersey: p.jersey, fouls: p.fouls }));
}

/** "TOR #33 Coleman 5 · ORL #5 Banchero 5": who is in foul trouble, or '' when nobody is. */
export function foulTroubleLine(situation, teams) {
  if (!situation) return '';
  const parts = [];
  for (const side of ['away', 'home']) {
    for (const p of foulTrouble(situation[side])) {
      const who = [p.jersey ? `#${p.jersey}` : '', p.name ? p.name.split(' ').slice(-1)[0] : `player ${p.id}`]
        .filter(Boolean)
        .join(' ');
      parts.push(`${teams[side]?.abbreviation ?? side} ${who} ${p.fouls}`);
    }
  }
  return parts.length ? `Foul trouble: ${parts.join(' · ')}` : '';
}
