// Types of situation.js, which the browser loads as is (no build step) and the tests import from Node.
import type { GameSituation, TeamSituation } from '../../model/events.js';

export function renderTeamSituation(cell: Element, team: TeamSituation | null): void;

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
