import "server-only";
import type { ServerResponse } from "node:http";
import { getConfig } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { metrics } from "@/lib/core/metrics";
import { getDbHandle } from "@/lib/db/client";

export interface Take {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  fullInSeconds: number;
  /** Seconds until the next token (when refused). */
  retryAfterSeconds: number;
}

/** Embedded mode: one process owns the database, so the buckets live in its memory. */
const local = new Map<string, { tokens: number; at: number }>();

function takeLocal(key: string, burst: number, perSecond: number, now = Date.now()) {
  const b = local.get(key) ?? { tokens: burst, at: now };
  const tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * perSecond);
  const allowed = tokens >= 1;
  const left = allowed ? tokens - 1 : tokens;
  local.set(key, { tokens: left, at: now });
  if (local.size > 100_000) local.delete(local.keys().next().value!);
  return { allowed, tokens: left };
}

/**
 * Several nodes: one statement takes a token from the shared bucket (refilled by the time since
 * its last use) and says whether there was one, atomically under concurrent requests.
 */
async function takeShared(key: string, burst: number, perSecond: number) {
  const h = await getDbHandle();
  const r = await h.exec(
    `insert into rate_buckets as b (key, tokens, ok, updated_at) values ($1, $2::float8 - 1, true, now())
     on conflict (key) do update set
       ok = least($2::float8, b.tokens + extract(epoch from now() - b.updated_at) * $3::float8) >= 1,
       tokens = least($2::float8, b.tokens + extract(epoch from now() - b.updated_at) * $3::float8)
                - case when least($2::float8, b.tokens + extract(epoch from now() - b.updated_at) * $3::float8) >= 1 then 1 else 0 end,
       updated_at = now()
     returning tokens, ok`,
    [key, burst, perSecond],
  );
  return { allowed: Boolean(r.rows[0].ok), tokens: Number(r.rows[0].tokens) };
}

/** Takes one request from a key's token bucket (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST). */
export async function takeToken(key: string): Promise<Take | null> {
  const cfg = getConfig();
  const limit = cfg.rateLimit;
  if (!limit) return null;
  const { allowed, tokens } = cfg.embedded
    ? takeLocal(key, limit.burst, limit.perSecond)
    : await takeShared(key, limit.burst, limit.perSecond);
  return {
    allowed,
    remaining: Math.max(0, Math.floor(tokens)),
    fullInSeconds: Math.ceil((limit.burst - tokens) / limit.perSecond),
    retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / limit.perSecond)),
  };
}

/**
 * The API's rate limit for one authenticated caller: sets the IETF RateLimit-Policy / RateLimit
 * headers (draft-ietf-httpapi-ratelimit-headers) on every answer and refuses with 429 +
 * Retry-After when the key's bucket is empty.
 */
export async function enforceRateLimit(res: ServerResponse, keyId: string): Promise<void> {
  const limit = getConfig().rateLimit;
  const t = await takeToken(`key:${keyId}`);
  if (!limit || !t) return;
  const window = Math.ceil(limit.burst / limit.perSecond);
  res.setHeader("ratelimit-policy", `"per-key";q=${limit.burst};w=${window}`);
  res.setHeader("ratelimit", `"per-key";r=${t.remaining};t=${t.fullInSeconds}`);
  if (!t.allowed) {
    metrics().rateLimited.inc({ reason: "rate" });
    throw new QuireError(
      429,
      `Too many requests: this API key may make ${limit.perSecond} requests per second (bursts of ${limit.burst}). Try again in ${t.retryAfterSeconds} s.`,
      { retryAfterSeconds: t.retryAfterSeconds },
    );
  }
}

/** Drops buckets idle for a day (they would be full again anyway). */
export async function sweepRateBuckets() {
  if (getConfig().embedded) return;
  const h = await getDbHandle();
  await h.exec(`delete from rate_buckets where updated_at < now() - interval '1 day'`);
}
