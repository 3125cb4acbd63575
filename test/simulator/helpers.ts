import type { League } from '../../src/core/leagues.js';
import { rosterFor } from '../../src/simulator/athletes.js';
import { startUpstream, type RunningUpstream, type UpstreamOptions } from '../../src/simulator/index.js';
import { findTeam } from '../../src/simulator/team-catalog.js';

/** A settable clock for the simulator, so replays progress without waiting. */
export class TestClock {
  constructor(public ms = Date.UTC(2025, 0, 15, 0, 0)) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

const running: RunningUpstream[] = [];

/** Starts a simulator that `closeAll()` (in afterEach) closes. */
export async function start(options: UpstreamOptions = {}): Promise<RunningUpstream> {
  const upstream = await startUpstream(options);
  running.push(upstream);
  return upstream;
}

export async function closeAll(): Promise<void> {
  await Promise.all(running.splice(0).map((u) => u.close()));
}

/**
 * An athlete of the simulator's generated roster of a catalog team: the per-athlete operations
 * answer for it with or without recordings (a real athlete id is answered only by a recording).
 */
export function rosterAthleteId(league: League = 'mens', teamId = '13'): string {
  const team = findTeam(league, teamId);
  const athlete = team && rosterFor(league, team)[0];
  if (!athlete) throw new Error(`no catalog team ${league}/${teamId}`);
  return athlete.id;
}

export const NBA = '/apis/site/v2/sports/basketball/nba';
export const WNBA = '/apis/site/v2/sports/basketball/wnba';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
export async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
