import { isObject } from '../src/core/is-object.js';
import { rawPlayId } from './play-fingerprint.js';
import { compareProgress, readSummaryHeader } from './summary-header.js';

/**
 * A polled summary against the newer document push delivered. The site API is served through a
 * CDN that can lag FastCast by seconds: a polled summary older than the push document must not
 * take back what push delivered. So:
 * - a summary at least as new as the push document (its status is not behind, it has as many
 *   plays at least, and the push document's last one) is the truth, removals included;
 * - an older one only adds what push lacks: plays it has that the push document does not (a play
 *   entered late that a lost patch carried), each after the play before it in the summary's
 *   order. Header, scores and the rest stay the push document's.
 */

export interface Reconciled {
  /** The summary to diff. */
  readonly doc: unknown;
  /** The polled summary was at least as new: the push document it replaces is no longer needed. */
  readonly pollWins: boolean;
  /** Plays the polled summary added to the push document. */
  readonly added: number;
}

export function reconcileSummary(pushDoc: unknown, polled: unknown, where: string): Reconciled {
  if (!isObject(pushDoc) || !isObject(polled)) return { doc: polled, pollWins: true, added: 0 };
  const pushPlays = Array.isArray(pushDoc.plays) ? (pushDoc.plays as unknown[]) : [];
  const polledPlays = Array.isArray(polled.plays) ? (polled.plays as unknown[]) : [];
  const newest = rawPlayId(pushPlays[pushPlays.length - 1]);
  const polledIds = new Set(polledPlays.map(rawPlayId));
  let pushHeader;
  try {
    pushHeader = readSummaryHeader(pushDoc, where);
  } catch {
    // A push document whose header does not read is no reference for anything: the poll is the truth.
    return { doc: polled, pollWins: true, added: 0 };
  }
  const progress = compareProgress(readSummaryHeader(polled, where), pushHeader);
  const asNew =
    progress >= 0 && polledPlays.length >= pushPlays.length && (newest === null || polledIds.has(newest));
  if (asNew) return { doc: polled, pollWins: true, added: 0 };

  // Ids already in the document, or already queued: a summary listing a play twice adds it once
  // (and a play queued after itself would be placed forever).
  const known = new Set(pushPlays.map(rawPlayId));
  const missing = new Map<string | null, unknown[]>();
  let before: string | null = null;
  let added = 0;
  for (const p of polledPlays) {
    const id = rawPlayId(p);
    if (id === null) continue;
    if (!known.has(id)) {
      known.add(id);
      const after = missing.get(before);
      if (after) after.push(p);
      else missing.set(before, [p]);
      added++;
    }
    before = id;
  }
  if (added === 0) return { doc: pushDoc, pollWins: false, added };
  // Each missing play goes after the play before it in the summary; a run of missing plays stays
  // in its order; one whose predecessor is missing too follows it.
  const plays: unknown[] = [];
  const place = (id: string | null): void => {
    for (const p of missing.get(id) ?? []) {
      plays.push(p);
      place(rawPlayId(p));
    }
  };
  place(null);
  for (const p of pushPlays) {
    plays.push(p);
    place(rawPlayId(p));
  }
  return { doc: { ...pushDoc, plays }, pollWins: false, added };
}
