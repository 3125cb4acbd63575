/** A player as the summary's box score lists him or her. */
export interface RosterEntry {
  teamId: string;
  name: string | null;
  jersey: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
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
  const box = isObj(summary) ? summary.boxscore : undefined;
  if (!isObj(box)) return out;
  for (const team of list(box.players)) {
    if (!isObj(team)) continue;
    const teamId = isObj(team.team) ? text(team.team.id) : null;
    if (teamId === null) continue;
    for (const group of list(team.statistics)) {
      if (!isObj(group)) continue;
      for (const entry of list(group.athletes)) {
        const athlete = isObj(entry) ? entry.athlete : undefined;
        if (!isObj(athlete)) continue;
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
