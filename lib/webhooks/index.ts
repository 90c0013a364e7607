import "server-only";
/** Signed callbacks (Standard Webhooks). Delivery goes through the egress guard; see docs/security.md. */
export {
  signWebhook,
  verifyWebhook,
  generateWebhookSecret,
  generateWebhookId,
  webhookKey,
  type WebhookHeaders,
  type WebhookVerification,
} from "./sign";
export { deliverWebhook, type WebhookDelivery, type DeliverOptions } from "./deliver";
export { nextRetryDelay, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from "./retry";
