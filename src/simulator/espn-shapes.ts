import type { GameStatus } from './game-status.js';

/**
 * The parts of ESPN's payloads that the simulator builds, typed as far as it fills them. Values it
 * copies from a recorded payload without looking inside stay `unknown`: ESPN decides their shape.
 */

/** A JSON object whose fields are read one at a time (with `obj` and `arr`), never trusted whole. */
export type JsonObject = Record<string, unknown>;

/** A finished game summary as the simulator generates it: ESPN's summary object, plays and all. */
export interface FinishedSummary {
  readonly plays: readonly unknown[];
  readonly [key: string]: unknown;
}

export interface Logo {
  readonly href: string;
  readonly width: number;
  readonly height: number;
  readonly alt: string;
  readonly rel: readonly string[];
}

export interface Link {
  readonly rel: readonly string[];
  readonly href: string;
  readonly text: string;
}

/** The `team` object of the scoreboard, the summary header and the team operations. */
export interface TeamObject {
  readonly id: string;
  readonly uid: string;
  readonly slug: string;
  readonly location: string;
  readonly name: string;
  readonly abbreviation: string;
  readonly displayName: string;
  readonly shortDisplayName: string;
  readonly color: string;
  readonly alternateColor: string;
  readonly isActive: boolean;
  readonly logo: string;
  readonly logos: readonly Logo[];
  readonly links: readonly Link[];
}

/** The `athlete` object of box scores, leaders and rosters. */
export interface AthleteObject {
  readonly id: string;
  readonly uid: string;
  readonly guid: string;
  readonly displayName: string;
  readonly shortName: string;
  readonly links: readonly Link[];
  readonly headshot: { readonly href: string; readonly alt: string };
  readonly jersey: string;
  readonly position: { readonly name: string; readonly displayName: string; readonly abbreviation: string };
}

export interface ScoreboardLinescore {
  readonly value: number;
  readonly displayValue: string;
  readonly period: number;
}

/** One side of a scoreboard game; the team's fields come from the game's summary as they are. */
export interface ScoreboardCompetitor {
  readonly id: string;
  readonly uid: unknown;
  readonly type: 'team';
  readonly order: unknown;
  readonly homeAway: unknown;
  readonly winner: boolean;
  readonly team: {
    readonly id: string;
    readonly uid: unknown;
    readonly location: unknown;
    readonly name: unknown;
    readonly abbreviation: unknown;
    readonly displayName: unknown;
    readonly shortDisplayName: unknown;
    readonly color: unknown;
    readonly alternateColor: unknown;
    readonly isActive: true;
    readonly logo: unknown;
    /** College: the team's conference, ESPN's group id. */
    readonly conferenceId?: string;
  };
  readonly score: string;
  readonly linescores: readonly ScoreboardLinescore[];
  /** College: the team's poll rank, 99 when unranked. */
  readonly curatedRank?: { readonly current: number };
}

export interface ScoreboardCompetition {
  readonly id: string;
  readonly uid: unknown;
  readonly date: unknown;
  readonly attendance: unknown;
  readonly type: { readonly id: string; readonly abbreviation: string };
  readonly timeValid: boolean;
  readonly neutralSite: unknown;
  readonly conferenceCompetition: unknown;
  readonly playByPlayAvailable: boolean;
  readonly recent: boolean;
  readonly venue:
    | { readonly id: unknown; readonly fullName: unknown; readonly address: unknown; readonly indoor: true }
    | undefined;
  readonly competitors: readonly ScoreboardCompetitor[];
  readonly notes: readonly unknown[];
  /** College tournament games: ESPN's tournament id. */
  readonly tournamentId?: unknown;
  readonly status: GameStatus;
  readonly broadcasts: readonly unknown[];
  readonly format: { readonly regulation: { readonly periods: number } };
  readonly startDate: unknown;
  readonly broadcast: string;
}

/** One game of the scoreboard's `events`. */
export interface ScoreboardEvent {
  readonly id: string;
  readonly uid: unknown;
  readonly date: unknown;
  readonly name: string;
  readonly shortName: string;
  readonly season: { readonly year: unknown; readonly type: unknown; readonly slug: string };
  readonly competitions: readonly ScoreboardCompetition[];
  readonly links: readonly unknown[];
  readonly status: GameStatus;
}

export interface Scoreboard {
  readonly leagues: readonly unknown[];
  readonly season: { readonly type: unknown; readonly year: unknown };
  readonly day: { readonly date: string };
  readonly events: readonly ScoreboardEvent[];
}
