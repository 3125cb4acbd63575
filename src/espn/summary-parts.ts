/**
 * The top-level parts of a game's summary document (the site summary, and FastCast's game-package
 * document shaped like it) that courtside reads, as data. The engine reads four: `header` (status,
 * teams, scores: streams/summary-header.ts), `plays` (streams/play-diff.ts), `winprobability`
 * (streams/game-diff.ts) and `boxscore` (the roster for the foul-trouble graphics,
 * streams/situation-roster.ts); summary-merge.ts reads `header` and `plays` of the pushed
 * document. Nothing else reads the pushed document. test/streams/summary-parts.test.ts diffs
 * recorded summaries with every other part removed and checks that nothing changes.
 *
 * A pushed patch operation that fails on any other part (odds, pickcenter, predictor, news,
 * article, videos, againstTheSpread, ...) can be skipped without the document courtside reads
 * departing from the checkpoint's (fastcast-patch.ts).
 */
export const SUMMARY_READ_PARTS: ReadonlySet<string> = new Set([
  'header',
  'plays',
  'winprobability',
  'boxscore',
]);

/**
 * The parts of recorded summaries courtside does not read, by name: a skipped operation is counted
 * under its part when it is one of these, under `other` otherwise (the metric's labels stay a
 * fixed set whatever a server sends).
 */
export const SUMMARY_UNREAD_PARTS: readonly string[] = [
  'odds',
  'pickcenter',
  'predictor',
  'againstTheSpread',
  'news',
  'article',
  'videos',
  'standings',
  'seasonseries',
  'injuries',
  'broadcasts',
  'leaders',
  'gameInfo',
  'format',
  'meta',
  'wallclockAvailable',
  'teamInfo',
  'espnWP',
  'season',
  'timeouts',
];

const UNREAD_LABELS: ReadonlySet<string> = new Set(SUMMARY_UNREAD_PARTS);

/**
 * The top-level part a JSON Pointer (RFC 6901) lands in, unescaped; null for the whole document
 * (`""`) or a path that is not a pointer (one that does not start with `/`).
 */
export function partOf(pointer: string): string | null {
  if (!pointer.startsWith('/')) return null;
  const end = pointer.indexOf('/', 1);
  const token = end === -1 ? pointer.slice(1) : pointer.slice(1, end);
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Whether courtside reads what `pointer` designates: the whole document, a read part, or a path it cannot place. */
export function readsPointer(pointer: string): boolean {
  const part = partOf(pointer);
  return part === null || SUMMARY_READ_PARTS.has(part);
}

/** The metric label of an unread part: its name when known, `other` otherwise. */
export function unreadPartLabel(part: string | null): string {
  return part !== null && UNREAD_LABELS.has(part) ? part : 'other';
}
