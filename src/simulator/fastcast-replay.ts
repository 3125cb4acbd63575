import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import type { CaptureClock, Timeline, TimelineItem } from './capture-timeline.js';

/**
 * The simulator's FastCast for a captured topic (`--push-replay`): the capture's frames are
 * published again at their recorded pace (times `speed`), from the first subscription on (see
 * `CaptureClock`), their text unchanged but for the checkpoint URL, which points at the simulator. A subscriber gets what a
 * subscriber got: the recorded answer to `S`, then the latest checkpoint published by then and the
 * catch-up frames that followed it in the capture, then every later frame as its moment comes.
 * A subscriber that subscribes again (after a gap, a patch that failed) is given the next
 * checkpoint the recorder was given after such a resubscription, when the capture has one, so a
 * daemon resyncing where the recorder did meets the same frames.
 */
export interface PushReplayService {
  /** Whether `topic` is replayed: the simulator's own FastCast leaves it alone. */
  claims(topic: string): boolean;
  /** Answers a replayed checkpoint's download; false for any other request. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Takes the replayed topics' subscriptions on this socket. */
  attach(ws: WebSocket): void;
  /** Starts publishing; `base` is the simulator's URL. */
  start(base: () => string): void;
  close(): void;
}

export interface ReplayedTopic {
  readonly timeline: Timeline;
  readonly clock: CaptureClock;
}

export interface PushReplayDeps {
  readonly topics: readonly ReplayedTopic[];
  readonly clock: { now(): number };
  /** How often frames that came due are sent, ms; default 20. */
  readonly tickMs?: number;
}

const CHECKPOINT_PATH = /^\/FastcastService\/replay\/([a-z0-9-]+)\/([0-9]+)\.json$/;

/** One socket's subscription to a replayed topic. */
interface Follower {
  readonly timeline: Timeline;
  /** Index of the next item to look at. */
  cursor: number;
  /** The `R` frames right after the checkpoint it started from are its catch-up, and sent. */
  catchUp: boolean;
  /** Index of the checkpoint it waits for, when none was due yet. */
  waiting: number | undefined;
}

