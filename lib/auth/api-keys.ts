import "server-only";
import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { accounts, apiKeys } from "@/lib/db/schema";
import { sealSecret, openSecret } from "./secret-box";
import { cachedBalance, cachedKey, forgetKeys, rememberBalance, rememberKey } from "@/lib/db/embedded-cache";

const KEY_PREFIX = "qk_";

function hashApiKey(key: string): string {
  return crypto.createHash("sha256").update(key).digest("hex");
}

/** Creates a random, prefixed API key; stores only its SHA-256. Returns the key once. */
export async function createApiKey(accountId: string, name: string, kind: "user" | "dashboard" = "user") {
  const secret = KEY_PREFIX + crypto.randomBytes(24).toString("base64url");
  const db = await getDb();
  const [row] = await db
    .insert(apiKeys)
    .values({
      accountId,
      name,
      kind,
      prefix: secret.slice(0, 11),
      hash: hashApiKey(secret),
      encryptedSecret: kind === "dashboard" ? sealSecret(secret, "dashboard-key") : null,
    })
    .returning();
  return { key: publicKey(row), secret };
}

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function publicKey(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    kind: row.kind,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

const lastTouched = new Map<string, number>();
/** The exact last use of each key seen by this process (the database holds it to the minute). */
const lastUsed = new Map<string, number>();

/**
 * Finds the live key for a presented secret, with its account's balance in the same query (the
 * hot path of every request). Revocation takes effect at once: nothing is cached.
 */
export async function findApiKey(secret: string): Promise<(ApiKeyRow & { balance: number }) | null> {
  if (!secret || secret.length > 200) return null;
  const hash = hashApiKey(secret);
  const hit = cachedKey<ApiKeyRow>(hash);
  if (hit) {
    const balance = cachedBalance(hit.accountId);
    if (balance !== undefined) {
      touch(hit.id);
      return { ...hit, balance };
    }
  }
  const db = await getDb();
  const [found] = await db
    .select({ key: apiKeys, balance: accounts.balance })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!found) return null;
  const row = { ...found.key, balance: Number(found.balance) };
  rememberKey(hash, found.key);
  rememberBalance(row.accountId, row.balance);
  touch(row.id);
  return row;
}

/** last_used_at with minute precision: one write per key per minute, off the hot path. */
async function touch(id: string) {
  const now = Date.now();
  lastUsed.set(id, now);
  if ((lastTouched.get(id) ?? 0) >= now - 60_000) return;
  lastTouched.set(id, now);
  const db = await getDb();
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(apiKeys.id, id))
    .catch(() => {});
}

export async function listApiKeys(accountId: string) {
  const db = await getDb();
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(apiKeys.createdAt);
  // This process's own uses are exact; other processes' are in the database to the minute.
  return rows.map((row) => {
    const seen = lastUsed.get(row.id);
    return publicKey(seen && (!row.lastUsedAt || seen > row.lastUsedAt.getTime()) ? { ...row, lastUsedAt: new Date(seen) } : row);
  });
}

/** Revokes a key of the account; true if it existed and was live. */
export async function revokeApiKey(accountId: string, id: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning();
  forgetKeys();
  return rows.length > 0;
}

/** The key the dashboard proxy uses for this account on Quire's own engine (made on first use). */
export async function getDashboardKey(accountId: string): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.kind, "dashboard"), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (row?.encryptedSecret) return openSecret(row.encryptedSecret, "dashboard-key");
  return (await createApiKey(accountId, "Dashboard", "dashboard")).secret;
}
