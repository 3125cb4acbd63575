import type { LeaseGrant } from './types.js';

/** The memory bus's leases: an owner and an expiry per game member, fenced like Redis's. */
export interface MemoryLeases {
  /** Whether `owner` holds the game's lease and it has not expired. */
  holds(member: string, owner: string): boolean;
  acquire(member: string, owner: string, ttlMs: number): LeaseGrant;
  release(member: string, owner: string): void;
  clear(): void;
}

interface Lease {
  owner: string;
  expiresAt: number;
}

export function createMemoryLeases(now: () => number): MemoryLeases {
  const leases = new Map<string, Lease>();
  return {
    holds(member, owner) {
      const lease = leases.get(member);
      return lease !== undefined && lease.owner === owner && lease.expiresAt > now();
    },

    acquire(member, owner, ttlMs) {
      const lease = leases.get(member);
      const live = lease !== undefined && lease.expiresAt > now();
      if (live && lease.owner !== owner) return false;
      leases.set(member, { owner, expiresAt: now() + ttlMs });
      return live ? 'renewed' : 'taken';
    },

    release(member, owner) {
      if (leases.get(member)?.owner === owner) leases.delete(member);
    },

    clear() {
      leases.clear();
    },
  };
}
