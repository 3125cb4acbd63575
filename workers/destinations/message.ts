import { finalLabel, momentLine, periodLabel, scoreLine, teamName } from '../alerts/format.js';
import type { Alert, RuleName, Side } from '../alerts/types.js';
import { LEAGUE_INFO } from '../../src/core/leagues.js';

/**
 * An alert as the chat destinations show it, built once from the alert's fields (never by parsing
 * its text). `headline` is what a notification preview shows; `scoreLine`, `when` and `play` are
 * the lines under it.
 */
export interface AlertMessage {
  /** `Lead change: ORL lead 98-96`. */
  headline: string;
  /** An emoji for the rule, for chats that show one before the headline. */
  emoji: string;
  /** `TOR 96 - ORL 98` (away team first). */
  scoreLine: string;
  /** `1:12 4th`, `Final/OT`; null when the clock is unknown. */
  when: string | null;
  /** The sentence about the alert, or the play that caused it. */
  detail: string | null;
  /**
   * The lines under the headline in a chat: the score and clock, then the detail (the final
   * score's headline is its score line already, so only the detail).
   */
  lines: string[];
  /** `NBA`, `WNBA`, `NCAAM` or `NCAAW`. */
  league: string;
  /** The team the alert is about (winner, new leader, team on the run...), when there is one. */
  side: Side | null;
  /** That team's colour, hex without `#`, when the snapshot gave it. */
  colour: string | null;
  /** ntfy priority, 3 (default) or 4 (high: the moments worth a buzz). */
  priority: 3 | 4;
  /** ntfy tags (emoji short codes). */
  tags: string[];
}

export function alertMessage(alert: Alert): AlertMessage {
  return RULE_MESSAGES[alert.rule](messageParts(alert));
}

/** What every rule's message is made of: the alert, its details read safely, its sides and lines. */
interface MessageParts {
  alert: Alert;
  details: Alert['details'];
  /** A detail as trimmed text (a number as its digits), or null when absent or blank. */
  str(key: string): string | null;
  /** The side whose abbreviation this is, or null. */
  sideOf(abbreviation: string | null): Side | null;
  /** The side ahead on the score, or null when tied. */
  leading: Side | null;
  /** `98-96`, the side's score first. */
  lead(side: Side): string;
  scoreLine: string;
  when: string | null;
  /** The message for `side` (whose colour it takes), from its headline, detail, emoji and ntfy tag. */
  build(
    side: Side | null,
    headline: string,
    detail: string | null,
    emoji: string,
    tag: string,
    priority?: 3 | 4,
  ): AlertMessage;
}

function messageParts(alert: Alert): MessageParts {
  const d = alert.details;
  const str = (key: string): string | null => {
    const value = d[key];
    return typeof value === 'string' && value.trim() !== ''
      ? value.trim()
      : typeof value === 'number'
        ? String(value)
        : null;
  };
  const sideOf = (abbreviation: string | null): Side | null =>
    abbreviation === alert.teams.home.abbreviation
      ? 'home'
      : abbreviation === alert.teams.away.abbreviation
        ? 'away'
        : null;
  const leading: Side | null =
    alert.score.home > alert.score.away ? 'home' : alert.score.away > alert.score.home ? 'away' : null;
  const lead = (side: Side): string => {
    const other: Side = side === 'home' ? 'away' : 'home';
    return `${alert.score[side]}-${alert.score[other]}`;
  };
  const clock = momentLine(alert.teams, alert.score, alert.period, alert.clock, alert.league).slice(
    scoreLine(alert.teams, alert.score).length + 2,
  );
  const base = {
    scoreLine: scoreLine(alert.teams, alert.score),
    when: clock || null,
    league: LEAGUE_INFO[alert.league].label,
  };
  const build: MessageParts['build'] = (side, headline, detail, emoji, tag, priority = 3) => ({
    ...base,
    headline,
    emoji,
    detail,
    lines: [[base.scoreLine, base.when].filter(Boolean).join(' · '), ...(detail ? [detail] : [])],
    side,
    colour: side ? (alert.colors?.[side] ?? null) : null,
    priority,
    tags: ['basketball', tag],
  });
  return { alert, details: d, str, sideOf, leading, lead, scoreLine: base.scoreLine, when: base.when, build };
}

