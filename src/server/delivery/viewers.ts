import { framesSent, sseConnections, wsConnections } from '../../core/metrics.js';
import type { Logger } from '../../core/log.js';
import type { Offset } from '../../bus/types.js';
import type { GatewayLimits } from '../viewer-protocol.js';
import type { LiveFeed } from '../live-feed.js';
import type { Connection, SinkHost, Sink } from './sink.js';
import type { ReplyFrame } from './frames.js';
import type { Subscription } from './subscription.js';

/**
 * The open viewers of one transport and their subscriptions' place in the live feed: what the
 * WebSocket gateway and the SSE endpoint share about bookkeeping (connection gauge, frame counts,
 * registering and forgetting subscriptions).
 */
export class ViewerSet<F extends ReplyFrame, C extends Connection> implements SinkHost {
  readonly sinks = new Set<Sink<F, C>>();
  framesSent = 0;
  subscriptions = 0;
  readonly maxBufferedBytes: number;
  readonly logger: Logger;
  private readonly feed: Pick<LiveFeed, 'index' | 'cursor'>;
  private readonly gauge;
  // Bound once: a labelled child skips hashing the labels on every flush.
  private readonly framesMetric;

  constructor(
    kind: 'ws' | 'sse',
    options: { feed: Pick<LiveFeed, 'index' | 'cursor'>; limits: GatewayLimits; logger: Logger },
  ) {
    this.feed = options.feed;
    this.maxBufferedBytes = options.limits.maxBufferedBytes;
    this.logger = options.logger;
    this.gauge = kind === 'ws' ? wsConnections : sseConnections;
    this.framesMetric = framesSent.labels({ kind });
  }

  get size(): number {
    return this.sinks.size;
  }

  add(sink: Sink<F, C>): void {
    this.sinks.add(sink);
    this.gauge.inc();
  }

  /**
   * Files the subscription with its sink and in the live feed's index, and returns the feed's
   * position: registered and positioned in the same tick, live events after it reach the
   * subscription (held until it goes live).
   */
  subscribe(sink: Sink<F, C>, sub: Subscription): Offset {
    sink.subs.set(sub.id, sub);
    this.subscriptions += 1;
    this.feed.index.add(sub);
    return this.feed.cursor;
  }

  unsubscribed(sub: Subscription): void {
    this.feed.index.remove(sub);
    this.subscriptions -= 1;
  }

  released(sink: object): void {
    if (this.sinks.delete(sink as Sink<F, C>)) this.gauge.dec();
  }

  sent(count: number): void {
    this.framesSent += count;
    this.framesMetric.inc(count);
  }
}
