/**
 * "Did you mean": the known name closest to a mistyped one, for the messages that refuse an
 * unknown operation or rules-file field. Closeness is the optimal-string-alignment distance (an
 * insertion, deletion, substitution or swap of two neighbours each counts one), so `lead_chnage`
 * is one step from `lead_change`.
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between a's first i characters and b's first j.
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to `word`, when it is close enough to be a slip of the keyboard (at most
 * a third of the word's length, and at least one, away); undefined otherwise. Case is ignored.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const typed = word.toLowerCase();
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed, name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
