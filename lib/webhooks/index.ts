import "server-only";
/** Signed callbacks (Standard Webhooks). Delivery goes through the egress guard; see docs/security.md. */
export {
  signWebhook,
  verifyWebhook,
  generateWebhookSecret,
  type WebhookHeaders,
  type WebhookVerification,
} from "./sign";
export { deliverWebhook, type WebhookDelivery, type DeliverOptions } from "./deliver";
export { nextRetryDelay, WEBHOOK_MAX_ATTEMPTS } from "./retry";
