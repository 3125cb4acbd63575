import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The spec's endpoint table, read from `../shared/spec/espn-basketball-api.md` so the registry
 * is checked against the document itself rather than a copy of it.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const SPEC_FILE = resolve(
  process.env.COURTSIDE_SPEC ?? join(here, '..', '..', '..', 'shared', 'spec', 'espn-basketball-api.md'),
);
export const HAVE_SPEC = existsSync(SPEC_FILE);
export const NO_SPEC_REASON = `spec not found at ${SPEC_FILE} (set COURTSIDE_SPEC or place ../shared beside the repository)`;

export interface SpecParam {
  /** Name sent upstream. */
  upstream: string;
  /** Client name (same as upstream unless the table says `(client: x)`). */
  client: string;
  where: 'path' | 'query';
}

export interface SpecRow {
  suffix: string;
  leagues: ('mens' | 'womens')[];
  path: string;
  params: SpecParam[];
  result: string;
}

export function readEndpointTable(): SpecRow[] {
  const text = readFileSync(SPEC_FILE, 'utf8');
  const start = text.indexOf('## Endpoints');
  const end = text.indexOf('### Parameter shapes', start);
  const section = text.slice(start, end);
  const rows: SpecRow[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| Suffix') || line.startsWith('|---')) continue;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const [suffix, leagues, path, params, result] = cells as [string, string, string, string, string];
    rows.push({
      suffix,
      leagues: leagues === 'both' ? ['mens', 'womens'] : leagues === "men's" ? ['mens'] : ['womens'],
      path,
      params: parseParams(params),
      result,
    });
  }
  return rows;
}

function parseParams(cell: string): SpecParam[] {
  if (cell === 'none') return [];
  const out: SpecParam[] = [];
  for (const part of cell.split(';')) {
    const m = /^\s*(path|query):\s*(.*)$/.exec(part);
    if (!m) throw new Error(`unreadable parameter cell: ${cell}`);
    const where = m[1] as 'path' | 'query';
    for (const item of (m[2] as string).split(',')) {
      const p = /^\s*([a-z_]+)(?:\s*\(client:\s*([a-z_]+)\))?\s*$/.exec(item);
      if (!p) throw new Error(`unreadable parameter: ${item}`);
      const upstream = p[1] as string;
      out.push({ upstream, client: p[2] ?? upstream, where });
    }
  }
  return out;
}

/** The spec's path with its league placeholders filled in for `league`. */
export function specPath(path: string, league: 'mens' | 'womens'): string {
  const segment = league === 'mens' ? 'nba' : 'wnba';
  return path.replace(/\{league(?:_mens|_womens)?\}/, segment);
}
