import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import type { Logger } from '../../src/core/log.js';

export interface LinkOptions {
  url: string;
  username?: string;
  password?: string;
  clientId: string;
  qos: 0 | 1 | 2;
  /** Published, retained, by the broker when the connection dies: the daemon is gone. */
  will: { topic: string; payload: string; retain: boolean };
  /** Runs on every connection, before anything queued is sent: announce and publish the state. */
  onConnect: (link: MqttLink) => void;
  /** Topics to subscribe on every connection, with the handler of their messages. */
  subscriptions?: { topic: string; onMessage: (payload: string) => void }[];
  logger: Logger;
  /** Where the subscriber is named in logs (never with its password). */
  name: string;
  /** First wait before a reconnection, doubled on each failure up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

// Events not yet acknowledged by the broker are kept for the next connection: a few hours of a
// full slate's scores and alerts for a handful of teams. Beyond it the oldest go (and are logged).
const MAX_PENDING = 2_000;
// A clean stop waits this long for the broker to take the `offline` message.
const CLOSE_WAIT_MS = 2_000;

/**
 * One MQTT connection of a subscriber, kept up with backoff. Each attempt is a new client, so
 * nothing MQTT.js queued on a dead connection is sent again behind the state published since: what
 * must survive an outage is the current state (sent again by `onConnect`) and the events not yet
 * acknowledged (`event`, sent again in order). Retained state published while disconnected is
 * dropped; `onConnect` publishes the newest.
 */
export class MqttLink {
  private client: MqttClient | null = null;
  private readonly pending = new Map<string, { topic: string; payload: string }>();
  private backoffMs: number;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private failuresLogged = 0;

  constructor(private readonly options: LinkOptions) {
    this.backoffMs = options.minBackoffMs ?? 500;
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  start(): void {
    if (this.closed || this.client) return;
    const o = this.options;
    const clientOptions: IClientOptions = {
      clientId: o.clientId,
      username: o.username,
      password: o.password,
      clean: true,
      // Reconnection is this class's, with backoff and a fresh client each time.
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      keepalive: 30,
      will: { topic: o.will.topic, payload: Buffer.from(o.will.payload), qos: o.qos, retain: o.will.retain },
    };
    const client = connect(o.url, clientOptions);
    this.client = client;
    client.on('connect', () => {
      if (this.client !== client) return;
      this.options.logger.info({ subscriber: o.name }, 'mqtt connected');
      this.backoffMs = o.minBackoffMs ?? 500;
      this.failuresLogged = 0;
      for (const s of o.subscriptions ?? []) client.subscribe(s.topic, { qos: 0 });
      o.onConnect(this);
      for (const [id, message] of this.pending) this.send(id, message);
    });
    client.on('message', (topic, payload) => {
      o.subscriptions?.find((s) => s.topic === topic)?.onMessage(payload.toString('utf8'));
    });
    client.on('error', (err) => {
      // Every failed attempt says why; after a few, only every tenth, so an outage of hours does
      // not fill the log.
      if (this.failuresLogged < 3 || this.failuresLogged % 10 === 0) {
        o.logger.warn(
          { subscriber: o.name, err: err.message },
          'mqtt connection failed; retrying with backoff',
        );
      }
      this.failuresLogged += 1;
    });
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners('connect');
      client.end(true);
      if (this.closed) return;
      const wait = this.backoffMs;
      this.backoffMs = Math.min(this.backoffMs * 2, o.maxBackoffMs ?? 30_000);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.start();
      }, wait);
      this.retryTimer.unref();
    });
  }

  /** A state or config: sent now when connected, else left to the next `onConnect`. */
  publish(topic: string, payload: string, retain: boolean): void {
    if (!this.connected) return;
    this.client!.publish(topic, payload, { qos: this.options.qos, retain }, () => undefined);
  }

  /** A moment (an event entity's message, a plain event): kept until the broker acknowledges it. */
  event(id: string, topic: string, payload: string): void {
    if (this.pending.has(id)) return;
    if (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next().value as string;
      this.pending.delete(oldest);
      this.options.logger.warn(
        { subscriber: this.options.name, dropped: oldest },
        'mqtt backlog full; oldest dropped',
      );
    }
    const message = { topic, payload };
    this.pending.set(id, message);
    if (this.connected) this.send(id, message);
  }

  /** Messages published but not yet acknowledged. */
  get backlog(): number {
    return this.pending.size;
  }

  private send(id: string, message: { topic: string; payload: string }): void {
    const client = this.client!;
    client.publish(message.topic, message.payload, { qos: this.options.qos, retain: false }, (err) => {
      // Not taken (the connection closed first): it stays pending for the next connection.
      if (!err) this.pending.delete(id);
    });
  }

  /** Says `offline` (a clean stop sends no last will), then disconnects. */
  async close(offline: { topic: string; payload: string }): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    if (!client) return;
    if (client.connected) {
      await Promise.race([
        client.publishAsync(offline.topic, offline.payload, { qos: this.options.qos, retain: true }),
        new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
      ]).catch(() => undefined);
    }
    // A connection still being made has nothing to finish: forced, or `end` would wait for it.
    await client.endAsync(!client.connected).catch(() => undefined);
  }
}
