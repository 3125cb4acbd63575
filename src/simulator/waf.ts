import { blockedUserAgentForm } from '../espn/user-agent.js';

/**
 * The edge in front of ESPN's API as measured since 2026-08-04: a web application firewall that
 * answers 403 with an HTML page, before any route, to the User-Agent forms users of other clients
 * reported blocked. Only those forms are blocked here (the same list the client checks at
 * start-up): an agent nobody measured (Node's own `node`, say) passes, so the simulator never
 * refuses more than ESPN is known to.
 */

/** The blocked form `agent` has, or undefined when the edge lets it through (none sent: blocked). */
export function blockedAgentForm(agent: string | undefined): string | undefined {
  return blockedUserAgentForm(agent ?? '');
}

/** The edge's answer: an HTML page, not JSON, as a WAF sends it. */
export const WAF_BODY =
  '<!DOCTYPE html>\n<html><head><title>403 Forbidden</title></head>' +
  '<body><h1>403 Forbidden</h1><p>Request blocked.</p></body></html>\n';
