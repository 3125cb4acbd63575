import { LEAGUE_SEGMENT } from '../core/leagues.js';
import { OPERATIONS, type OperationSpec } from '../espn/operations.js';

/** A request path resolved to one of the 44 operations. */
export interface RouteMatch {
  readonly operation: OperationSpec;
  /** Path parameters by client name (`team_id`, `athlete_id`), decoded. */
  readonly pathParams: Readonly<Record<string, string>>;
}

interface Route {
  readonly operation: OperationSpec;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Regexes built from the registry's path templates, so routing cannot drift from the client. */
const ROUTES: readonly Route[] = [...OPERATIONS.values()].map((operation) => {
  const names: string[] = [];
  const template = operation.path.replace('{league}', LEAGUE_SEGMENT[operation.league]);
  const source = template
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const m = /^\{([a-z_]+)\}$/.exec(part);
      if (!m?.[1]) return escape(part);
      names.push(m[1]);
      return '([^/]+)';
    })
    .join('');
  return { operation, pattern: new RegExp(`^${source}/?$`), names };
});

export function matchRoute(path: string): RouteMatch | undefined {
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    const pathParams: Record<string, string> = {};
    route.names.forEach((name, i) => {
      pathParams[name] = safeDecode(m[i + 1] ?? '');
    });
    return { operation: route.operation, pathParams };
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
