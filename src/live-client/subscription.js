// @ts-check
// One subscription of the client library: its filters, where to resume it, the ids it delivered
// lately, and the async iterators over what it delivers. Plain ES module, served beside
// courtside.js.
import { Emitter } from './emitter.js';

/**
 * @typedef {Record<string, any>} Obj
 * @typedef {import('./options.js').StateChange} StateChange
 * @typedef {{ _drop(sub: Subscription, tell: boolean): void }} Owner the client holding it
 */

/**
 * Ids of the events delivered lately, oldest forgotten first: memory stays flat on a long feed.
 */
class RecentIds {
  /** @param {number} size */
  constructor(size) {
    this.size = size;
    /** @type {Set<string>} */
    this.set = new Set();
  }

  /** @param {string} id @returns {boolean} true when the id is new */
  add(id) {
    if (this.set.has(id)) return false;
    this.set.add(id);
    // A Set iterates in insertion order: its first entry is the oldest.
    if (this.set.size > this.size) this.set.delete(/** @type {string} */ (this.set.values().next().value));
    return true;
  }
}

/**
 * A queue feeding `for await`: pushes wake a waiting reader, `end` finishes every reader.
 * @template T
 */
class Feed {
  /** @param {() => void} detach */
  constructor(detach) {
    /** @type {T[]} */
    this.items = [];
    /** @type {((r: IteratorResult<T>) => void) | undefined} */
    this.waiting = undefined;
    /** @type {((e: unknown) => void) | undefined} */
    this.failing = undefined;
    this.done = false;
    /** @type {unknown} */
    this.error = undefined;
    this.detach = detach;
  }

  /** @param {T} item */
  push(item) {
    if (this.done) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failing = undefined;
      resolve({ value: item, done: false });
    } else this.items.push(item);
  }

  /** @param {unknown} [error] */
  end(error) {
    if (this.done) return;
    this.done = true;
    this.error = error;
    this.detach();
    if (this.waiting) {
      const resolve = this.waiting;
      const reject = this.failing;
      this.waiting = this.failing = undefined;
      if (error !== undefined && reject && this.items.length === 0) reject(error);
      else resolve({ value: undefined, done: true });
    }
  }

  /** @returns {AsyncIterableIterator<T>} */
  iterator() {
    return {
      next: () => {
        if (this.items.length > 0)
          return Promise.resolve({ value: /** @type {T} */ (this.items.shift()), done: false });
        if (this.done) {
          if (this.error !== undefined) {
            const error = this.error;
            this.error = undefined;
            return Promise.reject(error);
          }
          return Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => {
          this.waiting = resolve;
          this.failing = reject;
        });
      },
      return: () => {
        this.items = [];
        this.error = undefined;
        this.end();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}

/**
 * One subscription: its filters, where to resume it, and what it has delivered.
 * @extends {Emitter<{ event: [Obj], snapshot: [Obj], gap: [Obj], state: [StateChange], error: [Error], end: [] }>}
 */
export class Subscription extends Emitter {
  /**
   * @param {Owner} client
   * @param {string} id
   * @param {Obj} fields the subscribe message's filters, snapshot and delay
   * @param {boolean} snapshot
   * @param {string | undefined} since
   * @param {number} dedupeWindow
   */
  constructor(client, id, fields, snapshot, since, dedupeWindow) {
    super();
    this.client = client;
    this.id = id;
    this.fields = fields;
    this.snapshot = snapshot;
    /** Where a resume starts: the offset of the last event received, or the `subscribed` one. */
    this.since = since;
    this.seen = new RecentIds(dedupeWindow);
    /** Whether the daemon confirmed this subscription on the current connection. */
    this.active = false;
    this.ended = false;
    /** Counts, for a page's status line and for tests. */
    this.stats = { events: 0, duplicates: 0, snapshots: 0, gaps: 0 };
  }

  /** The subscribe message for the current connection. */
  message() {
    /** @type {Obj} */
    const msg = { op: 'subscribe', id: this.id, ...this.fields };
    if (this.since !== undefined) msg.since = this.since;
    // Resuming needs no snapshot: the events since the offset bring the state up to date.
    if (this.snapshot && this.since === undefined) msg.snapshot = true;
    return msg;
  }

  /** Events only, in order; ends when the subscription ends, throws if the daemon refused it. */
  [Symbol.asyncIterator]() {
    return this.#feed(['event']);
  }

  /** Snapshots, gap notices and events, in the order they arrived. */
  messages() {
    return this.#feed(['snapshot', 'gap', 'event']);
  }

  /**
   * @param {Array<'event' | 'snapshot' | 'gap'>} kinds
   */
  #feed(kinds) {
    /** @type {Array<[any, (x: any) => void]>} */
    const listeners = [];
    /** @type {(error: Error) => void} */
    const onError = (error) => feed.end(error);
    const onEnd = () => feed.end();
    /** @type {Feed<any>} */
    const feed = new Feed(() => {
      for (const [name, fn] of listeners) this.off(name, fn);
      this.off('error', onError).off('end', onEnd);
    });
    for (const kind of kinds) {
      /** @param {Obj} x */
      const fn =
        kind === 'event'
          ? (/** @type {Obj} */ x) => feed.push(x)
          : kind === 'snapshot'
            ? (/** @type {Obj} */ x) => feed.push({ type: 'snapshot', game: x })
            : (/** @type {Obj} */ x) => feed.push({ type: 'gap', ...x });
      listeners.push([kind, fn]);
      this.on(kind, fn);
    }
    this.on('error', onError).on('end', onEnd);
    if (this.ended) feed.end();
    return feed.iterator();
  }

  /** Ends the subscription; no event of it is delivered afterwards. */
  unsubscribe() {
    this.client._drop(this, true);
  }

  /**
   * @param {Error} [error]
   */
  _end(error) {
    if (this.ended) return;
    this.ended = true;
    this.active = false;
    if (error) this.emit('error', error);
    this.emit('end');
  }
}
