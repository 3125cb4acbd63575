import { InvalidOptionsError } from '../core/errors.js';
import { createRandom, type Random } from './random.js';

/**
 * Fault injection. Probabilities apply per response; one-shot faults queued by tests
 * (`failNext`, `hangNext`, `malformedNext`) take precedence, in the order they were queued.
 */
export interface FaultSpec {
  /** Probability of a 5xx answer (sometimes with Retry-After). */
  error?: number;
  /** Probability of never answering (the client times out). */
  timeout?: number;
  /** Probability of a truncated JSON body. */
  malformed?: number;
  /** Probability, per summary response of a live game, of changing an already revealed play. */
  correct?: number;
  /** Probability, per summary response of a live game, of a revealed play vanishing. */
  remove?: number;
  /**
   * Probability, per summary response of a live game, of a play revealed late: inserted in the
   * middle of the list with a new, higher id and a lower `sequenceNumber` than the plays after it.
   */
  insert?: number;
  /**
   * Probability, per summary response of a live game, of a scoring play corrected down (a three
   * ruled a two, a two or a free throw ruled no good): the running score of it and of every play
   * after it drops by one, and so does the game's score.
   */
  rescore?: number;
  /** Fixed added delay in ms before every answer. */
  latency?: number;
  /** Probability, per FastCast patch frame, of the frame being lost (its `mid` is skipped). */
  lostframe?: number;
  /** Probability, per FastCast patch frame, of a patch that cannot apply to the document. */
  badpatch?: number;
  /** Probability, per FastCast patch frame, of the socket being closed instead. */
  dropsocket?: number;
  /** Probability, per FastCast subscription, of the topic being answered 404. */
  topic404?: number;
  /** Probability, per FastCast connection, of its token being refused as expired. */
  expiredtoken?: number;
  /** Probability, per FastCast patch frame, of the socket going silent (no frames, no pings). */
  silentsocket?: number;
  /** Delay in ms by which the site summary lags the FastCast document (a CDN's cache). */
  cdnlag?: number;
}

export interface FaultController {
  /** Replaces the probabilistic faults (one-shot faults stay queued). */
  set(spec: string | FaultSpec): void;
  /** The next `n` requests answer `status` (default 503), with `Retry-After: retryAfter` seconds when given. */
  failNext(n: number, options?: { status?: number; retryAfter?: number }): void;
  /** The next `n` requests never get an answer (until the client gives up or the simulator closes). */
  hangNext(n: number): void;
  /** The next `n` requests get a truncated JSON body. */
  malformedNext(n: number): void;
  /** Removes all probabilistic and queued faults. */
  clear(): void;
  readonly spec: Readonly<FaultSpec>;
}

/** The faults that change a live game's plays, drawn per summary response. */
export type PlayFault = 'correct' | 'remove' | 'insert' | 'rescore';
/** The faults of the FastCast socket, drawn per frame, subscription or connection. */
export type PushFault =
  'lostframe' | 'badpatch' | 'dropsocket' | 'topic404' | 'expiredtoken' | 'silentsocket';

export type FaultDecision =
  { kind: 'error'; status: number; retryAfter?: number } | { kind: 'hang' } | { kind: 'malformed' };

const KEYS = [
  'error',
  'timeout',
  'malformed',
  'correct',
  'remove',
  'insert',
  'rescore',
  'latency',
  'lostframe',
  'badpatch',
  'dropsocket',
  'topic404',
  'expiredtoken',
  'silentsocket',
  'cdnlag',
] as const;
// Faults given in milliseconds rather than as a probability.
const DELAYS: readonly string[] = ['latency', 'cdnlag'];
// These are the 5xx statuses ESPN's edge answers with when it sheds load.
const ERROR_STATUSES = [500, 502, 503, 504] as const;

export function parseFaultSpec(input: string | FaultSpec | undefined): FaultSpec {
  if (input === undefined) return {};
  const spec: FaultSpec = {};
  const entries: [string, unknown][] =
    typeof input === 'string'
      ? input
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
          .map((part) => {
            const [key = '', value = ''] = part.split('=').map((s) => s.trim());
            return [key, value === '' ? NaN : Number(value)];
          })
      : Object.entries(input).filter(([, v]) => v !== undefined);
  for (const [key, raw] of entries) {
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new InvalidOptionsError(`faults: unknown fault "${key}"; expected one of ${KEYS.join(', ')}`);
    }
    const value = Number(raw);
    const isLatency = DELAYS.includes(key);
    if (!Number.isFinite(value) || value < 0 || (!isLatency && value > 1)) {
      throw new InvalidOptionsError(
        `faults: ${key}=${String(raw)} is invalid; expected ${isLatency ? 'milliseconds >= 0' : 'a probability between 0 and 1'}`,
      );
    }
    spec[key as (typeof KEYS)[number]] = value;
  }
  return spec;
}

export class Faults implements FaultController {
  private current: FaultSpec;
  private queue: FaultDecision[] = [];
  private readonly random: Random;

  constructor(spec: string | FaultSpec | undefined, seed: number) {
    this.current = parseFaultSpec(spec);
    this.random = createRandom(seed);
  }

  get spec(): Readonly<FaultSpec> {
    return this.current;
  }

  set(spec: string | FaultSpec): void {
    this.current = parseFaultSpec(spec);
  }

  failNext(n: number, options: { status?: number; retryAfter?: number } = {}): void {
    const status = options.status ?? 503;
    for (let i = 0; i < n; i++) {
      this.queue.push(
        options.retryAfter === undefined
          ? { kind: 'error', status }
          : { kind: 'error', status, retryAfter: options.retryAfter },
      );
    }
  }

  hangNext(n: number): void {
    for (let i = 0; i < n; i++) this.queue.push({ kind: 'hang' });
  }

  malformedNext(n: number): void {
    for (let i = 0; i < n; i++) this.queue.push({ kind: 'malformed' });
  }

  clear(): void {
    this.current = {};
    this.queue = [];
  }

  /** The fault for the next response, if any. Draws are made in a fixed order so a seed replays. */
  next(): FaultDecision | undefined {
    const queued = this.queue.shift();
    if (queued) return queued;
    const { error = 0, timeout = 0, malformed = 0 } = this.current;
    if (error > 0 && this.random() < error) {
      const status = ERROR_STATUSES[Math.floor(this.random() * ERROR_STATUSES.length)] ?? 503;
      // A one-second Retry-After is long enough to be seen honoured and short enough for tests and demos.
      return status === 503 && this.random() < 0.5
        ? { kind: 'error', status, retryAfter: 1 }
        : { kind: 'error', status };
    }
    if (timeout > 0 && this.random() < timeout) return { kind: 'hang' };
    if (malformed > 0 && this.random() < malformed) return { kind: 'malformed' };
    return undefined;
  }

  /**
   * Whether to apply a play correction / removal / insertion / rescore to this live summary
   * response, or a FastCast fault to this frame, subscription or connection.
   */
  roll(kind: PlayFault | PushFault): boolean {
    const p = this.current[kind] ?? 0;
    return p > 0 && this.random() < p;
  }

  /** A draw for choosing which play to change, from the same seeded stream. */
  draw(): number {
    return this.random();
  }

  get latency(): number {
    return this.current.latency ?? 0;
  }

  get cdnLag(): number {
    return this.current.cdnlag ?? 0;
  }
}
