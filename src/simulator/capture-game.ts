import fjp from 'fast-json-patch';
import { isEndOfPeriod, readSummaryHeader } from '../../streams/summary-header.js';
import { InvalidOptionsError } from '../core/errors.js';
import type { Capture } from '../espn/fastcast-capture.js';
import { decodePatchPayload, type PatchOperation } from '../espn/fastcast-wire.js';
import { arr, obj } from '../tables/cells.js';
import type { JsonObject } from './espn-shapes.js';
import { clockSeconds } from './game-status.js';
import { buildScoreboardEvent } from './scoreboard.js';
import type { CaptureClock } from './capture-timeline.js';
import type { GameView, SimulatedGame } from './simulated-game.js';

/**
 * The game of a FastCast capture, for the site API's side of `--push-replay`: its summary at a
 * moment is the document the captured frames make by then (the checkpoint, with every patch
 * received after it applied), and its scoreboard entry follows that document's header. Patches
 * are applied leniently here (an operation that fails is skipped) since this only stands in for
 * the site summary; the client under test meets the frames themselves.
 */

export interface CaptureGameOptions {
  /** Clock time (ms) the replay started: the game is listed under this day. */
  readonly startAt: number;
  readonly speed: number;
  /** Where the capture stands at a clock time (shared with the replayed topic). */
  readonly clock: CaptureClock;
}

/** One change of the document: a new checkpoint (JSON text) or operations to apply. */
interface Step {
  readonly t: number;
  readonly replace?: string;
  readonly ops?: readonly PatchOperation[];
}

// A snapshot of the whole document every so many steps bounds both the memory (one text per
// snapshot, not per step) and the work of answering an earlier moment than the last one asked.
const SNAPSHOT_EVERY = 25;

type Message = { op?: unknown; tc?: unknown; pl?: unknown; mid?: unknown };

/** A checkpoint wrapped as `{"pl": document}` (seen for other topic kinds) is unwrapped. */
function unwrap(body: unknown): unknown {
  const b = obj(body);
  return b.header === undefined && typeof b.pl === 'object' && b.pl !== null ? b.pl : body;
}

function stepsOf(capture: Capture): Step[] {
  const { topic } = capture.header;
  const steps: Step[] = [];
  let loading: string | undefined;
  let held: PatchOperation[] = [];
  let haveDoc = false;
  const messages = (text: string): Message[] => {
    try {
      const v = JSON.parse(text) as unknown;
      return (Array.isArray(v) ? v : [v]).filter((m): m is Message => typeof m === 'object' && m !== null);
    } catch {
      return [];
    }
  };
  for (const entry of capture.entries) {
    if (entry.kind === 'summary' && !haveDoc) {
      steps.push({ t: entry.t, replace: JSON.stringify(entry.body) });
      haveDoc = true;
    } else if (entry.kind === 'checkpoint' && entry.url === loading) {
      loading = undefined;
      if (entry.error === undefined) {
        steps.push({ t: entry.t, replace: JSON.stringify(unwrap(entry.body)), ops: held });
        haveDoc = true;
      }
      held = [];
    } else if (entry.kind === 'received') {
      for (const m of messages(entry.frame)) {
        if (m.tc !== topic) continue;
        if (m.op === 'H' && typeof m.pl === 'string') {
          loading = m.pl;
          held = [];
        } else if ((m.op === 'R' || m.op === 'P') && typeof m.pl === 'string') {
          let ops: readonly PatchOperation[];
          try {
            ops = decodePatchPayload(m.pl, topic).patch;
          } catch {
            continue;
          }
          if (loading !== undefined) held.push(...ops);
          else if (haveDoc) steps.push({ t: entry.t, ops });
        }
      }
    }
  }
  return steps;
}

function applyStep(doc: unknown, step: Step): unknown {
  let next = step.replace !== undefined ? (JSON.parse(step.replace) as unknown) : doc;
  for (const op of step.ops ?? []) {
    try {
      next = fjp.applyOperation(next, op as fjp.Operation, false, true).newDocument;
    } catch {
      // Skipped: see the module's comment.
    }
  }
  return next;
}

