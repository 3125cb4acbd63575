// Types of colors.js, which the browser loads as is (no build step) and the tests import from Node.

/** A team's colours as a snapshot carries them: hex without `#`, or null. */
export interface TeamColors {
  color?: string | null;
  alternateColor?: string | null;
}

export interface SideColors {
  /** `rrggbb`, no `#`. */
  background: string;
  /** `#111111` or `#ffffff`. */
  text: string;
}

export type ColorChange = 'away-alternate' | 'home-alternate' | 'away-variant';

export const CLOSE_DELTA_E: number;
export const DEFAULT_COLORS: Readonly<{ home: string; away: string }>;
export const PANEL_COLOR: string;
export function parseHex(value: unknown): string | null;
export function hexToLab(hex: string): [number, number, number];
export function deltaE76(a: string, b: string): number;
export function textOn(hex: string): '#111111' | '#ffffff';
export function mix(hex: string, target: string, t: number): string;
export function scorebugColors(
  home: TeamColors | null | undefined,
  away: TeamColors | null | undefined,
): { home: SideColors; away: SideColors; changed: ColorChange | null };
