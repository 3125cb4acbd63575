/**
 * What one `courtside serve` process does. `all` polls and serves (one process is a whole
 * deployment); `poller` polls ESPN and commits to the shared log, serving only health and metrics;
 * `gateway` serves viewers (WebSocket, SSE, HTTP) from the shared log and never polls, so viewer
 * capacity grows by adding gateways without adding load on ESPN.
 */
export const INSTANCE_ROLES = ['all', 'poller', 'gateway'] as const;
export type InstanceRole = (typeof INSTANCE_ROLES)[number];

/** Whether an instance of `role` runs the pollers (and the job producer that follows them). */
export function polls(role: InstanceRole): boolean {
  return role !== 'gateway';
}

/** Whether an instance of `role` serves viewers: streams, the HTTP API, overlays. */
export function servesViewers(role: InstanceRole): boolean {
  return role !== 'poller';
}
