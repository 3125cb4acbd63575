import type { Queue } from 'bullmq';
import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';
import type { GameEvent } from '../../src/model/events.js';
import type { Logger } from '../../src/core/log.js';
import { alertsFired, alertsStale } from '../../src/core/metrics.js';
import { displayUrl } from '../destinations/redact.js';
import type { AlertsConfig, SubscriberConfig } from '../rules-file.js';
import { idempotencyKey, webhookJobOptions, type WebhookJobData } from '../webhooks/jobs.js';
import { gameFilter, wantsGame, type GameFilter } from './game-filter.js';
import { RecentIds } from './recent-ids.js';
import type { TeamColors } from './team-colors.js';
import type { Alert } from './types.js';

/** An alert's or event's way to the bot's subscribers (MQTT brokers aside: they apply in order). */
export interface AlertDeliveries {
  /**
   * Queues the alert's delivery jobs once: not when it was sent already (a fired mark, here or in
   * Redis) nor when it is older than `staleAfterSeconds`; then marks it fired and lists it.
   */
  sendAlert(alert: Alert, event: GameEvent): Promise<void>;
  /** Queues the event's delivery jobs for the subscribers that take events of its type. */
  sendEvent(event: GameEvent): Promise<void>;
}

export interface AlertDeliveriesOptions {
  config: AlertsConfig;
  /** The deployment's key prefix, where a worker of the previous version marked what it fired. */
  prefix: string;
  /** The bot's key prefix: its fired marks and alert list. */
  botPrefix: string;
  commands: Redis;
  webhooks: Queue<WebhookJobData>;
  colors: TeamColors;
  now: () => number;
  logger: Logger;
  onAlert?: ((alert: Alert) => void) | undefined;
}

// Alerts kept in `<prefix>alerts` for inspection (newest first).
const ALERT_LIST_LENGTH = 1_000;
// An alert key only has to outlive any replay of its game: a week.
const FIRED_TTL_SECONDS = 7 * 24 * 3600;
// A full slate fires well under a thousand alerts an evening: this covers weeks, in a few MB.
const FIRED_IN_MEMORY = 50_000;

type Delivery = { id: string; name: string; kind: 'alert' | 'event'; body: Alert | GameEvent };

export function alertDeliveries(options: AlertDeliveriesOptions): AlertDeliveries {
  const { config, prefix, botPrefix, commands, webhooks, colors, now, logger } = options;
  const firedHere = new RecentIds(FIRED_IN_MEMORY);
  const subscriberFilters = new Map<SubscriberConfig, GameFilter>();

  function subscribed(sub: SubscriberConfig, event: GameEvent): boolean {
    let filter = subscriberFilters.get(sub);
    if (!filter) {
      filter = gameFilter({ ...sub, leagues: sub.leagues ?? config.leagues });
      subscriberFilters.set(sub, filter);
    }
    return wantsGame(filter, event);
  }

  /**
   * One webhook job per subscriber. The job ids derive from the alert's or event's id, so queueing
   * the same delivery again (a retry, a replay) adds nothing.
   */
  async function queueDeliveries(
    targets: readonly SubscriberConfig[],
    delivery: Delivery,
    event: GameEvent,
  ): Promise<void> {
    if (targets.length === 0) return;
    await webhooks.addBulk(
      targets.map((sub) => {
        const key = idempotencyKey(delivery.id, sub.id);
        return {
          name: delivery.name,
          data: {
            subscriberId: sub.id,
            destination: sub.kind,
            url: displayUrl(sub),
            idempotencyKey: key,
            kind: delivery.kind,
            payload: { kind: delivery.kind, ...delivery.body },
            queuedAt: new Date(now()).toISOString(),
            eventTimeMs: Date.parse(event.at),
          },
          opts: webhookJobOptions(key, config.attempts, config.backoffMs),
        };
      }),
    );
  }

  return {
    async sendAlert(alert, event) {
      // Already sent (a replay after a restart) is not "stale": check that first.
      const firedKey = `${botPrefix}alerts:fired:${alert.id}`;
      // The unscoped key is where a worker of the previous version (one bot per Redis) marked it.
      const legacyKey = `${prefix}alerts:fired:${alert.id}`;
      if (firedHere.has(alert.id) || (await commands.exists(firedKey, legacyKey)) > 0) return;
      const ageMs = now() - Date.parse(alert.at);
      if (ageMs > config.staleAfterSeconds * 1000) {
        alertsStale.inc();
        logger.debug({ alert: alert.id, ageMs }, 'stale alert dropped');
        return;
      }
      const targets = config.subscribers.filter(
        (sub) =>
          sub.kind !== 'mqtt' &&
          (sub.alerts === undefined || sub.alerts.includes('*') || sub.alerts.includes(alert.rule)) &&
          subscribed(sub, event),
      );
      const colored = { ...alert, colors: await colors.of(alert.league, alert.gameId) };
      // Webhook jobs first (their ids make a repeat a no-op), then the fired mark: a crash in between
      // re-runs this alert on retry without a second delivery.
      await queueDeliveries(targets, { id: alert.id, name: alert.rule, kind: 'alert', body: colored }, event);
      await commands
        .multi()
        .lpush(`${botPrefix}alerts`, JSON.stringify(colored))
        .ltrim(`${botPrefix}alerts`, 0, ALERT_LIST_LENGTH - 1)
        .set(firedKey, '1', 'EX', FIRED_TTL_SECONDS)
        .exec();
      firedHere.add(alert.id);
      alertsFired.inc({ rule: alert.rule });
      logger.info({ alert: alert.id, text: alert.text }, 'alert');
      options.onAlert?.(colored);
    },

    async sendEvent(event) {
      // Chat subscribers take alerts only (their `events` is always empty).
      const targets = config.subscribers.filter(
        (sub) => sub.events.includes(event.type) && subscribed(sub, event),
      );
      await queueDeliveries(targets, { id: event.id, name: event.type, kind: 'event', body: event }, event);
    },
  };
}
