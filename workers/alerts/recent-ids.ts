/**
 * The ids most recently added, at most `capacity` of them (the oldest go first). The alert worker
 * remembers what it fired here as well as in Redis: a Redis restarted without persistence forgets
 * its fired marks, and the worker must not deliver those alerts a second time.
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity: number) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    // A Set iterates in insertion order: the first is the oldest.
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }
}
