import type { GameEvent } from '../model/events.js';
import { BusUnavailableError } from '../core/errors.js';
import { Backoff } from '../core/backoff.js';
import type { Logger } from '../core/log.js';
import type { RepeatedErrorLog } from '../core/repeated-log.js';
import { connectRedis, type RedisConnection } from './redis-connection.js';
import type { RedisTarget } from './redis-url.js';
import { pause, watchConnection } from './redis-watch.js';
import { TAIL_BATCH_LIMIT } from './options.js';
import type { Offset } from './types.js';

export type StreamEntry = [id: string, fields: string[]];

/** A blocked XREAD returns after this long even when idle, so a silently dead socket is noticed. */
const BLOCK_MS = 5_000;
/**
 * Backoff between failed tail reads (a tail connection itself never gives up): quick for a blip,
 * at most 5 s for a failure that lasts, jittered so the gateways of a deployment do not retry in step.
 */
const TAIL_RETRY = { baseMs: 250, maxMs: 5_000 };

/** What a tail needs of the bus that opens it. */
export interface TailContext {
  target: RedisTarget;
  streamKey: string;
  logger: Logger;
  repeats: RepeatedErrorLog;
  /** Open tail connections, so that closing the bus ends them. */
  tails: Set<RedisConnection>;
  closed: () => boolean;
  /** Reports the newest id read, for the epoch watch. */
  saw: (offset: Offset) => void;
  /** Where "from now on" starts: asked again when the first attempt failed. */
  lastGeneratedId: () => Promise<Offset>;
}

/** The log's events from the stream's entries; an entry that is not ours is skipped with a warning. */
export function toEvents(entries: readonly StreamEntry[], logger: Logger): GameEvent[] {
  const out: GameEvent[] = [];
  for (const [id, fields] of entries) {
    const json = fieldValue(fields, 'e');
    try {
      if (json === undefined) throw new Error('no field "e"');
      const event = JSON.parse(json) as GameEvent;
      event.offset = id;
      out.push(event);
    } catch (err) {
      // Someone else's entry in our stream: skipping it keeps every reader going.
      logger.warn({ id, err: (err as Error).message }, 'bus: skipping unreadable stream entry');
    }
  }
  return out;
}

/** Batches of events after the offset `start` resolves to, read on a connection of its own. */
export async function* tailFrom(
  ctx: TailContext,
  start: Promise<Offset>,
  signal: AbortSignal | undefined,
): AsyncGenerator<GameEvent[]> {
  if (ctx.closed() || signal?.aborted) return;
  const conn = connectRedis(ctx.target, { name: 'courtside-bus-tail', maxRetriesPerRequest: null });
  ctx.tails.add(conn);
  const stopped = (): boolean => ctx.closed() || signal?.aborted === true;
  watchConnection(conn, 'tail', ctx.logger, stopped);
  // A blocked XREAD only ends when its connection does.
  const onAbort = (): void => conn.disconnect();
  signal?.addEventListener('abort', onAbort, { once: true });
  const backoff = new Backoff(TAIL_RETRY);
  try {
    let cursor: Offset | undefined;
    while (cursor === undefined && !stopped()) {
      try {
        cursor = await start;
      } catch {
        await pause(backoff.next(), signal);
        start = ctx.lastGeneratedId();
        // Not awaited when the tail stops meanwhile: its failure then concerns no one.
        start.catch(() => undefined);
      }
    }
    while (!stopped() && cursor !== undefined) {
      let reply: Array<[string, StreamEntry[]]> | null;
      try {
        reply = await conn.xread(
          'COUNT',
          TAIL_BATCH_LIMIT,
          'BLOCK',
          BLOCK_MS,
          'STREAMS',
          ctx.streamKey,
          cursor,
        );
      } catch (err) {
        if (stopped()) break;
        // Redis answered with an error (e.g. the key is not a stream): retrying cannot help.
        if ((err as Error).name === 'ReplyError') throw new BusUnavailableError('tail', { cause: err });
        const message = (err as Error).message;
        ctx.repeats.log('warn', message, { err: message }, 'bus: tail read failed; retrying');
        await pause(backoff.next(), signal);
        continue;
      }
      backoff.reset();
      const entries = reply?.[0]?.[1];
      const lastId = entries?.at(-1)?.[0];
      if (!entries || lastId === undefined) continue;
      // Resume after the last id read, even if every entry in the batch was unreadable.
      cursor = lastId;
      ctx.saw(lastId);
      const batch = toEvents(entries, ctx.logger);
      if (batch.length > 0) yield batch;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    ctx.tails.delete(conn);
    conn.disconnect();
  }
}

function fieldValue(fields: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}
