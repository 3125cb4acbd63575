/**
 * Upstream responses held by the client: the parsed body, its validators (`ETag`,
 * `Last-Modified`) and when it was stored. An entry past its TTL is not served as is, but
 * its validators still make the next request conditional, and a 304 puts it back in service.
 */

export interface CachedResponse {
  /** Parsed JSON, shared by every caller that gets it: treat as read-only. */
  readonly body: unknown;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  /** When the upstream last confirmed this body (200 or 304), in ms of the client clock. */
  readonly storedAt: number;
}

export class ResponseCache {
  readonly #entries = new Map<string, CachedResponse>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The held entry whatever its age (for validators), or undefined. */
  held(key: string): CachedResponse | undefined {
    return this.#entries.get(key);
  }

  /** The held entry if younger than `ttlMs` at `now`. */
  fresh(key: string, ttlMs: number, now: number): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry || now - entry.storedAt >= ttlMs) return undefined;
    // Re-insert so the Map's order is least-recently-used first.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}
