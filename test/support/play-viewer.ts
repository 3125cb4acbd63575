import WebSocket from 'ws';
import type { GameEvent } from '../../src/model/events.js';

/** A WebSocket viewer that notes every event of every game and when each play came. */

export interface Viewer {
  readonly events: GameEvent[];
  /** Receipt time of each play's first `play.added`, by game id then play id. */
  readonly received: Map<string, Map<string, number>>;
  /** Receipt time of each game's first event: from then on the daemon follows it. */
  readonly firstSeen: Map<string, number>;
  /** Events of one game, in the order they came. */
  of(gameId: string): GameEvent[];
  close(): void;
}

/** A WebSocket viewer of every game on the daemon at `url`, from the start of its log. */
export function watch(url: string): Promise<Viewer> {
  const events: GameEvent[] = [];
  const received = new Map<string, Map<string, number>>();
  const firstSeen = new Map<string, number>();
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`);
  ws.on('message', (data) => {
    const at = Date.now();
    const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
    const e = frame.event;
    if (frame.type !== 'event' || !e) return;
    events.push(e);
    if (!firstSeen.has(e.gameId)) firstSeen.set(e.gameId, at);
    if (e.type !== 'play.added' || e.data.play.id === null) return;
    const game = received.get(e.gameId) ?? new Map<string, number>();
    received.set(e.gameId, game);
    if (!game.has(e.data.play.id)) game.set(e.data.play.id, at);
  });
  const viewer: Viewer = {
    events,
    received,
    firstSeen,
    of: (gameId) => events.filter((e) => e.gameId === gameId),
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' }));
      resolve(viewer);
    });
  });
}

/** Every play of the game and its end reached the viewer. */
export function gameDone(viewer: Viewer, gameId: string, plays: number): boolean {
  return (
    (viewer.received.get(gameId)?.size ?? 0) >= plays &&
    viewer.events.some((e) => e.gameId === gameId && e.type === 'game.ended')
  );
}

/**
 * Publication → viewer delay (ms) of every play of `gameId` published once the viewer had the
 * game's first event (before that the daemon was starting or had not found the game), by play id:
 * from when the look-alike published the version that first held it to its `play.added`. Plays
 * never received are absent.
 */
export function delays(
  viewer: Viewer,
  gameId: string,
  publishedAt: ReadonlyMap<string, number>,
): Map<string, number> {
  const from = viewer.firstSeen.get(gameId) ?? Infinity;
  const out = new Map<string, number>();
  for (const [id, at] of viewer.received.get(gameId) ?? []) {
    const published = publishedAt.get(id);
    if (published !== undefined && published >= from) out.set(id, at - published);
  }
  return out;
}

export const quantile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN);
};

/** What the viewer saw of one game that a correct stream never shows: removals, updates, repeats. */
export function anomalies(events: readonly GameEvent[]): string[] {
  const out: string[] = [];
  const ids = new Set<string>();
  const plays = new Set<string>();
  for (const e of events) {
    if (ids.has(e.id)) out.push(`event ${e.id} repeated`);
    ids.add(e.id);
    if (e.type === 'play.removed') out.push(`play ${e.data.playId} removed`);
    if (e.type === 'play.updated') out.push(`play ${String(e.data.play.id)} updated`);
    if (e.type === 'play.added') {
      const id = String(e.data.play.id);
      if (plays.has(id)) out.push(`play ${id} added twice`);
      plays.add(id);
    }
  }
  return out;
}
