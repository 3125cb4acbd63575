import type { InstanceRole } from '../core/role.js';
import { polls } from '../core/role.js';
import { rootCause } from '../server/routes/upstream-notice.js';
import { DEFAULT_FASTCAST_URL, type FastcastDiscovery, type PushConfig } from './push-config.js';

/**
 * What push will do, decided once at start-up and said in one line: which FastCast the daemon
 * asks, or that push is off and why. A FastCast looked for on another upstream (the simulator) is
 * asked once first: an upstream that answers its discovery path with "no such thing" serves no
 * FastCast, and asking it again with backoff for the whole run would only fill the log, so push is
 * off for this run. One that does not answer yet (started beside the daemon, as the README's
 * recipes do) keeps push on: the push client retries, and the games are polled meanwhile.
 */
export interface PushPlan {
  /** The configuration the daemon runs with: null when push is off. */
  readonly push: PushConfig | null;
  /** The start-up line. */
  readonly notice: string;
}

export interface PushPlanOptions {
  readonly role: InstanceRole;
  /** How long the discovery probe waits for an answer; default 2 s. */
  readonly probeTimeoutMs?: number;
}

const DEFAULT_PROBE_TIMEOUT_MS = 2_000;
// Answers that say the path is not served at all: any other failure may pass.
const NOT_SERVED = new Set([400, 401, 403, 404, 405, 410, 501]);
const HOW_TO_NAME = `--fastcast-url <discovery URL> names a FastCast (ESPN's: ${DEFAULT_FASTCAST_URL})`;

/** `push` as `loadPushConfig` read it; one without `discovery` counts as set by `COURTSIDE_FASTCAST_URL`. */
export async function planPush(
  push: (PushConfig & { readonly discovery?: FastcastDiscovery }) | null,
  options: PushPlanOptions,
): Promise<PushPlan> {
  if (push === null)
    return { push, notice: 'push off (--push off or COURTSIDE_PUSH=off): every live game is polled' };
  if (!polls(options.role))
    return { push, notice: `push not used: a ${options.role} instance follows no game (--role)` };
  const discovery = push.discovery ?? { from: 'setting', name: 'COURTSIDE_FASTCAST_URL' };
  const url = push.fastcastUrl;
  if (discovery.from === 'espn')
    return { push, notice: `push on: FastCast at ${url} (ESPN's); a game is polled until push delivers it` };
  if (discovery.from === 'setting')
    return {
      push,
      notice: `push on: FastCast at ${url} (${discovery.name}); a game is polled until push delivers it`,
    };
  const answer = await probeDiscovery(push, options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
  const upstream = discovery.upstream;
  if (answer.kind === 'served')
    return {
      push,
      notice: `push on: FastCast at ${url}, discovered on the upstream ${upstream}; a game is polled until push delivers it`,
    };
  if (answer.kind === 'not-served')
    return {
      push: null,
      notice: `push off: the upstream ${upstream} serves no FastCast (${answer.why} at ${url}); every live game is polled. ${HOW_TO_NAME}`,
    };
  return {
    push,
    notice: `push on: FastCast at ${url}, on the upstream ${upstream}, which does not answer yet (${answer.why}); games are polled until it does`,
  };
}

type ProbeAnswer =
  { kind: 'served' } | { kind: 'not-served'; why: string } | { kind: 'no-answer'; why: string };

/** One discovery request: served (a JSON object with a token), not served, or no answer at all. */
async function probeDiscovery(push: PushConfig, timeoutMs: number): Promise<ProbeAnswer> {
  let response: Response;
  try {
    response = await fetch(push.fastcastUrl, {
      headers: { 'User-Agent': push.userAgent, Origin: push.origin, Accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    return { kind: 'no-answer', why: timedOut ? `no answer within ${timeoutMs} ms` : rootCause(err) };
  }
  const text = await response.text().catch(() => '');
  if (NOT_SERVED.has(response.status)) return { kind: 'not-served', why: `HTTP ${response.status}` };
  if (response.status !== 200) return { kind: 'no-answer', why: `HTTP ${response.status}` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'not-served', why: 'an answer that is not JSON' };
  }
  const token = (body as { token?: unknown } | null)?.token;
  return typeof token === 'string' && token !== ''
    ? { kind: 'served' }
    : { kind: 'not-served', why: 'an answer without a token' };
}