export function createPushReplay(deps: PushReplayDeps): PushReplayService {
  const byTopic = new Map(deps.topics.map((t) => [t.timeline.topic, t.timeline]));
  const clocks = new Map(deps.topics.map((t) => [t.timeline.topic, t.clock]));
  const sockets = new Map<WebSocket, Map<string, Follower>>();
  let base = (): string => '';
  let timer: NodeJS.Timeout | undefined;

  const elapsed = (topic: string): number => clocks.get(topic)?.at(deps.clock.now()) ?? 0;

  const send = (ws: WebSocket, text: string): void => {
    if (ws.readyState === ws.OPEN) ws.send(text);
  };

  /** The `H` frame as recorded, its URL replaced by the simulator's copy of the checkpoint. */
  const checkpointFrame = (timeline: Timeline, item: TimelineItem & { kind: 'checkpoint' }): string => {
    const frame = JSON.parse(item.text) as Record<string, unknown>;
    frame.pl = `${base()}/FastcastService/replay/${timeline.topic}/${item.index}.json`;
    return JSON.stringify(frame);
  };

  const startAt = (ws: WebSocket, f: Follower, index: number): void => {
    const item = f.timeline.items[index];
    if (item?.kind !== 'checkpoint') return;
    send(ws, checkpointFrame(f.timeline, item));
    f.cursor = index + 1;
    f.catchUp = true;
    f.waiting = undefined;
  };

  /** Sends what came due since the follower's cursor. */
  const pump = (ws: WebSocket, f: Follower, now: number): void => {
    if (f.waiting !== undefined) {
      if ((f.timeline.items[f.waiting]?.t ?? Infinity) > now) return;
      startAt(ws, f, f.waiting);
    }
    const { items } = f.timeline;
    while (f.cursor < items.length && (items[f.cursor] as TimelineItem).t <= now) {
      const item = items[f.cursor++] as TimelineItem;
      if (item.kind === 'answer') continue;
      if (item.kind === 'checkpoint') {
        // One answering the recorder's own resubscription is not this subscriber's to get.
        if (!item.answer) send(ws, checkpointFrame(f.timeline, item));
        f.catchUp = false;
        continue;
      }
      if (item.op === 'R') {
        if (f.catchUp) send(ws, item.text);
        continue;
      }
      send(ws, item.text);
      if (item.op !== 'I') f.catchUp = false;
    }
  };

  const subscribe = (ws: WebSocket, timeline: Timeline): void => {
    const followers = sockets.get(ws);
    if (!followers) return;
    clocks.get(timeline.topic)?.subscribed();
    const now = elapsed(timeline.topic);
    const answers = timeline.items.filter((i) => i.kind === 'answer');
    const answer = answers.filter((a) => a.t <= now).pop() ?? answers[0];
    send(ws, answer?.text ?? JSON.stringify({ op: 'S', rc: 200, tc: timeline.topic }));
    const from = followers.get(timeline.topic)?.cursor ?? 0;
    if (answer?.rc !== undefined && answer.rc !== 200) {
      followers.delete(timeline.topic);
      return;
    }
    const f: Follower = { timeline, cursor: from, catchUp: false, waiting: undefined };
    followers.set(timeline.topic, f);
    const start = startingCheckpoint(timeline, from, now);
    if (!start) return;
    if (start.due) startAt(ws, f, start.index);
    else f.waiting = start.index;
    pump(ws, f, now);
  };

  return {
    claims: (topic) => byTopic.has(topic),
    handle(req, res) {
      const m = CHECKPOINT_PATH.exec((req.url ?? '/').split('?')[0] ?? '/');
      const timeline = m ? byTopic.get(m[1] ?? '') : undefined;
      if (!m || !timeline) return false;
      const body = timeline.checkpoints[Number(m[2])]?.body;
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(
        body ?? JSON.stringify({ code: 404, message: 'this checkpoint was not downloaded in the capture' }),
      );
      return true;
    },
    attach(ws) {
      sockets.set(ws, new Map());
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data) => {
        let frame: { op?: unknown; tc?: unknown };
        try {
          frame = JSON.parse(String(data)) as typeof frame;
        } catch {
          return;
        }
        const timeline = typeof frame.tc === 'string' ? byTopic.get(frame.tc) : undefined;
        if (!timeline) return;
        if (frame.op === 'S') subscribe(ws, timeline);
        else if (frame.op === 'U') sockets.get(ws)?.delete(timeline.topic);
      });
    },
    start(baseUrl) {
      base = baseUrl;
      timer = setInterval(() => {
        for (const [ws, followers] of sockets)
          for (const f of followers.values()) pump(ws, f, elapsed(f.timeline.topic));
      }, deps.tickMs ?? 20);
      timer.unref();
    },
    close() {
      if (timer) clearInterval(timer);
      sockets.clear();
    },
  };
}

/**
 * The checkpoint a subscription made at `now` starts from (due) or waits for, looking from item
 * `from` on: the latest one published by then, else the next one the capture has (the answer to
 * the recorder's own resubscription, when the subscriber resubscribes), else the latest there is.
 */
function startingCheckpoint(
  timeline: Timeline,
  from: number,
  now: number,
): { index: number; due: boolean } | undefined {
  const indexes = timeline.items.flatMap((item, i) => (item.kind === 'checkpoint' ? [i] : []));
  const due = (i: number): boolean => (timeline.items[i] as TimelineItem).t <= now;
  const latestDue = indexes.filter((i) => i >= from && due(i)).pop();
  if (latestDue !== undefined) return { index: latestDue, due: true };
  const next = indexes.find((i) => i >= from);
  if (next !== undefined) return { index: next, due: false };
  // Nothing recorded past here: the latest checkpoint there is.
  const latest = indexes.filter(due).pop();
  return latest === undefined ? undefined : { index: latest, due: true };
}
