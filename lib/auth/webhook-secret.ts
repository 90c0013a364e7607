import "server-only";
import { openSecret, sealSecret } from "./secret-box";

/**
 * Webhook signing secrets are stored encrypted with the server secret (`sealed:` + AES-256-GCM),
 * so a copy of the database alone does not let anyone forge callbacks. Rows written before this
 * (plain `whsec_...`) are still read, and sealed the next time they are rotated.
 */
const PREFIX = "sealed:";

export function sealWebhookSecret(plain: string): string {
  return PREFIX + sealSecret(plain, "webhook-secret");
}

export function openWebhookSecret(stored: string): string {
  return stored.startsWith(PREFIX) ? openSecret(stored.slice(PREFIX.length), "webhook-secret") : stored;
}
