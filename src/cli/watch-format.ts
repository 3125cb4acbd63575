import type { GameEvent, GameSnapshot } from '../model/events.js';

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

export function periodLabel(period: number | null | undefined): string {
  if (!period) return '';
  if (period <= 4) return ['1st', '2nd', '3rd', '4th'][period - 1] ?? '';
  return period === 5 ? 'OT' : `${period - 4}OT`;
}

/** `LAL 102 - BOS 101, 1:12 4th` — away first, as the upstream's short names read. */
export function scoreLine(
  away: { abbreviation: string; score: number },
  home: { abbreviation: string; score: number },
  clock: string | null,
  period: number | null,
  style: Style = PLAIN,
): string {
  const when = [clock, periodLabel(period)].filter(Boolean).join(' ');
  const score = `${style.bold(away.abbreviation)} ${away.score} - ${style.bold(home.abbreviation)} ${home.score}`;
  return when ? `${score}, ${when}` : score;
}

export function snapshotLine(snap: GameSnapshot, style: Style = PLAIN): string {
  const line = scoreLine(
    { abbreviation: snap.teams.away.abbreviation, score: snap.score.away },
    { abbreviation: snap.teams.home.abbreviation, score: snap.score.home },
    snap.state === 'post' ? 'Final' : snap.clock,
    snap.state === 'post' ? null : snap.period,
    style,
  );
  // A live game's detail repeats the clock ("10:59 - 1st Quarter"); before and after it says more.
  const said = snap.status.detail;
  const detail = said && snap.state !== 'in' && said !== 'Final' ? style.dim(` (${said})`) : '';
  return `${style.yellow('●')} ${line}${detail}`;
}

/** One line per event worth showing to a person, or null for events the feed leaves out. */
export function eventLine(event: GameEvent, style: Style = PLAIN): string | null {
  const { home, away } = event.teams;
  switch (event.type) {
    case 'play.added':
    case 'play.updated': {
      const p = event.data.play;
      const when = style.dim(
        `[${periodLabel(p.period_number)} ${p.clock_display_value ?? ''}]`.replace(' ]', ']'),
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
        { abbreviation: away.abbreviation, score: event.data.score.away },
        { abbreviation: home.abbreviation, score: event.data.score.home },
        event.data.clock,
        event.data.period,
        style,
      )}`;
    case 'period.started':
      return style.bold(`— start of ${periodLabel(event.data.period)} —`);
    case 'period.ended':
      return style.bold(`— end of ${periodLabel(event.data.period)} —`);
    case 'game.started':
      return style.bold(`${away.abbreviation} at ${home.abbreviation}: game started`);
    case 'game.ended':
      return style.bold(
        `Final: ${scoreLine(
          { abbreviation: away.abbreviation, score: event.data.score.away },
          { abbreviation: home.abbreviation, score: event.data.score.home },
          null,
          null,
        )}`,
      );
    case 'game.status':
      return style.dim(`status: ${event.data.detail ?? event.data.name ?? event.data.state}`);
    case 'winprob.changed':
    case 'situation.changed':
      return null;
  }
}
