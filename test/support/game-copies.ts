import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlayRow } from '../../src/model/events.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { parsePlays } from '../../src/tables/index.js';
import { finishedSummaries, type FixtureFile } from './fixtures.js';
import { gameDone, type Viewer } from './play-viewer.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

/**
 * Copies of one held-out recorded final under new game ids, replayed together by a simulator with
 * push off: what the checks of push against FastCast's oddities follow (push-lookalike-oddities.test.ts,
 * push-bomb.test.ts, bench/push-oddities.ts).
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
