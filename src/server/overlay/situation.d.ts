// Types of situation.js, which the browser loads as is (no build step) and the tests import from Node.
import type { GameSituation, TeamSituation } from '../../model/events.js';

export function renderTeamSituation(
  cell: Element,
  team: TeamSituation | null,
  rules?: GameSituation['rules'],
): void;

/** `1-and-1`, `Double bonus` (men's college), `Bonus`, or '' when the team shoots nothing. */
export function bonusText(team: TeamSituation | null | undefined, rules?: GameSituation['rules']): string;

/** Fouls that put a player out of the game under the rules: 5 in college, 6 in the pro leagues. */
export function foulOutAt(rules: GameSituation['rules'] | undefined): number;

export const FOUL_TROUBLE: number;

export interface TroublePlayer {
  id: string;
  name: string | null;
  jersey: string | null;
  fouls: number;
  disqualified: boolean;
}

export function foulTrouble(team: TeamSituation | null | undefined, limit?: number): TroublePlayer[];

/** The last name of a display name, without a generational suffix ("Marvin Bagley III" → "Bagley"). */
export function surname(name: string): string;

export function foulTroubleLine(
  situation: GameSituation | null | undefined,
  teams: Record<'home' | 'away', { abbreviation?: string | null } | undefined>,
): string;
