import { readFileSync } from 'node:fs';
import { InvalidOptionsError } from '../core/errors.js';
import { arr, isObject, obj } from '../tables/cells.js';
import type { JsonObject } from './espn-shapes.js';

/**
 * A summary given to `replay` (`courtside demo --replay`, `courtside upstream --replay`), read and
 * checked. A replay plays a game out from its tip-off to its final from the plays of its finished
 * summary: a summary saved while the game was still on (or before it began) has only part of the
 * plays and no final score, so the replay would end the game where the recording stopped, with a
 * score that never was final. Such a file is refused, saying what it holds and what to do.
 */
export function readReplaySummary(file: string): JsonObject {
  let summary: unknown;
  try {
    summary = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InvalidOptionsError(`replay: cannot read a summary from ${file}: ${(error as Error).message}`);
  }
  if (!isObject(summary) || !Array.isArray(summary.plays))
    throw new InvalidOptionsError(`replay: ${file} is not a finished summary (no plays)`);
  const competition = obj(arr(obj(summary.header).competitions)[0]);
  const type = obj(obj(competition.status).type);
  // A summary that says nothing of its status (hand-made, or an older shape) is taken as finished.
  if (type.state !== undefined && (type.state !== 'post' || type.completed === false)) {
    const detail = typeof type.detail === 'string' ? type.detail : String(type.state);
    throw new InvalidOptionsError(
      `replay: ${file} is the summary of a game not finished yet (its status: ${detail}); a replay needs a finished game's summary: save it again once the game is final`,
    );
  }
  return summary;
}
