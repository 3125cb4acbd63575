/** The public entry of `workers/`: what the daemon, the CLI and tests use. */
export {
  createEventProducer,
  type EventProducer,
  type EventProducerOptions,
  type ProducerStats,
} from './producer.js';
export { EVENTS_QUEUE, WEBHOOKS_QUEUE, DEFAULT_PREFIX, bullPrefix, toJobId, fromJobId } from './queues.js';
export {
  RULE_NAMES,
  defaultAlertsConfig,
  loadAlertsConfig,
  parseAlertsConfig,
  type AlertsConfig,
  type RuleName,
  type RuleSettings,
  type SubscriberConfig,
} from './rules-file.js';
export { evaluate, initialState } from './alerts/rules.js';
export type { Alert, GameRuleState } from './alerts/types.js';
export { createAlertWorker, type AlertWorker, type AlertWorkerOptions } from './alerts/worker.js';
export { createWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './webhooks/worker.js';
export { openFailedDeliveries, type FailedDelivery, type FailedDeliveries } from './webhooks/failed.js';
export { deliverWebhook, USER_AGENT } from './webhooks/deliver.js';
export { signPayload, verifySignature } from './webhooks/signature.js';
export { assertDeliverableUrl, isForbiddenAddress } from './webhooks/address-guard.js';