export function createCaptureGame(capture: Capture, options: CaptureGameOptions): SimulatedGame {
  const { league, game: id } = capture.header;
  const steps = stepsOf(capture);
  if (steps.length === 0)
    throw new InvalidOptionsError(
      `pushReplay: the capture of ${capture.header.topic} holds no document (no site summary, no checkpoint downloaded); expected a capture that got at least one`,
    );
  const speed = options.speed > 0 ? options.speed : 1;
  const snapshots: string[] = [];
  let doc: unknown;
  steps.forEach((step, i) => {
    doc = applyStep(doc, step);
    if (i % SNAPSHOT_EVERY === 0) snapshots.push(JSON.stringify(doc));
  });
  const final = obj(doc);
  // The replay lasts as long as the capture did.
  const lastT = capture.entries[capture.entries.length - 1]?.t ?? 0;
  // The document last asked for, by step, kept to move forward from.
  let current: { step: number; doc: unknown; text?: string } | undefined;

  const stepAt = (now: number): number => {
    const t = options.clock.at(now);
    let lo = 0;
    let hi = steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((steps[mid] as Step).t <= t) lo = mid + 1;
      else hi = mid;
    }
    // Before the first document was captured, the first one stands.
    return Math.max(0, lo - 1);
  };

  const at = (now: number): { step: number; doc: unknown; text?: string } => {
    const k = stepAt(now);
    if (current?.step === k) return current;
    const snap = Math.floor(k / SNAPSHOT_EVERY);
    let from = current && current.step < k && current.step >= snap * SNAPSHOT_EVERY ? current : undefined;
    if (!from) from = { step: snap * SNAPSHOT_EVERY, doc: JSON.parse(snapshots[snap] as string) as unknown };
    let d = from.doc;
    for (let i = from.step + 1; i <= k; i++) d = applyStep(d, steps[i] as Step);
    current = { step: k, doc: d };
    return current;
  };

  const summaryText = (now: number): string => {
    const c = at(now);
    c.text ??= JSON.stringify(c.doc);
    return c.text;
  };

  const view = (now: number): GameView => viewOf(obj(at(now).doc), arr(final.plays).length);

  return {
    league,
    id,
    synthetic: false,
    final,
    startAt: options.startAt,
    endAt: options.startAt + lastT / speed,
    state: view,
    summary: (now) => JSON.parse(summaryText(now)) as JsonObject,
    summaryText,
    scoreboardEvent: (now) => {
      const d = obj(at(now).doc);
      return buildScoreboardEvent(league, d, viewOf(d, arr(final.plays).length), () => linescoresOf(d));
    },
    // A capture is replayed as recorded: the stat-crew faults change nothing in it.
    correctPlay: () => undefined,
    removePlay: () => undefined,
    insertPlay: () => undefined,
    rescorePlay: () => undefined,
  };
}

function viewOf(doc: JsonObject, totalPlays: number): GameView {
  const revealed = arr(doc.plays).length;
  try {
    const h = readSummaryHeader(doc, 'capture');
    const displayClock = h.clock ?? '0.0';
    return {
      state: h.state,
      period: h.period ?? 0,
      displayClock,
      clock: clockSeconds(displayClock),
      endOfPeriod: isEndOfPeriod(h),
      homeScore: h.home.score ?? 0,
      awayScore: h.away.score ?? 0,
      revealed,
      totalPlays,
    };
  } catch {
    // A document without a readable header: listed as not started rather than not at all.
    const none = { period: 0, displayClock: '0.0', clock: 0, endOfPeriod: false, homeScore: 0, awayScore: 0 };
    return { state: 'pre', ...none, revealed, totalPlays };
  }
}

function competitorsOf(doc: JsonObject): JsonObject[] {
  return arr(obj(arr(obj(doc.header).competitions)[0]).competitors).map(obj);
}

function linescoresOf(doc: JsonObject): { home: number[]; away: number[] } {
  const lines = (side: string): number[] =>
    arr(competitorsOf(doc).find((c) => c.homeAway === side)?.linescores).map((l) =>
      Number(obj(l).displayValue ?? obj(l).value ?? 0),
    );
  return { home: lines('home'), away: lines('away') };
}
