import type { GameEvent } from '../model/events.js';
import { BusUnavailableError } from '../core/errors.js';
import type { RepeatedErrorLog } from '../core/repeated-log.js';
import { commitToken } from './commit-token.js';
import type { CommandRedis, Run } from './redis-commands.js';
import type { RedisKeys } from './redis-keys.js';
import { timeTrimSlackMs } from './options.js';
import { serialiseDelta } from './state-json.js';
import type { Bus, GameKey, GameStateDelta, NewGameEvent, Offset } from './types.js';

/** How long a commit waits for its replicas: a healthy replica acknowledges in milliseconds. */
export const REPLICA_WAIT_MS = 1_000;

/** What the commit path needs of the bus that runs it. */
export interface CommitContext {
  cmd: CommandRedis;
  keys: RedisKeys;
  run: Run;
  retention: number;
  retentionMs: number;
  now: () => number;
  /** Replicas that must acknowledge each commit (`WAIT`), 0 for none. */
  waitReplicas: number;
  repeats: RepeatedErrorLog;
  onCapped?: ((events: number) => void) | undefined;
  /** Reports the newest id assigned, for the epoch watch. */
  saw: (offset: Offset | null | undefined) => void;
}

/**
 * `Bus.commit` on Redis: one run of the commit script (lease check, re-send check, state, events,
 * trims), then the replicas' acknowledgement when asked for, then the events with their ids.
 */
export function redisCommit(ctx: CommitContext): Bus['commit'] {
  const { cmd, run, waitReplicas } = ctx;
  return async (game, events, delta, owner) => {
    const args = commitArgs(ctx, game, events, delta, owner);
    const reply = await run('commit', () => cmd.courtsideCommit(...args));
    if (reply === null) return null;
    const ids = capReport(ctx, reply);
    if (waitReplicas > 0) {
      const acked = await run('commit', () => cmd.wait(waitReplicas, REPLICA_WAIT_MS));
      if (acked < waitReplicas) {
        throw new BusUnavailableError('commit', {
          cause: new Error(
            `${acked} of ${waitReplicas} replica(s) acknowledged the commit within ${REPLICA_WAIT_MS} ms`,
          ),
        });
      }
    }
    ctx.saw(ids.at(-1));
    if (ids.length !== events.length) {
      throw new BusUnavailableError('commit', { cause: new Error('id count mismatch') });
    }
    return events.map((event, i) => ({ ...event, offset: ids[i] }) as GameEvent);
  };
}

/** The commit script's keys and arguments, in the order COMMIT_SCRIPT reads them. */
function commitArgs(
  ctx: CommitContext,
  game: GameKey,
  events: readonly NewGameEvent[],
  delta: GameStateDelta,
  owner: string | undefined,
): Array<string | number> {
  const { keys, retention, retentionMs, now } = ctx;
  // Serialised first: a value JSON cannot encode fails here, before anything is sent.
  const { meta, sets, deletes, replace } = serialiseDelta(delta);
  const args: Array<string | number> = [
    keys.lease(game),
    keys.stream,
    keys.meta(game),
    keys.entries(game),
    keys.games,
    keys.trimmed,
    keys.lastCommit(game),
    owner ?? '',
    retention,
    keys.member(game),
    meta,
    sets.length,
    deletes.length,
    commitToken(events),
    replace ? '1' : '',
    Math.floor(now()) - retentionMs,
    Math.floor(now()) - retentionMs - timeTrimSlackMs(retentionMs),
  ];
  for (const [field, json] of sets) args.push(field, json);
  for (const field of deletes) args.push(field);
  for (const event of events) args.push(JSON.stringify(event));
  return args;
}

/** The ids of a commit's reply, after reporting a `capped:<n>` it ends with. */
function capReport(ctx: CommitContext, reply: string[]): string[] {
  const last = reply.at(-1);
  if (last === undefined || !last.startsWith('capped:')) return reply;
  const cut = Number(last.slice('capped:'.length));
  // Folded while it lasts: a cap too small for the day cuts on every commit.
  ctx.repeats.log(
    'warn',
    'retention-capped',
    { events: cut, retention: ctx.retention, retentionHours: ctx.retentionMs / 3_600_000 },
    'bus: the retention cap trimmed events younger than the retention window; raise COURTSIDE_RETENTION',
  );
  ctx.onCapped?.(cut);
  return reply.slice(0, -1);
}
