import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { GameEvent, PlayRow } from '../../src/model/events.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { parsePlays } from '../../src/tables/index.js';
import { finishedSummaries, type FixtureFile } from '../support/fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

/**
 * What the checks of push against FastCast's oddities share (push-oddities.test.ts,
 * push-bomb.test.ts, bench/push-oddities.ts): copies of one held-out recorded game, a simulator
 * with push off that replays them, and a viewer that notes every event and when each play came.
 */

/**
 * The held-out game: a recorded final that neither the demo nor any other test replays, so that
 * nothing in the client was ever tuned to it (COURTSIDE_ODDITIES_GAME picks another by qualifier).
 */
export function heldOutGame(): FixtureFile | undefined {
  const finals = finishedSummaries();
  return (
    finals.find(
      (f) => f.qualifier === (process.env.COURTSIDE_ODDITIES_GAME ?? '401772994_final__roundtrip'),
    ) ?? finals.find((f) => f.qualifier.startsWith('401772994_final'))
  );
}

export interface GameCopies {
  readonly sim: RunningUpstream;
  /** Each copy's game id, by the name it was asked under. */
  readonly ids: Readonly<Record<string, string>>;
  /** The plays each copy ends with, by game id. */
  readonly expected: ReadonlyMap<string, PlayRow[]>;
  close(): Promise<void>;
}

/**
 * The recorded final under one new game id per name (every occurrence of its id rewritten, so its
 * play ids stay consistent), written to a temporary folder and replayed by a simulator with push
 * off, all starting together. The recording stays outside the repository.
 */
export async function replayCopies(
  file: FixtureFile,
  names: readonly string[],
  speed: number,
): Promise<GameCopies> {
  const text = await readFile(file.file, 'utf8');
  const original = String((JSON.parse(text) as any).header.id);
  const dir = await mkdtemp(join(tmpdir(), 'courtside-copies-'));
  const ids: Record<string, string> = {};
  const expected = new Map<string, PlayRow[]>();
  const files: string[] = [];
  for (const [i, name] of names.entries()) {
    // Same length and prefix as the original: play ids keep their order.
    const id = `${original.slice(0, -2)}${10 + i}`;
    const copy = text.replaceAll(original, id);
    const path = join(dir, `summary__${id}_final.json`);
    await writeFile(path, copy);
    ids[name] = id;
    expected.set(id, parsePlays(JSON.parse(copy) as Record<string, any>));
    files.push(path);
  }
  const sim = await startUpstream({ replay: files, speed, push: false });
  return {
    sim,
    ids,
    expected,
    async close() {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

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

/**
 * Waits until every copy ended at the viewer with all its plays, or until the site summary of the
 * last one to end has shown its end for `graceMs` (a copy that never completes fails its checks),
 * then `settleMs` more: reconciliations after the end would show anything they take back or repeat.
 */
export async function awaitCopies(
  viewer: Viewer,
  copies: GameCopies,
  cdnLagMs: number,
  graceMs = 10_000,
  settleMs = cdnLagMs + 2_000,
): Promise<void> {
  const ids = Object.values(copies.ids);
  const deadline = Math.max(...copies.sim.games.map((g) => g.endAt)) + cdnLagMs + graceMs;
  while (Date.now() < deadline && !ids.every((id) => gameDone(viewer, id, copies.expected.get(id)!.length)))
    await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, settleMs));
}
