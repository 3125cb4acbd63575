import { DEFAULT_USER_AGENT } from '../core/version.js';

/**
 * The User-Agent forms ESPN's edge answers with a 403 (measured 2026-08-04), checked when a client
 * is created so a blocked agent fails at start-up rather than on every request. The simulator's
 * edge blocks by the same list, so both change together when ESPN's does.
 */

/** The form the edge accepts, as messages state it. */
export const ACCEPTED_USER_AGENT_FORM = `"Name/version (+https://your.site)", e.g. "${DEFAULT_USER_AGENT}"`;

const ACCEPTED = /^[A-Za-z0-9][\w.-]*\/[\w.+-]+ \(\+https?:\/\/[^\s)]+\)/;

const BLOCKED: readonly {
  readonly form: string;
  readonly test: (agent: string) => boolean;
  readonly named?: true;
}[] = [
  { form: 'an empty agent', test: (a) => a.trim() === '' },
  // Every current browser's agent starts with the Mozilla token.
  { form: 'a browser agent (Mozilla/...)', named: true, test: (a) => /^Mozilla\//.test(a) },
  { form: 'node-fetch', named: true, test: (a) => /^node-fetch\b/i.test(a) },
  { form: 'Deno', named: true, test: (a) => /^Deno\b/.test(a) },
  { form: 'Wget', named: true, test: (a) => /^Wget\b/i.test(a) },
  { form: 'PostmanRuntime', named: true, test: (a) => /^PostmanRuntime\b/.test(a) },
  {
    form: 'a bare product token (Name/version with no "(+https://...)")',
    test: (a) => /^[^\s/]+\/\S+$/.test(a),
  },
];

/** Which known-blocked form `agent` has, or undefined when it is not known to be blocked. */
export function blockedUserAgentForm(agent: string): string | undefined {
  // Named tools are blocked whatever follows their token (node-fetch's own agent carries a URL).
  const named = BLOCKED.find((rule) => rule.named && rule.test(agent));
  if (named) return named.form;
  if (ACCEPTED.test(agent)) return undefined;
  return BLOCKED.find((rule) => rule.test(agent))?.form;
}

/** The sentence that refuses `agent`, naming its form and the accepted one. */
export function blockedUserAgentMessage(agent: string, form: string): string {
  return (
    `User-Agent ${JSON.stringify(agent)} is ${form}, which ESPN's edge answers with 403 since 2026-08-04; ` +
    `use the form ${ACCEPTED_USER_AGENT_FORM}, or force it (forceUserAgent / --force-user-agent)`
  );
}
