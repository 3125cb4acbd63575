import fjp from 'fast-json-patch';
import type { PatchOperation } from '../espn/fastcast-wire.js';
import type { SimulatedGame } from './simulated-game.js';

/**
 * One game's FastCast document over time: the summary as the game stands now (push is ahead of
 * the site API's CDN), the RFC 6902 patch from each version to the next, and checkpoints. A
 * checkpoint is the whole document at one moment; a subscriber gets the latest one and then the
 * patches published since (`R` frames), as FastCast serves them.
 */
export interface FeedPatch {
  readonly patch: readonly PatchOperation[];
  /** Publication time, ms. */
  readonly ts: number;
}

export interface Checkpoint {
  readonly id: number;
  readonly text: string;
}

export interface GameFeed {
  readonly game: SimulatedGame;
  /** Moves the document to `now`; the patch when it changed, else undefined. */
  advance(now: number): FeedPatch | undefined;
  /** The latest checkpoint and the patches published since it. */
  latest(): { checkpoint: Checkpoint; since: readonly FeedPatch[] };
  /** A checkpoint kept for download (the latest few), by id. */
  checkpoint(id: number): Checkpoint | undefined;
}

// A checkpoint every so many patches, so that a late subscriber catches up with a few R frames.
const CHECKPOINT_EVERY = 8;
// Checkpoints kept for download: a subscriber that got an H frame just before a new checkpoint
// still finds the one it was given.
const CHECKPOINTS_KEPT = 4;

export function createGameFeed(game: SimulatedGame, now: number): GameFeed {
  let text = game.summaryText(now);
  let doc: unknown = JSON.parse(text);
  let nextId = 1;
  const kept: Checkpoint[] = [{ id: nextId++, text }];
  let since: FeedPatch[] = [];

  return {
    game,
    advance(at) {
      const next = game.summaryText(at);
      if (next === text) return undefined;
      const nextDoc: unknown = JSON.parse(next);
      const changes = fjp.compare(doc as object, nextDoc as object) as PatchOperation[];
      text = next;
      doc = nextDoc;
      if (changes.length === 0) return undefined;
      // A `test` first, as a publisher guarding against applying to the wrong document would: a
      // client applying it to another game's document fails the whole patch.
      const id = (nextDoc as { header?: { id?: unknown } }).header?.id;
      const patch: PatchOperation[] =
        id === undefined ? changes : [{ op: 'test', path: '/header/id', value: id }, ...changes];
      const published: FeedPatch = { patch, ts: at };
      since.push(published);
      if (since.length >= CHECKPOINT_EVERY) {
        kept.push({ id: nextId++, text });
        if (kept.length > CHECKPOINTS_KEPT) kept.shift();
        since = [];
      }
      return published;
    },
    latest: () => ({ checkpoint: kept[kept.length - 1] as Checkpoint, since: [...since] }),
    checkpoint: (id) => kept.find((c) => c.id === id),
  };
}
