import { createHash } from 'node:crypto';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';
import { WebhookFailedError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/log.js';
import { webhookDeliveries } from '../../src/core/metrics.js';
import type { Alert } from '../alerts/types.js';
import type { ChatSubscriber } from '../rules-file.js';
import type { WebhookJobData } from '../webhooks/jobs.js';
import { chatRequest, readAnswer } from './index.js';
import { Pacer } from './pacing.js';
import { displayUrl, redact, secretsOf } from './redact.js';
import { defaultSpacingMs } from './schema.js';
import { sendChat } from './send.js';
import { ChatLanes } from './chat-lanes.js';

export interface ChatDeliveryOptions {
  commands: Redis;
  prefix: string;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  logger: Logger;
  /**
   * A wait (pacing or a platform's retry time) up to this long is slept in the job, keeping the
   * destination's order; a longer one moves the job to the delayed set without using an attempt.
   */
  maxInlineWaitMs?: number;
  onDelivered?: (job: WebhookJobData, status: number) => void;
}

// Long enough for Discord's and Slack's usual retry times; a Telegram flood wait of minutes is
// better spent in the delayed set than holding a delivery slot.
const DEFAULT_MAX_INLINE_WAIT_MS = 30_000;
// Deliveries of one destination held in this process at once (chat-lanes.ts).
const MAX_HELD_PER_DESTINATION = 4;
// 429s in a row before the job counts a failed attempt: a platform that never stops answering 429
// (a daily quota spent) must still end in the failed set, not loop forever.
const MAX_RATE_LIMITS_IN_A_ROW = 20;
// As long as a completed job is kept (workers/webhooks/jobs.ts): a rerun of the job finds the mark.
const SENT_TTL_SECONDS = 24 * 3600;

type ChatJobData = WebhookJobData & { slotAt?: number; rateLimits?: number };

/**
 * Delivers chat jobs (Discord, Slack, Telegram, ntfy). Each destination is paced across workers
 * (`Pacer`) and served in queue order within a process; a `sent` mark in Redis keeps a rerun of a
 * job that already posted (a crash after the answer) from posting twice, since chats have no
 * idempotency key. Errors leave with every secret of the subscriber redacted.
 */
export function createChatDelivery(options: ChatDeliveryOptions) {
  const pacer = new Pacer(options.commands, options.prefix);
  const maxInlineWaitMs = options.maxInlineWaitMs ?? DEFAULT_MAX_INLINE_WAIT_MS;
  const lanes = new ChatLanes(MAX_HELD_PER_DESTINATION);

  /** Runs in the order jobs were taken: nothing before the lane is joined may await. */
  async function deliver(
    job: Job<ChatJobData>,
    token: string | undefined,
    sub: ChatSubscriber,
  ): Promise<{ status: number }> {
    const destination = destinationId(sub);
    const spacing = sub.minIntervalMs ?? defaultSpacingMs(sub.kind, 'chatId' in sub ? sub.chatId : undefined);
    const delayUntil = lanes.delayUntil(destination, spacing, job.data.slotAt);
    if (delayUntil !== undefined) return toDelayed(job, token, delayUntil, { slotAt: delayUntil });
    return lanes.run(destination, () => send(job, token, sub, destination, spacing));
  }

  async function send(
    job: Job<ChatJobData>,
    token: string | undefined,
    sub: ChatSubscriber,
    destination: string,
    spacing: number,
  ): Promise<{ status: number }> {
    const secrets = secretsOf(sub);
    const where = `${sub.kind} ${displayUrl(sub)}`;
    const sentKey = `${options.prefix}webhooks:sent:${job.id ?? job.data.idempotencyKey}`;
    if ((await options.commands.exists(sentKey)) === 1) return { status: 0 };
    const request = chatRequest(sub, job.data.payload as Alert);
    for (let limited = 0; ;) {
      const { waitMs: wait, seq } = await pacer.reserve(destination, spacing);
      if (wait > maxInlineWaitMs) {
        return toDelayed(job, token, Date.now() + wait, { slotAt: Date.now() + wait });
      }
      if (wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        // Another worker learnt of a limit while this one waited: take a slot after it.
        if ((await pacer.heldFor(destination, seq)) > 0) continue;
      }
      const answer = await sendChat(request, options).catch((err: unknown) =>
        notSent(err, job, sub, options.logger),
      );
      const outcome = readAnswer(sub.kind, answer);
      const reason = 'reason' in outcome ? redact(outcome.reason, secrets) : '';
      switch (outcome.type) {
        case 'sent':
          // The budget first: another worker may be about to reserve against it.
          if (outcome.bucket) {
            const { remaining, resetAfterMs } = outcome.bucket;
            await pacer.answered(destination, seq, remaining, resetAfterMs);
          }
          await options.commands.set(sentKey, '1', 'EX', SENT_TTL_SECONDS);
          webhookDeliveries.inc({ outcome: 'delivered' });
          options.onDelivered?.(job.data, answer.status);
          return { status: answer.status };
        case 'rate-limited': {
          webhookDeliveries.inc({ outcome: 'rate_limited' });
          await pacer.hold(destination, outcome.waitMs);
          limited += 1;
          const total = (job.data.rateLimits ?? 0) + limited;
          options.logger.info(
            { subscriber: sub.id, kind: sub.kind, waitMs: outcome.waitMs, inARow: total },
            'chat destination rate limited; waiting',
          );
          if (total >= MAX_RATE_LIMITS_IN_A_ROW) {
            await job.updateData({ ...job.data, rateLimits: 0 });
            throw new WebhookFailedError(displayUrl(sub), 429, `${reason} (${total} times in a row)`);
          }
          if (outcome.waitMs > maxInlineWaitMs) {
            const at = Date.now() + outcome.waitMs;
            return toDelayed(job, token, at, { slotAt: at, rateLimits: total });
          }
          continue;
        }
        case 'permanent':
          webhookDeliveries.inc({ outcome: 'failed' });
          logFailure(options.logger, job, sub, 'permanent', reason);
          throw new UnrecoverableError(`${where} failed: ${reason}`);
        case 'retry':
          webhookDeliveries.inc({ outcome: 'failed' });
          logFailure(options.logger, job, sub, 'failed', reason);
          throw new WebhookFailedError(displayUrl(sub), answer.status, reason);
      }
    }
  }

  return { deliver };
}

/** A destination's id for pacing and lanes: its service, URL and secrets, hashed. */
function destinationId(sub: ChatSubscriber): string {
  return createHash('sha256')
    .update(`${sub.kind}:${displayUrl(sub)}:${secretsOf(sub).join(':')}`)
    .digest('hex')
    .slice(0, 24);
}

/** Moves the job to the delayed set until `at`, with `data` merged into its data, without using an attempt. */
async function toDelayed(
  job: Job<ChatJobData>,
  token: string | undefined,
  at: number,
  data: Partial<ChatJobData>,
): Promise<never> {
  await job.updateData({ ...job.data, ...data });
  await job.moveToDelayed(at, token);
  throw new DelayedError();
}

/** The request did not get an answer (timeout, connection error, refused address): a failed attempt. */
function notSent(err: unknown, job: Job<ChatJobData>, sub: ChatSubscriber, logger: Logger): never {
  const message = redact((err as Error).message, secretsOf(sub));
  // A name that does not resolve now may resolve in a minute (DNS hiccup): retried. An
  // address the guard forbids stays forbidden.
  const refused = (err as { code?: string }).code === 'WEBHOOK_REFUSED' && !/cannot resolve/.test(message);
  webhookDeliveries.inc({ outcome: refused ? 'refused' : 'failed' });
  logFailure(logger, job, sub, refused ? 'refused' : 'failed', message);
  // Retrying cannot make a forbidden address allowed.
  if (refused) throw new UnrecoverableError(message);
  throw new WebhookFailedError(displayUrl(sub), null, message.replace(/^webhook \S+ failed: /, ''));
}

/**
 * One line per failed attempt, as for signed webhooks, so an operator sees a bad token or a
 * platform outage without reading the failed set. `reason` is already redacted.
 */
function logFailure(
  logger: Logger,
  job: Job<ChatJobData>,
  sub: ChatSubscriber,
  outcome: 'failed' | 'permanent' | 'refused',
  reason: string,
): void {
  const attempt = job.attemptsMade + 1;
  const fields = { subscriber: sub.id, kind: sub.kind, attempt, err: reason };
  if (outcome === 'failed' && attempt < (job.opts.attempts ?? 1)) {
    logger.info(fields, 'chat delivery failed; retrying with backoff');
  } else {
    logger.warn(fields, `chat delivery ${outcome}; in the failed set`);
  }
}
