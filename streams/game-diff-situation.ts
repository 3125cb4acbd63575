import type { GameSituation, PlayRow, TeamRef } from '../src/model/events.js';
import type { eventIds } from './event-ids.js';
import { draft } from './game-diff-draft.js';
import type { GameDiffState, GameMeta } from './diff-state.js';
import type { PlayRecord } from './play-diff.js';
import type { DraftEvent } from './poll-order.js';
import { computeSituation, emptySituation, isNews, situationChanges } from './situation.js';
import { readRoster } from './situation-roster.js';
import { isFinal, type SummaryHeader } from './summary-header.js';

/**
 * A summary diff's situation (fouls, bonus, timeouts): recomputed from the whole play list, so a
 * foul corrected or removed upstream corrects it. Reported when a team's part changed. The one
 * before is the snapshot's (null in the first poll and in states stored before the situation
 * existed).
 */
export function diffSituation(
  state: GameDiffState,
  next: GameMeta,
  input: {
    readonly h: SummaryHeader;
    readonly raw: unknown;
    readonly ids: ReturnType<typeof eventIds>;
    readonly teams: { home: TeamRef; away: TeamRef };
    readonly order: readonly string[];
    readonly records: ReadonlyMap<string, PlayRecord>;
    readonly startedTo: number;
  },
): { situation: GameSituation; event: DraftEvent | null } {
  const { h, teams } = input;
  const meta = state.meta;
  const final = isFinal(h);
  const before = meta.snapshot?.situation ?? null;
  const situationPeriod = Math.max(h.period ?? 0, input.startedTo);
  const situation = computeSituation({
    league: state.league,
    teams,
    plays: rowsInOrder(input.order, input.records, state.plays.records),
    period: situationPeriod > 0 ? situationPeriod : null,
    // The header's clock tells the time of its own period only; a final's last period is over.
    clock: final ? '0.0' : h.period === situationPeriod ? h.clock : null,
    roster: readRoster(input.raw),
    previous: before,
  });
  const changed = situationChanges(before ?? emptySituation(state.league, teams), situation);
  if (!isNews(changed)) return { situation, event: null };
  next.situationChanges = meta.situationChanges + 1;
  const event = draft('situation.changed', input.ids.situationChanged(next.situationChanges), {
    situation,
    previous: before,
    changed,
  });
  return { situation, event };
}

/**
 * The rows of the play list in order: this poll's records over the stored ones. A plain loop over
 * the two maps: it runs for the whole list on every poll (the situation's recount), where a
 * generator and a lookup closure per play cost more than the recount itself.
 */
function rowsInOrder(
  order: readonly string[],
  fresh: ReadonlyMap<string, PlayRecord>,
  stored: ReadonlyMap<string, PlayRecord>,
): PlayRow[] {
  const rows: PlayRow[] = [];
  for (const id of order) {
    const row = (fresh.get(id) ?? stored.get(id))?.row;
    if (row) rows.push(row);
  }
  return rows;
}
