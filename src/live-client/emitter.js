// @ts-check
// A minimal typed event emitter for the browser and Node alike (no `node:events`, no RxJS).

/**
 * Listeners by event name. A listener that throws is reported on the console and never stops
 * the others or the connection: one broken render function must not end a live feed.
 * @template {Record<string, unknown[]>} Events
 */
export class Emitter {
  /** @type {Map<keyof Events, Set<(...args: any[]) => void>>} */
  #listeners = new Map();

  /**
   * @template {keyof Events} K
   * @param {K} name
   * @param {(...args: Events[K]) => void} listener
   * @returns {this}
   */
  on(name, listener) {
    if (typeof listener !== 'function')
      throw new TypeError(`on(${String(name)}): listener must be a function`);
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(listener);
    return this;
  }

  /**
   * @template {keyof Events} K
   * @param {K} name
   * @param {(...args: Events[K]) => void} listener
   * @returns {this}
   */
  off(name, listener) {
    this.#listeners.get(name)?.delete(listener);
    return this;
  }

  /**
   * @template {keyof Events} K
   * @param {K} name
   * @param {(...args: Events[K]) => void} listener
   * @returns {this}
   */
  once(name, listener) {
    /** @param {Events[K]} args */
    const wrapped = (...args) => {
      this.off(name, wrapped);
      listener(...args);
    };
    return this.on(name, wrapped);
  }

  /**
   * @template {keyof Events} K
   * @param {K} name
   * @param {Events[K]} args
   * @returns {boolean} whether any listener was called
   */
  emit(name, ...args) {
    const set = this.#listeners.get(name);
    if (!set || set.size === 0) return false;
    for (const listener of [...set]) {
      try {
        listener(...args);
      } catch (err) {
        console.error(`courtside client: a '${String(name)}' listener threw`, err);
      }
    }
    return true;
  }

  /**
   * @param {keyof Events} name
   * @returns {number}
   */
  listenerCount(name) {
    return this.#listeners.get(name)?.size ?? 0;
  }
}
