import { createDeflate } from 'node:zlib';
import { InvalidOptionsError } from '../core/errors.js';
import type { PatchOperation } from '../espn/fastcast-wire.js';

/**
 * The FastCast behaviours that public clients met on ESPN's service over weeks of running, each
 * played on demand (not drawn at random, unlike the probabilities of faults.ts), for all games or
 * for the games named:
 *
 * - `absent-keys[=N]`: one patch frame in N (default 10) also `remove`s and `replace`s odds and
 *   pickcenter keys the document does not have;
 * - `no-h`: a subscription is answered `rc: 200` and then nothing: no `H`, no patches;
 * - `wrapped-checkpoint`: the checkpoint body is `{"pl": <document>}`;
 * - `inflate-bomb[=BYTES]`: one patch frame in ten is preceded by a compressed frame that inflates
 *   to BYTES (default 1 GiB) of a valid, empty patch;
 * - `catch-up-bomb[=BYTES]`: every subscription's catch-up holds such a frame, right after the `H`,
 *   as a topic's does when a bomb was published since its checkpoint: the checkpoint is fine, but
 *   no document comes of it;
 * - `batched-frames`: several messages in one WebSocket frame (a JSON list): the `H` with its
 *   catch-up, and each patch with the keep-alive that follows it;
 * - `maintenance`: an `M` frame, after the `C` answer (all games) or the game's `S` answer;
 * - `encoded-token`: discovery hands out a standard-base64 token (`+`, `/`, `=`) and the upgrade is
 *   accepted only with the whole token percent-encoded;
 * - `refused-upgrade`: every upgrade is answered 403;
 * - `discovery-down`: discovery answers 503;
 * - `waf`: the site API answers every agent with the edge's 403 HTML page.
 *
 * Written `name[=value][@game]`, comma-separated, e.g. `no-h@401585607,absent-keys=5`.
 */
export const FASTCAST_FAULTS = [
  'absent-keys',
  'no-h',
  'wrapped-checkpoint',
  'inflate-bomb',
  'catch-up-bomb',
  'batched-frames',
  'maintenance',
  'encoded-token',
  'refused-upgrade',
  'discovery-down',
  'waf',
] as const;

export type FastcastFaultName = (typeof FASTCAST_FAULTS)[number];

export interface FastcastFault {
  readonly name: FastcastFaultName;
  /** `absent-keys`: one frame in this many; `inflate-bomb`, `catch-up-bomb`: inflated bytes. */
  readonly value?: number;
  /** The games it applies to (ESPN event ids); every game when absent. */
  readonly games?: readonly string[];
}

// Faults of the connection or the site, not of one game's topic: `@game` makes no sense for them.
const SERVICE_WIDE: ReadonlySet<FastcastFaultName> = new Set([
  'encoded-token',
  'refused-upgrade',
  'discovery-down',
  'waf',
]);
const WITH_VALUE: Readonly<
  Partial<Record<FastcastFaultName, { default: number; min: number; form: string }>>
> = {
  'absent-keys': { default: 10, min: 1, form: 'an integer >= 1 (one frame in N)' },
  'inflate-bomb': { default: 2 ** 30, min: 1024, form: 'an integer number of bytes >= 1024' },
  'catch-up-bomb': { default: 2 ** 30, min: 1024, form: 'an integer number of bytes >= 1024' },
};
const BOMBS: ReadonlySet<FastcastFaultName> = new Set(['inflate-bomb', 'catch-up-bomb']);
// A bomb is sent before one patch frame in this many.
export const BOMB_EVERY = 10;

/** Parses the `name[=value][@game]` list; throws `InvalidOptionsError` naming the entry at fault. */
export function parseFastcastFaults(input: string | readonly FastcastFault[] | undefined): FastcastFault[] {
  if (input === undefined) return [];
  const entries =
    typeof input === 'string'
      ? input
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map(parseEntry)
      : input.map((f) => ({ ...f }));
  for (const f of entries) checkFault(f);
  return entries;
}

function parseEntry(text: string): FastcastFault {
  const m = /^([a-z-]+)(?:=([^@]*))?(?:@([0-9]+))?$/.exec(text);
  if (!m)
    throw new InvalidOptionsError(
      `fastcastFaults: "${text}" is invalid; expected name[=value][@game], e.g. no-h@401585607`,
    );
  const value = m[2] === undefined ? undefined : m[2] === '' ? NaN : Number(m[2]);
  return {
    name: m[1] as FastcastFaultName,
    ...(value !== undefined ? { value } : {}),
    ...(m[3] !== undefined ? { games: [m[3]] } : {}),
  };
}

