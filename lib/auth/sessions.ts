import "server-only";
import crypto from "node:crypto";
import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { sessions } from "@/lib/db/schema";

/**
 * Server-side dashboard sessions. The session cookie (a next-auth JWT) carries a session id;
 * the id is valid only while its row exists, is not revoked and has not expired. Signing out
 * revokes the row, so a copied cookie stops working at once, on every node. Valid ids are
 * remembered for a few seconds per process (SESSION_CHECK_CACHE_MS) to keep page loads cheap.
 */
const CACHE_MS = Number(process.env.SESSION_CHECK_CACHE_MS ?? 5_000);
const g = globalThis as unknown as { __quireSessionCache?: Map<string, number> };
function cache(): Map<string, number> {
  g.__quireSessionCache ??= new Map();
  return g.__quireSessionCache;
}

export async function createSession(userId: string, maxAgeSeconds: number): Promise<string> {
  const id = crypto.randomBytes(32).toString("base64url");
  const db = await getDb();
  await db.insert(sessions).values({ id, userId, expiresAt: new Date(Date.now() + maxAgeSeconds * 1000) });
  return id;
}

export async function isSessionValid(id: string | undefined): Promise<boolean> {
  if (!id) return false;
  const until = cache().get(id);
  if (until && until > Date.now()) return true;
  const db = await getDb();
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row) {
    cache().delete(id);
    return false;
  }
  cache().set(id, Date.now() + CACHE_MS);
  return true;
}

export async function revokeSession(id: string | undefined): Promise<void> {
  if (!id) return;
  cache().delete(id);
  const db = await getDb();
  await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, id));
}

/** Signs a user out everywhere (password change, an administrator's action). */
export async function revokeUserSessions(userId: string): Promise<void> {
  cache().clear();
  const db = await getDb();
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/** Deletes rows that ended more than a day ago. */
export async function sweepSessions(): Promise<void> {
  const db = await getDb();
  const dayAgo = new Date(Date.now() - 86_400_000);
  await db.delete(sessions).where(or(lt(sessions.expiresAt, dayAgo), lt(sessions.revokedAt, dayAgo)));
}
