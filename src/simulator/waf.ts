/**
 * The edge in front of ESPN's API as measured since 2026-08-04: a web application firewall that
 * answers 403 with an HTML page, before any route, to the User-Agent forms users of other clients
 * reported blocked. Only those forms are blocked here: an agent nobody measured (Node's own `node`,
 * say) passes, so the simulator never refuses more than ESPN is known to.
 */

/** The one form reported accepted: `Name/version (+https://...)`. */
export const ACCEPTED_AGENT = /^[A-Za-z0-9][\w.-]*\/[\w.+-]+ \(\+https?:\/\/[^\s)]+\)/;

const BLOCKED_AGENTS: readonly {
  readonly form: string;
  readonly test: (agent: string) => boolean;
  readonly named?: true;
}[] = [
  { form: 'an empty agent', test: (a) => a.trim() === '' },
  // Every current browser's agent starts with the Mozilla token.
  { form: 'a browser agent', named: true, test: (a) => /^Mozilla\//.test(a) },
  { form: 'node-fetch', named: true, test: (a) => /^node-fetch\b/i.test(a) },
  { form: 'Deno', named: true, test: (a) => /^Deno\b/.test(a) },
  { form: 'Wget', named: true, test: (a) => /^Wget\b/i.test(a) },
  { form: 'PostmanRuntime', named: true, test: (a) => /^PostmanRuntime\b/.test(a) },
  // `MyApp/1.0`: a product token with nothing after it.
  { form: 'a bare product token', test: (a) => /^[^\s/]+\/\S+$/.test(a) },
];

/** The blocked form `agent` has, or undefined when the edge lets it through. */
export function blockedAgentForm(agent: string | undefined): string | undefined {
  const value = agent ?? '';
  // Named tools are blocked whatever follows their token (node-fetch's own agent carries a URL).
  const named = BLOCKED_AGENTS.find((rule) => rule.named && rule.test(value));
  if (named) return named.form;
  if (ACCEPTED_AGENT.test(value)) return undefined;
  return BLOCKED_AGENTS.find((rule) => rule.test(value))?.form;
}

/** The edge's answer: an HTML page, not JSON, as a WAF sends it. */
export const WAF_BODY =
  '<!DOCTYPE html>\n<html><head><title>403 Forbidden</title></head>' +
  '<body><h1>403 Forbidden</h1><p>Request blocked.</p></body></html>\n';