/** Each rule's message. */
const RULE_MESSAGES: Record<RuleName, (parts: MessageParts) => AlertMessage> = {
  final_score: finalScoreMessage,
  lead_change: leadChangeMessage,
  close_game: closeGameMessage,
  run: runMessage,
  player_points: playerPointsMessage,
  upset_watch: upsetWatchMessage,
  upset: upsetMessage,
};

function finalScoreMessage({
  alert,
  details: d,
  leading,
  lead,
  scoreLine,
  build,
}: MessageParts): AlertMessage {
  const winner = d.winner === 'home' || d.winner === 'away' ? d.winner : leading;
  const periods = typeof d.periods === 'number' ? d.periods : (alert.period ?? 4);
  const label = finalLabel(periods, alert.league);
  return {
    ...build(
      winner,
      `${label}: ${scoreLine}`,
      winner ? `${alert.teams[winner].abbreviation} win ${lead(winner)}` : null,
      '🏁',
      'checkered_flag',
    ),
    when: label,
    lines: winner ? [`${alert.teams[winner].abbreviation} win ${lead(winner)}`] : [],
  };
}

function leadChangeMessage({ alert, str, sideOf, leading, lead, build }: MessageParts): AlertMessage {
  const side = sideOf(str('leader')) ?? leading;
  const who = side ? `${alert.teams[side].abbreviation} lead ${lead(side)}` : 'lead change';
  return build(side, `Lead change: ${who}`, str('play'), '🔄', 'arrows_counterclockwise');
}

function closeGameMessage({ alert, leading, when, build }: MessageParts): AlertMessage {
  const margin = leading
    ? `${alert.teams[leading].abbreviation} by ${Math.abs(alert.score.home - alert.score.away)}`
    : 'tied';
  return build(
    leading,
    `Close game: ${margin}${when ? `, ${when}` : ''}`,
    alert.clock !== null && alert.period !== null
      ? `${margin === 'tied' ? 'Tied' : margin} with ${alert.clock} left in the ${periodLabel(alert.period, alert.league)}`
      : null,
    '⏱️',
    'stopwatch',
    4,
  );
}

function runMessage({ alert, str, sideOf, build }: MessageParts): AlertMessage {
  const side = sideOf(str('team'));
  const team = side ? alert.teams[side].abbreviation : str('team');
  return build(side, `${team} on a ${str('points') ?? '?'}-0 run`, str('play'), '🔥', 'fire');
}

function playerPointsMessage({ alert, str, build }: MessageParts): AlertMessage {
  const teamId = str('teamId');
  const side: Side | null =
    teamId === alert.teams.home.id ? 'home' : teamId === alert.teams.away.id ? 'away' : null;
  const team = side ? ` (${alert.teams[side].abbreviation})` : '';
  return build(
    side,
    `${str('name') ?? 'A player'}${team} reaches ${str('threshold') ?? '?'} points`,
    str('play'),
    '⭐',
    'star',
  );
}

function upsetWatchMessage({ details: d, str, sideOf, build }: MessageParts): AlertMessage {
  const side = sideOf(str('team'));
  const now = typeof d.probability === 'number' ? pct(d.probability) : '?';
  const before = typeof d.pregame === 'number' ? `${pct(d.pregame)} before the game` : null;
  return build(
    side,
    `Upset watch: ${str('team') ?? '?'} now ${now} to win`,
    before ? `${str('team') ?? '?'} had ${before}` : null,
    '🚨',
    'rotating_light',
    4,
  );
}

function upsetMessage({ alert, str, sideOf, when, build }: MessageParts): AlertMessage {
  const dog = sideOf(str('underdog'));
  const fav = sideOf(str('favourite'));
  const favName = fav ? teamName(alert.teams[fav]) : (str('favourite') ?? '?');
  const dogName = dog ? teamName(alert.teams[dog]) : (str('underdog') ?? '?');
  const over = alert.moment === 'final';
  return build(
    dog,
    over ? `Upset: ${dogName} beat ${favName}` : `Upset alert: ${favName} trails ${dogName}`,
    over ? null : when,
    '😱',
    'scream',
    4,
  );
}

function pct(p: number): string {
  return `${Math.round(p * 100)}%`;
}
