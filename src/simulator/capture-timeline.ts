import type { Capture } from '../espn/fastcast-capture.js';

/**
 * A capture's topic as a publisher's timeline (what `--push-replay` serves): the answers to
 * subscriptions, the checkpoints (`H` frames and the bodies downloaded for them) and every other
 * frame of the topic, in the order and at the moments they were received, their text unchanged.
 * Frames of other topics, `C` answers and `B` keep-alives are left out (the replaying socket
 * answers and keeps itself alive); a frame that is not a JSON object of another topic (an `M`, a
 * list of messages, garbage) is kept, since it may be the very thing the capture is about.
 */

export type TimelineItem =
  | { readonly kind: 'answer'; readonly t: number; readonly text: string; readonly rc: number | undefined }
  | {
      readonly kind: 'checkpoint';
      readonly t: number;
      readonly text: string;
      /** Its number among the capture's checkpoints: the replay serves its body under it. */
      readonly index: number;
      /** It answered a subscription the recorder sent (else it was announced unasked). */
      readonly answer: boolean;
    }
  | { readonly kind: 'frame'; readonly t: number; readonly text: string; readonly op: string };

export interface TimelineCheckpoint {
  readonly url: string;
  /** The body as downloaded (JSON text), or undefined when the download failed or never ended. */
  body?: string;
}

export interface Timeline {
  readonly topic: string;
  readonly items: readonly TimelineItem[];
  readonly checkpoints: readonly TimelineCheckpoint[];
}

type Message = { op?: unknown; tc?: unknown; rc?: unknown; pl?: unknown };

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const isMessage = (v: unknown): v is Message => typeof v === 'object' && v !== null && !Array.isArray(v);

export function captureTimeline(capture: Capture): Timeline {
  const { topic } = capture.header;
  const items: TimelineItem[] = [];
  const checkpoints: TimelineCheckpoint[] = [];
  // Whether the recorder subscribed since the last checkpoint: the next H answers it.
  let subscribed = false;
  for (const entry of capture.entries) {
    if (entry.kind === 'sent') {
      const m = parse(entry.frame);
      if (isMessage(m) && m.op === 'S' && m.tc === topic) subscribed = true;
      continue;
    }
    if (entry.kind === 'checkpoint') {
      // The latest announcement of this URL still waiting for its body.
      const waiting = [...checkpoints].reverse().find((c) => c.url === entry.url && c.body === undefined);
      if (waiting && entry.error === undefined) waiting.body = JSON.stringify(entry.body);
      continue;
    }
    if (entry.kind !== 'received') continue;
    const { t, frame: text } = entry;
    const m = parse(text);
    if (Array.isArray(m)) {
      const mine = m.some((x) => !isMessage(x) || x.tc === undefined || x.tc === topic);
      if (mine) items.push({ kind: 'frame', t, text, op: 'list' });
      continue;
    }
    if (!isMessage(m)) {
      items.push({ kind: 'frame', t, text, op: 'garbage' });
      continue;
    }
    const op = typeof m.op === 'string' ? m.op : '';
    if (op === 'C' || op === 'B' || (m.tc !== undefined && m.tc !== topic)) continue;
    if (op === 'S') {
      items.push({ kind: 'answer', t, text, rc: typeof m.rc === 'number' ? m.rc : undefined });
    } else if (op === 'H' && typeof m.pl === 'string') {
      items.push({ kind: 'checkpoint', t, text, index: checkpoints.length, answer: subscribed });
      checkpoints.push({ url: m.pl });
      subscribed = false;
    } else {
      items.push({ kind: 'frame', t, text, op });
    }
  }
  return { topic, items, checkpoints };
}

/**
 * Where a replayed capture stands, in capture ms. Its time 0 is placed when the first subscription
 * to its topic arrives, so that this subscription meets the capture at the moment the recorder's
 * own did (its first `S` sent), and the replaying daemon gets the very frames, batches and pace
 * the recorder got. Until then the capture stands at that moment.
 */
export interface CaptureClock {
  /** Capture time at clock time `now` (the site API may ask for an earlier moment than now). */
  at(now: number): number;
  /** A subscription to the topic arrived now; the first one starts the capture. */
  subscribed(): void;
}

export function createCaptureClock(capture: Capture, clock: { now(): number }, speed: number): CaptureClock {
  const { topic } = capture.header;
  const first = capture.entries.find((e) => {
    if (e.kind !== 'sent') return false;
    const m = parse(e.frame);
    return isMessage(m) && m.op === 'S' && m.tc === topic;
  });
  const origin = first?.t ?? 0;
  let zero: number | undefined;
  return {
    at: (now) => (zero === undefined ? origin : Math.max(0, (now - zero) * speed)),
    subscribed() {
      zero ??= clock.now() - origin / speed;
    },
  };
}
