import "server-only";
import crypto from "node:crypto";

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the receiver checks
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the shared secret
 * `whsec_<base64 key>`, and rejects stale timestamps to stop replays.
 */
export type WebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

const SECRET_PREFIX = "whsec_";

/** A new signing secret: "whsec_" + 24 random bytes in base64 (the format accounts store). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(24).toString("base64");
}

/** A new message id ("msg_..."); keep it across retries so receivers can de-duplicate. */
export function generateWebhookId(): string {
  return "msg_" + crypto.randomBytes(16).toString("base64url");
}

/** The HMAC key of a secret: the base64 part after "whsec_" (a secret without the prefix is base64 too). */
export function webhookKey(secret: string): Buffer {
  const b64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(b64, "base64");
  if (key.length === 0) throw new Error("webhook secret is empty or not base64");
  return key;
}

function sign(key: Buffer, id: string, timestamp: number, body: string | Buffer): string {
  return crypto.createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64");
}

/** The three headers of one delivery. `timestamp` is in seconds (or a Date); default now. */
export function signWebhook(input: {
  id: string;
  timestamp?: number | Date;
  body: string;
  secret: string;
}): WebhookHeaders {
  const ts = toSeconds(input.timestamp ?? new Date());
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(ts),
    "webhook-signature": `v1,${sign(webhookKey(input.secret), input.id, ts, input.body)}`,
  };
}

export type WebhookVerification = { ok: true; id: string; timestamp: number } | { ok: false; reason: string };

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : bag[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Checks a received webhook: a `v1` signature (the header may list several, space-separated)
 * must match, and the timestamp must be within `toleranceSeconds` (default 5 min) of now.
 * `body` must be the raw request body, byte for byte.
 */
export function verifyWebhook(
  headers: HeaderBag,
  body: string | Buffer,
  secret: string,
  opts: { toleranceSeconds?: number; now?: number | Date } = {},
): WebhookVerification {
  const id = header(headers, "webhook-id");
  const tsText = header(headers, "webhook-timestamp");
  const sigText = header(headers, "webhook-signature");
  if (!id || !tsText || !sigText)
    return { ok: false, reason: "missing webhook-id, webhook-timestamp or webhook-signature" };
  if (!/^\d+$/.test(tsText)) return { ok: false, reason: "webhook-timestamp is not a number of seconds" };
  const timestamp = Number(tsText);
  const now = toSeconds(opts.now ?? new Date());
  const tolerance = opts.toleranceSeconds ?? 300;
  if (Math.abs(now - timestamp) > tolerance)
    return { ok: false, reason: "webhook-timestamp is too old or too far in the future" };
  const expected = Buffer.from(sign(webhookKey(secret), id, timestamp, body));
  for (const part of sigText.split(" ")) {
    const [version, value] = part.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value);
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected))
      return { ok: true, id, timestamp };
  }
  return { ok: false, reason: "no matching v1 signature" };
}

function toSeconds(t: number | Date): number {
  return t instanceof Date ? Math.floor(t.getTime() / 1000) : Math.floor(t);
}
