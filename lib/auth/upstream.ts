import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { upstreams } from "@/lib/db/schema";
import { getConfig } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { egressFetch } from "@/lib/egress";
import { getDashboardKey } from "./api-keys";
import { openSecret, sealSecret } from "./secret-box";

export interface ProxyTarget {
  baseUrl: string;
  apiKey: string;
  isRemote: boolean;
}

/** This server's own engine as seen from server code (loopback; main.ts sets QUIRE_INTERNAL_URL). */
export function engineBaseUrl(): string {
  return process.env.QUIRE_INTERNAL_URL ?? `http://127.0.0.1:${getConfig().port}`;
}

/**
 * Where the dashboard's calls for this account go, with which key: a remote service, or Quire's
 * own engine. Only lib/dashboard/server/upstream.ts calls it (the layering check keeps it so): the
 * key must not reach a remote address that was not checked and pinned through the egress guard.
 */
export async function getProxyTarget(accountId: string): Promise<ProxyTarget> {
  const db = await getDb();
  const [row] = await db.select().from(upstreams).where(eq(upstreams.accountId, accountId)).limit(1);
  if (row) return { baseUrl: row.baseUrl, apiKey: openSecret(row.apiKeyEncrypted, "upstream-key"), isRemote: true };
  return { baseUrl: engineBaseUrl(), apiKey: await getDashboardKey(accountId), isRemote: false };
}

/** The remote upstream as the settings page shows it (the key masked). */
export async function getRemoteUpstream(accountId: string) {
  const db = await getDb();
  const [row] = await db.select().from(upstreams).where(eq(upstreams.accountId, accountId)).limit(1);
  if (!row) return null;
  const key = openSecret(row.apiKeyEncrypted, "upstream-key");
  return { baseUrl: row.baseUrl, keyHint: `${key.slice(0, 4)}…${key.slice(-4)}`, updatedAt: row.updatedAt };
}

/**
 * Saves a remote upstream after testing it with the credit-balance call (through the egress
 * guard: a user cannot point the proxy at an internal address). Returns the remote balance.
 */
export async function setRemoteUpstream(accountId: string, baseUrl: string, apiKey: string): Promise<number> {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    throw new QuireError(452, "baseUrl: not a valid URL");
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new QuireError(452, "baseUrl: use an http(s) URL");
  const base = `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
  const r = await egressFetch(`${base}/v1/account/credit/balance`, {
    headers: { "x-api-key": apiKey },
    maxBytes: 64 * 1024,
    timeoutMs: 15_000,
    maxRedirects: 0,
    field: "baseUrl",
    acceptAnyStatus: true,
  });
  let body: { remainingCredits?: unknown } = {};
  try {
    body = JSON.parse(r.bytes.toString("utf8"));
  } catch {
    /* not JSON */
  }
  if (r.status !== 200 || typeof body.remainingCredits !== "number") {
    throw new QuireError(400, `baseUrl: the service did not accept the key (HTTP ${r.status} to /v1/account/credit/balance)`);
  }
  const db = await getDb();
  const values = { accountId, baseUrl: base, apiKeyEncrypted: sealSecret(apiKey, "upstream-key"), updatedAt: new Date() };
  await db.insert(upstreams).values(values).onConflictDoUpdate({ target: upstreams.accountId, set: values });
  return body.remainingCredits;
}

export async function clearRemoteUpstream(accountId: string) {
  const db = await getDb();
  await db.delete(upstreams).where(eq(upstreams.accountId, accountId));
}
