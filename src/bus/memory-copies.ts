import type { CopyOffer } from './types.js';

/**
 * The memory bus's copy offers (see `Bus.offerCopy`): the best offer per game member, kept for its
 * TTL. Whether the game is stored (no offer needed) is the caller's to check first.
 */
export interface MemoryCopies {
  offer(member: string, owner: string, seq: number | null, ttlMs: number): CopyOffer | null;
  clear(): void;
}

export function createMemoryCopies(now: () => number): MemoryCopies {
  const offers = new Map<string, CopyOffer & { expiresAt: number }>();
  return {
    offer(member, owner, seq, ttlMs) {
      let best = offers.get(member);
      if (best !== undefined && best.expiresAt <= now()) {
        offers.delete(member);
        best = undefined;
      }
      if (seq !== null && (best === undefined || seq > best.seq || best.owner === owner)) {
        best = { owner, seq: Math.max(seq, best?.seq ?? seq), expiresAt: now() + ttlMs };
        offers.set(member, best);
      }
      return best === undefined ? null : { owner: best.owner, seq: best.seq };
    },

    clear() {
      offers.clear();
    },
  };
}
