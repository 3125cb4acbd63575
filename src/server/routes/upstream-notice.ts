import {
  CourtsideError,
  UpstreamBlockedError,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamTimeoutError,
} from '../../core/errors.js';

/**
 * How an upstream failure is told to a person: the start-up line of the daemon and the banner of
 * the home page say the same thing, including the way to run without ESPN.
 */
export const OFFLINE_HINT =
  'to run without it: `npm run demo` (courtside against its built-in simulator), or `--upstream <url>` for another ESPN-compatible server';

/** "ESPN" for ESPN's own hosts, "the upstream" for any other (the simulator, a proxy). */
export function upstreamName(upstream: string): string {
  let host = '';
  try {
    host = new URL(upstream).hostname;
  } catch {
    // Not a URL: configuration refuses those, so this is only a guard.
  }
  return host === 'espn.com' || host.endsWith('.espn.com') ? 'ESPN' : 'the upstream';
}

/** One sentence: what failed and why, e.g. `cannot reach ESPN at https://…: getaddrinfo ENOTFOUND …`. */
export function describeUpstreamFailure(upstream: string, error: unknown): string {
  const who = `${upstreamName(upstream)} at ${upstream}`;
  if (error instanceof UpstreamNetworkError) return `cannot reach ${who}: ${rootCause(error)}`;
  if (error instanceof UpstreamTimeoutError) {
    return `cannot reach ${who}: no answer within ${error.timeoutMs} ms`;
  }
  // Before the generic HTTP case: a block is cured by another User-Agent, not by waiting.
  if (error instanceof UpstreamBlockedError) return `${who} blocks this User-Agent: ${error.message}`;
  if (error instanceof UpstreamHttpError) return `${who} answers with errors: HTTP ${error.status}`;
  if (error instanceof CourtsideError) return `${who} fails: ${error.message}`;
  return `${who} fails: ${error instanceof Error ? error.message : String(error)}`;
}

/** The innermost cause's message: the socket's own words (ENOTFOUND, ECONNREFUSED), not fetch's. */
export function rootCause(error: unknown): string {
  let current: unknown = error;
  // A few levels at most in practice; the bound only guards against a cause that points at itself.
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause instanceof Error; depth++) {
    current = current.cause;
  }
  return current instanceof Error ? current.message : String(current);
}