function checkFault(f: FastcastFault): void {
  if (!(FASTCAST_FAULTS as readonly string[]).includes(f.name))
    throw new InvalidOptionsError(
      `fastcastFaults: unknown fault "${f.name}"; expected one of ${FASTCAST_FAULTS.join(', ')}`,
    );
  const valued = WITH_VALUE[f.name];
  if (f.value !== undefined) {
    if (!valued) throw new InvalidOptionsError(`fastcastFaults: ${f.name} takes no value`);
    if (!Number.isInteger(f.value) || f.value < valued.min)
      throw new InvalidOptionsError(
        `fastcastFaults: ${f.name}=${String(f.value)} is invalid; expected ${valued.form}`,
      );
  }
  if (f.games !== undefined) {
    if (SERVICE_WIDE.has(f.name))
      throw new InvalidOptionsError(
        `fastcastFaults: ${f.name} applies to the whole service; it takes no @game`,
      );
    if (!f.games.every((g) => /^[0-9]+$/.test(g)))
      throw new InvalidOptionsError(`fastcastFaults: ${f.name}: games must be numeric event ids`);
  }
}

/** The faults in force, asked per game. */
export class FastcastFaults {
  private readonly list: readonly FastcastFault[];
  // Deflated bombs by inflated size: made once at start (`prepare`), as they take a while to make.
  private readonly bombs = new Map<number, string>();
  private readonly frameCounts = new Map<string, number>();
  // Each publication's draw, so that every socket subscribed to the topic gets the same frames.
  private readonly decided = new WeakMap<object, { absentKeys: boolean; bomb: string | undefined }>();

  constructor(input?: string | readonly FastcastFault[]) {
    this.list = parseFastcastFaults(input);
  }

  get faults(): readonly FastcastFault[] {
    return this.list;
  }

  /** The fault `name` as it applies to `game` (undefined: any game, for service-wide faults). */
  find(name: FastcastFaultName, game?: string): FastcastFault | undefined {
    return this.list.find(
      (f) => f.name === name && (f.games === undefined || (game !== undefined && f.games.includes(game))),
    );
  }

  has(name: FastcastFaultName, game?: string): boolean {
    return this.find(name, game) !== undefined;
  }

  /** Makes the compressed bombs the faults ask for. */
  async prepare(): Promise<void> {
    for (const f of this.list) {
      if (!BOMBS.has(f.name)) continue;
      const size = bombSize(f);
      if (!this.bombs.has(size)) this.bombs.set(size, await deflatedBomb(size));
    }
  }

  /**
   * What `publication`, a patch of `game`'s topic, carries: the absent-key operations to add, and
   * a bomb payload to send before it. Counts the game's publications (one in N).
   */
  forPatch(game: string, publication: object): { absentKeys: boolean; bomb: string | undefined } {
    const known = this.decided.get(publication);
    if (known) return known;
    const n = (this.frameCounts.get(game) ?? 0) + 1;
    this.frameCounts.set(game, n);
    const absent = this.find('absent-keys', game);
    const bomb = this.find('inflate-bomb', game);
    const decision = {
      absentKeys: absent !== undefined && (n - 1) % (absent.value ?? 10) === 0,
      bomb: bomb !== undefined && (n - 1) % BOMB_EVERY === 0 ? this.bombs.get(bombSize(bomb)) : undefined,
    };
    this.decided.set(publication, decision);
    return decision;
  }

  /** The bomb payload a subscription's catch-up to `game`'s topic opens with, if any. */
  catchUpBomb(game: string): string | undefined {
    const f = this.find('catch-up-bomb', game);
    return f && this.bombs.get(bombSize(f));
  }
}

function bombSize(f: FastcastFault): number {
  return f.value ?? WITH_VALUE[f.name]?.default ?? 2 ** 30;
}

/**
 * Operations on odds and pick data the simulator's documents never hold: the steady-state patches
 * public clients saw fail, as the keys they name were gone from the document by then.
 */
export const ABSENT_KEY_OPS: readonly PatchOperation[] = [
  { op: 'remove', path: '/odds/0/details' },
  { op: 'replace', path: '/pickcenter/0/spread', value: -3.5 },
];

/** A checkpoint body wrapped as some FastCast topics serve theirs. */
export function wrapCheckpoint(text: string): string {
  return `{"pl":${text}}`;
}

/**
 * Base64 of a zlib stream that inflates to `size` bytes: `[`, spaces, `]`: an empty patch, valid
 * once inflated whole, so only a bound on the inflated size stops a client spending it all.
 */
export async function deflatedBomb(size: number): Promise<string> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const chunk = Buffer.alloc(Math.min(1 << 20, size), 0x20);
  const write = (buf: Buffer): Promise<void> =>
    new Promise((resolve) => {
      if (deflate.write(buf)) resolve();
      else deflate.once('drain', resolve);
    });
  await write(Buffer.from('['));
  let left = size - 2;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    await write(n === chunk.length ? chunk : chunk.subarray(0, n));
    left -= n;
  }
  deflate.end(Buffer.from(']'));
  await done;
  return Buffer.concat(parts).toString('base64');
}

/** A token in standard base64 that holds `+`, `/` and `=`, the characters clients escape differently. */
export function standardBase64Token(random: Buffer): string {
  return `${random.toString('base64').replace(/=+$/, '')}+/=`;
}

/** Whether the raw (undecoded) query `search` carries `token` percent-encoded as a whole. */
export function tokenFullyEncoded(search: string, token: string): boolean {
  const m = /[?&]TrafficManager-Token=([^&#]*)/.exec(search);
  return m?.[1] === encodeURIComponent(token);
}
