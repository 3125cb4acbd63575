import { compareOffsets, type Offset } from '../../bus/types.js';
import { whileBusUnavailable } from './bus-retry.js';
import { errorFrame } from './frames.js';
import { replay, resumeGap, type ActivateContext } from './replay.js';
import { queueSnapshots } from './snapshots.js';
import type { Subscription } from './subscription.js';

/**
 * The asynchronous half of subscribing: the resume-gap check, snapshots, replay of the log, then
 * the hand-over to live delivery that yields neither a gap nor a duplicate. Live events that
 * arrive meanwhile are held by the subscription (it was registered in the index at `liveFrom`),
 * so replay covers (since, liveFrom] and live delivery (liveFrom, ...).
 */

export interface ActivateRequest {
  since?: Offset | undefined;
  snapshot: boolean;
  /** The live feed's position when the subscription was registered: replay covers up to here. */
  liveFrom: Offset;
}

/** Resolves false when setup failed (the viewer was told with `internal_error`); the caller drops the subscription. */
export async function activate(
  sub: Subscription,
  req: ActivateRequest,
  ctx: ActivateContext,
): Promise<boolean> {
  const { sink } = sub;
  try {
    let replayFrom: Offset | null = req.since ?? null;
    let sendSnapshots = req.snapshot;
    if (replayFrom !== null) {
      const bounds = await whileBusUnavailable(sub, () => ctx.bus.bounds());
      const gap = resumeGap(replayFrom, bounds.trimmedThrough, bounds.last);
      if (gap) {
        if (sub.cancelled) return true;
        sink.send(errorFrame({ code: 'resume_gap', id: sub.id, message: gap.message }));
        replayFrom = gap.resumeFrom;
        sendSnapshots = true;
      }
    }
    if (sendSnapshots) {
      const asOf = await queueSnapshots(sub, req.liveFrom, ctx);
      if (sub.cancelled || sink.closed) return true;
      // Delayed snapshots show the game `delay` ago: what was logged since follows them. (Past
      // the live position there is nothing to replay: live delivery has it.)
      if (replayFrom === null && asOf !== null && compareOffsets(asOf, req.liveFrom) < 0) replayFrom = asOf;
    }
    if (replayFrom !== null) await replay(sub, replayFrom, req.liveFrom, ctx);
    if (sub.cancelled || sink.closed) return true;
    // A `since` newer than our live position (another instance's tail ran ahead) must not repeat.
    const after = replayFrom !== null && compareOffsets(replayFrom, req.liveFrom) > 0 ? replayFrom : null;
    sub.goLive(after);
    sink.flush();
    return true;
  } catch (err) {
    ctx.logger.warn({ err, sub: sub.id }, 'subscription setup failed');
    if (sub.cancelled || sink.closed) return false;
    sink.send(
      errorFrame({
        code: 'internal_error',
        id: sub.id,
        message: `could not replay or snapshot: ${(err as Error).message}; subscribe again`,
      }),
    );
    return false;
  }
}
