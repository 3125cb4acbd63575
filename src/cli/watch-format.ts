import type { League } from '../core/leagues.js';
import type { FreeThrows, GameEvent, GameSnapshot, GameSituation, TeamRef } from '../model/events.js';
import { periodLabel, teamName } from '../../workers/alerts/format.js';

/**
 * Lines of the `courtside watch` terminal feed. Pure functions: the command decides on colour
 * (TTY) and where lines go; tests check the text.
 */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

const identity = (text: string): string => text;
export const PLAIN: Style = { bold: identity, dim: identity, green: identity, yellow: identity };
export const ANSI: Style = {
  bold: (t) => `\x1b[1m${t}\x1b[22m`,
  dim: (t) => `\x1b[2m${t}\x1b[22m`,
  green: (t) => `\x1b[32m${t}\x1b[39m`,
  yellow: (t) => `\x1b[33m${t}\x1b[39m`,
};

type Side = Pick<TeamRef, 'abbreviation' | 'rank'> & { score: number };

/**
 * `LAL 102 - BOS 101, 1:12 4th`, `#3 DUKE 41 - UNC 38, 12:40 2nd`: away first, as the upstream's
 * short names read, each after its poll rank when it has one; the period in the league's short
 * form (halves in men's college).
 */
export function scoreLine(
  away: Side,
  home: Side,
  clock: string | null,
  period: number | null,
  league: League,
  style: Style = PLAIN,
): string {
  const when = [clock, periodLabel(period, league)].filter(Boolean).join(' ');
  const score = `${style.bold(teamName(away))} ${away.score} - ${style.bold(teamName(home))} ${home.score}`;
  return when ? `${score}, ${when}` : score;
}

// What the fouled team shoots, as a college broadcast says it; a pro penalty is just "bonus".
const FREE_THROWS: Record<FreeThrows, string> = { one_and_one: 'one-and-one', two: 'double bonus' };

/**
 * `DUKE in the one-and-one · UNC in the double bonus`, or '' when neither team shoots on the next
 * common foul. In the pro leagues and women's college (two shots from the first penalty foul on)
 * the level is the plain bonus.
 */
export function bonusLine(
  situation: GameSituation | null | undefined,
  teams: { home: TeamRef; away: TeamRef },
): string {
  if (!situation) return '';
  const parts: string[] = [];
  for (const side of ['away', 'home'] as const) {
    const t = situation[side];
    const level = t.freeThrows ?? (t.bonus ? 'two' : null);
    if (level === null) continue;
    const words = situation.rules === 'ncaam' ? FREE_THROWS[level] : 'bonus';
    parts.push(`${teams[side].abbreviation} in the ${words}`);
  }
  return parts.join(' · ');
}

export function snapshotLine(snap: GameSnapshot, style: Style = PLAIN): string {
  const line = scoreLine(
    { ...snap.teams.away, score: snap.score.away },
    { ...snap.teams.home, score: snap.score.home },
    snap.state === 'post' ? 'Final' : snap.clock,
    snap.state === 'post' ? null : snap.period,
    snap.league,
    style,
  );
  // A live game's detail repeats the clock ("10:59 - 1st Quarter"); before and after it says more.
  const said = snap.status.detail;
  const detail = said && snap.state !== 'in' && said !== 'Final' ? style.dim(` (${said})`) : '';
  const bonus = snap.state === 'in' ? bonusLine(snap.situation, snap.teams) : '';
  return `${style.yellow('●')} ${line}${detail}${bonus ? style.dim(` (${bonus})`) : ''}`;
}

/** The period's name the engine gave the event (`2nd Half`, `OT`), or one from its number. */
function periodName(event: GameEvent & { type: 'period.started' | 'period.ended' }): string {
  return event.data.label ?? periodLabel(event.data.period, event.league);
}

/** True when a team's free-throw level changed: the only change of the situation the feed tells. */
function bonusChanged(changed: string[]): boolean {
  return changed.some((c) => c === 'home.bonus' || c === 'away.bonus' || c.endsWith('.freeThrows'));
}

/** One line per event worth showing to a person, or null for events the feed leaves out. */
export function eventLine(event: GameEvent, style: Style = PLAIN): string | null {
  const { home, away } = event.teams;
  switch (event.type) {
    case 'play.added':
    case 'play.updated': {
      const p = event.data.play;
      const when = style.dim(
        `[${periodLabel(p.period_number, event.league)} ${p.clock_display_value ?? ''}]`.replace(' ]', ']'),
      );
      const score = `${away.abbreviation} ${p.away_score ?? 0}-${p.home_score ?? 0} ${home.abbreviation}`;
      const text = p.scoring_play ? style.green(p.text ?? '') : (p.text ?? '');
      const mark = event.type === 'play.updated' ? style.dim(' (corrected)') : '';
      return `${when} ${score}  ${text}${mark}`;
    }
    case 'play.removed':
      return style.dim(`play ${event.data.playId} was removed upstream`);
    case 'score.changed':
      return `${style.yellow('●')} ${scoreLine(
        { ...away, score: event.data.score.away },
        { ...home, score: event.data.score.home },
        event.data.clock,
        event.data.period,
        event.league,
        style,
      )}`;
    case 'period.started':
      return style.bold(`— start of ${periodName(event)} —`);
    case 'period.ended':
      return style.bold(`— end of ${periodName(event)} —`);
    case 'game.started':
      return style.bold(`${teamName(away)} at ${teamName(home)}: game started`);
    case 'game.ended':
      return style.bold(
        `Final: ${scoreLine(
          { ...away, score: event.data.score.away },
          { ...home, score: event.data.score.home },
          null,
          null,
          event.league,
        )}`,
      );
    case 'game.status':
      return style.dim(`status: ${event.data.detail ?? event.data.name ?? event.data.state}`);
    case 'situation.changed': {
      if (!bonusChanged(event.data.changed)) return null;
      const line = bonusLine(event.data.situation, event.teams);
      return line ? style.dim(line) : null;
    }
    case 'winprob.changed':
      return null;
  }
}
