import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { upstreams } from "@/lib/db/schema";
import { verifyUserPassword, findUserByEmail as findUserRow } from "@/lib/auth/users";
import { getDashboardKey } from "@/lib/auth/api-keys";
import { openSecret, sealSecret } from "@/lib/auth/secret-box";

/**
 * The dashboard's one doorway to the lead's server modules (users, keys, upstream, database).
 * Every caller in app/ goes through here, so a change of those modules is a one-file change.
 */

export interface DashboardUser {
  id: string;
  accountId: string;
  email: string;
  name: string;
  role: "admin" | "user";
}

export interface ProxyTarget {
  baseUrl: string;
  apiKey: string;
  isRemote: boolean;
}

/** Checks an email + password against Quire's users (scrypt hashes). */
export async function verifyUser(email: string, password: string): Promise<DashboardUser | null> {
  return verifyUserPassword(email, password);
}

/** Finds a user by email (OIDC sign-in maps the identity provider's email to a Quire user). */
export async function findUserByEmail(email: string): Promise<DashboardUser | null> {
  const row = await findUserRow(email);
  return row ? { id: row.id, accountId: row.accountId, email: row.email, name: row.name, role: row.role } : null;
}

/** This server's own engine, as seen from server code. */
export function engineBaseUrl(): string {
  return process.env.QUIRE_INTERNAL_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
}

const SEAL_PURPOSE = "upstream-key";

/** Where the proxy sends an account's calls, and with which key. */
export async function getTarget(accountId: string): Promise<ProxyTarget> {
  const db = await getDb();
  const [row] = await db.select().from(upstreams).where(eq(upstreams.accountId, accountId)).limit(1);
  if (row) return { baseUrl: row.baseUrl, apiKey: openSecret(row.apiKeyEncrypted, SEAL_PURPOSE), isRemote: true };
  return { baseUrl: engineBaseUrl(), apiKey: await getDashboardKey(accountId), isRemote: false };
}

/** The remote upstream of an account (without its key), or null for Quire's own engine. */
export async function getRemoteUpstream(accountId: string): Promise<{ baseUrl: string; keyHint: string } | null> {
  const db = await getDb();
  const [row] = await db.select().from(upstreams).where(eq(upstreams.accountId, accountId)).limit(1);
  if (!row) return null;
  const key = openSecret(row.apiKeyEncrypted, SEAL_PURPOSE);
  return { baseUrl: row.baseUrl, keyHint: key.length > 8 ? `${key.slice(0, 4)}…${key.slice(-2)}` : "••••" };
}

/** Points an account's dashboard at a remote service that speaks the same API (key sealed at rest). */
export async function saveRemoteUpstream(accountId: string, baseUrl: string, apiKey: string): Promise<void> {
  const db = await getDb();
  const values = { accountId, baseUrl, apiKeyEncrypted: sealSecret(apiKey, SEAL_PURPOSE), updatedAt: new Date() };
  await db
    .insert(upstreams)
    .values(values)
    .onConflictDoUpdate({ target: upstreams.accountId, set: { baseUrl, apiKeyEncrypted: values.apiKeyEncrypted, updatedAt: values.updatedAt } });
}

/** Back to Quire's own engine. */
export async function removeRemoteUpstream(accountId: string): Promise<void> {
  const db = await getDb();
  await db.delete(upstreams).where(eq(upstreams.accountId, accountId));
}
