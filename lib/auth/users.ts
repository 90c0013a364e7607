import "server-only";
import { sealWebhookSecret } from "./webhook-secret";
import { revokeUserSessions } from "./sessions";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { accounts, users } from "@/lib/db/schema";
import { hashPassword, isPasswordValid } from "./passwords";
import { grantCredits } from "@/lib/credits/ledger";

export type SessionUser = { id: string; accountId: string; email: string; name: string; role: "admin" | "user" };

/** Creates a user with its own account, webhook secret and starting credits. */
export async function createUser(input: {
  email: string;
  password: string;
  name?: string;
  role?: "admin" | "user";
  credits?: number;
}): Promise<SessionUser> {
  const db = await getDb();
  const email = input.email.trim().toLowerCase();
  const [account] = await db
    .insert(accounts)
    .values({ name: input.name || email, webhookSecret: sealWebhookSecret("whsec_" + crypto.randomBytes(24).toString("base64")) })
    .returning();
  const [user] = await db
    .insert(users)
    .values({
      accountId: account.id,
      email,
      name: input.name ?? "",
      role: input.role ?? "user",
      passwordHash: await hashPassword(input.password),
    })
    .returning();
  if (input.credits && input.credits > 0) await grantCredits(account.id, input.credits, "initial grant");
  return { id: user.id, accountId: account.id, email: user.email, name: user.name, role: user.role };
}

/** Checks an email + password; null when either is wrong (same timing either way). */
export async function verifyUserPassword(email: string, password: string): Promise<SessionUser | null> {
  const db = await getDb();
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  const ok = await isPasswordValid(
    password,
    user?.passwordHash ?? "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  );
  if (!user || !ok) return null;
  return { id: user.id, accountId: user.accountId, email: user.email, name: user.name, role: user.role };
}

export async function findUserByEmail(email: string) {
  const db = await getDb();
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  return user ?? null;
}

/** The user of an email as a session sees it (no password hash), or null. OIDC sign-in maps the provider's email to it. */
export async function findSessionUser(email: string): Promise<SessionUser | null> {
  const u = await findUserByEmail(email);
  return u ? { id: u.id, accountId: u.accountId, email: u.email, name: u.name, role: u.role } : null;
}

export async function setUserPassword(email: string, password: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.email, email.trim().toLowerCase()))
    .returning();
  // A new password signs the user out everywhere.
  for (const r of rows) await revokeUserSessions(r.id);
  return rows.length > 0;
}
