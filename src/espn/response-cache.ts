/**
 * Upstream responses held by the client: the parsed body, its validators (`ETag`,
 * `Last-Modified`) and when it was stored. An entry past its TTL is not served as is, but
 * its validators still make the next request conditional, and a 304 puts it back in service.
 *
 * Bounded three ways, least recently used first: a number of entries, a total of body bytes (a
 * parsed summary is ~1.4 times its 140-490 KB of JSON on the heap), and idleness: an entry nobody
 * has used for `idleMs` (or twice its TTL, if longer) goes, so the summaries of finished games are
 * not kept all season for validators nobody will send.
 */

export interface CachedResponse {
  /** Parsed JSON, shared by every caller that gets it: treat as read-only. */
  readonly body: unknown;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  /** When the upstream last confirmed this body (200 or 304), in ms of the client clock. */
  readonly storedAt: number;
  /** Size of the body as received (decoded), what the byte budget counts. */
  readonly bytes: number;
}

export interface ResponseCacheLimits {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly idleMs: number;
}

interface Slot {
  readonly response: CachedResponse;
  /** How long this entry may go unused before it is dropped. */
  readonly keepMs: number;
  usedAt: number;
}

export class ResponseCache {
  // A Map iterates in insertion order; every use re-inserts, so the first key is the least
  // recently used.
  readonly #slots = new Map<string, Slot>();
  readonly #limits: ResponseCacheLimits;
  #bytes = 0;
  #sweptAt = 0;

  constructor(limits: ResponseCacheLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#slots.size;
  }

  /** Body bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The held entry whatever its age (for validators), or undefined. */
  held(key: string): CachedResponse | undefined {
    return this.#slots.get(key)?.response;
  }

  /** The held entry if younger than `ttlMs` at `now`. */
  fresh(key: string, ttlMs: number, now: number): CachedResponse | undefined {
    const slot = this.#slots.get(key);
    if (!slot || now - slot.response.storedAt >= ttlMs) return undefined;
    this.#slots.delete(key);
    this.#slots.set(key, slot);
    slot.usedAt = now;
    return slot.response;
  }

  /** Stores `response` for `key` (an operation with TTL `ttlMs`) at `now`. */
  set(key: string, response: CachedResponse, ttlMs: number, now: number): void {
    this.#drop(key);
    if (now - this.#sweptAt >= this.#limits.idleMs / 4) this.#sweep(now);
    // A body over the whole budget would only push everything else out, and go next.
    if (response.bytes > this.#limits.maxBytes) return;
    this.#slots.set(key, { response, keepMs: Math.max(this.#limits.idleMs, 2 * ttlMs), usedAt: now });
    this.#bytes += response.bytes;
    for (const oldest of this.#slots.keys()) {
      if (this.#slots.size <= this.#limits.maxEntries && this.#bytes <= this.#limits.maxBytes) break;
      this.#drop(oldest);
    }
  }

  clear(): void {
    this.#slots.clear();
    this.#bytes = 0;
  }

  #sweep(now: number): void {
    this.#sweptAt = now;
    for (const [key, slot] of this.#slots) if (now - slot.usedAt >= slot.keepMs) this.#drop(key);
  }

  #drop(key: string): void {
    const slot = this.#slots.get(key);
    if (!slot) return;
    this.#slots.delete(key);
    this.#bytes -= slot.response.bytes;
  }
}
