import { describe, expect, it } from 'vitest';
import { RecentIds } from '../../../workers/alerts/recent-ids.js';

describe('RecentIds', () => {
  it('keeps the most recently added ids up to its capacity, forgetting the oldest first', () => {
    const ids = new RecentIds(3);
    for (const id of ['a', 'b', 'c']) ids.add(id);
    ids.add('a'); // re-adding makes it the newest
    ids.add('d');
    expect(['a', 'b', 'c', 'd'].map((id) => ids.has(id))).toEqual([true, false, true, true]);
  });
});
