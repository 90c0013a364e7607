import "server-only";
import { isQuireError } from "@/lib/core/errors";
import { egressFetch } from "@/lib/egress/fetch";
import type { EgressPolicy } from "@/lib/egress/policy";
import type { LookupFn } from "@/lib/egress/check-url";
import { generateWebhookId, signWebhook } from "./sign";

export interface WebhookDelivery {
  /** true for a 2xx answer. */
  ok: boolean;
  /** HTTP status of the answer; 0 when none came (refused, unreachable, timeout). */
  status: number;
  /** Why it failed, for the outbox log and the dashboard; undefined when ok. */
  error?: string;
  /** false when trying again cannot help (the URL is invalid or forbidden). */
  retryable: boolean;
  /** The webhook-id that was sent. */
  id: string;
}

export interface DeliverOptions {
  /** Total time for the POST (default 15 s). */
  timeoutMs?: number;
  /** Message id; pass the same one on every retry of one event (default: a new msg_ id). */
  id?: string;
  /** Signing time in seconds (default now). */
  timestamp?: number;
  /** Injected resolver and allow-list (tests). */
  lookup?: LookupFn;
  policy?: EgressPolicy | string;
}

/**
 * POSTs one signed JSON callback through the egress guard. Redirects are never followed (a 3xx
 * is a failed delivery) and the receiver's answer body is capped. Never throws.
 */
export async function deliverWebhook(
  url: string,
  body: unknown,
  secret: string,
  opts: DeliverOptions = {},
): Promise<WebhookDelivery> {
  const id = opts.id ?? generateWebhookId();
  const text = typeof body === "string" ? body : JSON.stringify(body);
  try {
    const headers = signWebhook({ id, timestamp: opts.timestamp, body: text, secret });
    const res = await egressFetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": "Quire-Webhooks/1" },
      body: text,
      maxRedirects: 0,
      acceptAnyStatus: true,
      maxBytes: 1024 * 1024,
      timeoutMs: opts.timeoutMs ?? 15_000,
      field: "callback",
      lookup: opts.lookup,
      policy: opts.policy,
    });
    const ok = res.status >= 200 && res.status <= 299;
    return {
      ok,
      status: res.status,
      error: ok
        ? undefined
        : `callback: the receiver answered ${res.status}${res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : ""}`,
      retryable: !ok,
      id,
    };
  } catch (e) {
    const status = isQuireError(e) ? e.status : 0;
    const message = e instanceof Error ? e.message : String(e);
    // A bad or forbidden URL stays bad; timeouts, refusals to connect and oversize answers may pass later.
    return { ok: false, status: 0, error: message, retryable: status !== 452 && status !== 403, id };
  }
}
