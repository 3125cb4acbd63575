import { isObject } from '../src/core/is-object.js';

/** A player as the summary's box score lists him or her. */
export interface RosterEntry {
  teamId: string;
  name: string | null;
  jersey: string | null;
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;

/**
 * The players of a raw summary's box score (`boxscore.players[].statistics[].athletes[]`), by
 * athlete id: the names and numbers the foul-trouble graphics show. The plays name players by id
 * only. A summary without a box score (before tip-off, some feeds) gives an empty map.
 */
export function readRoster(summary: unknown): Map<string, RosterEntry> {
  const out = new Map<string, RosterEntry>();
  const box = isObject(summary) ? summary.boxscore : undefined;
  if (!isObject(box)) return out;
  for (const team of list(box.players)) {
    if (!isObject(team)) continue;
    const teamId = isObject(team.team) ? text(team.team.id) : null;
    if (teamId === null) continue;
    for (const group of list(team.statistics)) {
      if (!isObject(group)) continue;
      for (const entry of list(group.athletes)) {
        const athlete = isObject(entry) ? entry.athlete : undefined;
        if (!isObject(athlete)) continue;
        const id = text(athlete.id);
        if (id === null || out.has(id)) continue;
        out.set(id, {
          teamId,
          name: text(athlete.displayName) ?? text(athlete.shortName),
          jersey: text(athlete.jersey),
        });
      }
    }
  }
  return out;
}
