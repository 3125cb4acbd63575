import type { PlayRow } from '../model/events.js';
import { arr, isObject, obj, toCharacter, toDouble, toInteger, toLogical } from './cells.js';
import type { PlaysRow, WinprobabilityRow } from './schema.js';

// The schema's row type and the event model's PlayRow must stay the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const playRowMatchesSchema: Same<PlayRow, PlaysRow> = true;
void playRowMatchesSchema;

/**
 * One `plays` row. Values are as upstream sends them: plays keep the payload's order (it is not
 * sorted by `sequenceNumber`), and the coordinate sentinel of non-shot plays (-214748340,
 * -214748365) is kept, since real coordinates can be negative too.
 */
export function playRow(play: Record<string, unknown>): PlayRow {
  const type = obj(play.type);
  const period = obj(play.period);
  const coordinate = obj(play.coordinate);
  return {
    id: toCharacter(play.id),
    sequence_number: toCharacter(play.sequenceNumber),
    text: toCharacter(play.text),
    participants: toCharacter(play.participants),
    wallclock: toCharacter(play.wallclock),
    short_description: toCharacter(play.shortDescription),
    type_id: toCharacter(type.id),
    type_text: toCharacter(type.text),
    period_display_value: toCharacter(period.displayValue),
    clock_display_value: toCharacter(obj(play.clock).displayValue),
    team_id: toCharacter(obj(play.team).id),
    away_score: toInteger(play.awayScore),
    home_score: toInteger(play.homeScore),
    score_value: toInteger(play.scoreValue),
    points_attempted: toInteger(play.pointsAttempted),
    period_number: toInteger(period.number),
    coordinate_x: toInteger(coordinate.x),
    coordinate_y: toInteger(coordinate.y),
    scoring_play: toLogical(play.scoringPlay),
    shooting_play: toLogical(play.shootingPlay),
  };
}

/** The summary's `plays` table: one row per play object in `plays`, in payload order. */
export function parsePlays(raw: unknown): PlayRow[] {
  const out: PlayRow[] = [];
  for (const play of arr(obj(raw).plays)) if (isObject(play)) out.push(playRow(play));
  return out;
}

/** The summary's `winprobability` table: one row per entry of `winprobability`. */
export function parseWinprobability(raw: unknown): WinprobabilityRow[] {
  const out: WinprobabilityRow[] = [];
  for (const entry of arr(obj(raw).winprobability)) {
    if (!isObject(entry)) continue;
    out.push({
      home_win_percentage: toDouble(entry.homeWinPercentage),
      tie_percentage: toDouble(entry.tiePercentage),
      play_id: toCharacter(entry.playId),
    });
  }
  return out;
}
