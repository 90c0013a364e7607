import "server-only";
import { eq } from "drizzle-orm";
import { QuireError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import { accounts, users } from "@/lib/db/schema";
import { getLedger } from "@/lib/credits/ledger";
import { createApiKey, listApiKeys, revokeApiKey, type publicKey } from "@/lib/auth/api-keys";
import { generateWebhookSecret } from "@/lib/webhooks";
import type { RouteHandler } from "../define-route";
import type { z } from "zod";
import type * as s from "../schemas";

type KeyHandler<R extends z.ZodType, I extends z.ZodObject | undefined = undefined> = RouteHandler<"api-key", I, R>;

/** The balance read with the key: no second query. */
export const creditBalance: KeyHandler<typeof s.balanceResponse> = async ({ caller }) => ({
  remainingCredits: caller.balance,
  error: false,
  status: 200,
});

export const account: KeyHandler<typeof s.accountResponse> = async ({ caller }) => {
  const db = await getDb();
  const [acc] = await db.select().from(accounts).where(eq(accounts.id, caller.accountId));
  const [user] = await db.select().from(users).where(eq(users.accountId, caller.accountId)).limit(1);
  return {
    error: false,
    status: 200,
    accountName: acc.name,
    email: user?.email ?? "",
    name: user?.name ?? "",
    remainingCredits: Number(acc.balance),
  };
};

export const creditLedger: KeyHandler<typeof s.ledgerResponse, typeof s.ledgerInput> = async ({ caller, input }) => {
  const { days } = await input();
  const span = Math.min(Math.max(Number(days ?? 30) || 30, 1), 366);
  const ledger = await getLedger(caller.accountId, span);
  return {
    error: false,
    status: 200,
    entries: ledger.entries.map((e) => ({ ...e, at: wireTime(e.at) })),
    daily: ledger.daily,
  };
};

export const listKeys: KeyHandler<typeof s.keysResponse> = async ({ caller }) => ({
  error: false,
  status: 200,
  keys: (await listApiKeys(caller.accountId)).map(wireKey),
});

export const createKey: KeyHandler<typeof s.createKeyResponse, typeof s.createKeyInput> = async ({ caller, input }) => {
  const { name } = await input();
  const created = await createApiKey(caller.accountId, String(name ?? "").trim().slice(0, 100) || "API key");
  return { error: false, status: 200, key: wireKey(created.key), secret: created.secret };
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const revokeKey: KeyHandler<typeof s.revokeKeyResponse> = async ({ caller, pathParams }) => {
  const id = pathParams.keyId;
  if (id === caller.keyId) throw new QuireError(400, "a key cannot revoke itself; use another key or the CLI");
  if (!UUID.test(id) || !(await revokeApiKey(caller.accountId, id))) throw new QuireError(404, "key not found or already revoked");
  return { error: false, status: 200, revoked: id };
};

export const webhookSecret: KeyHandler<typeof s.webhookSecretResponse> = async ({ caller }) => {
  const db = await getDb();
  const [acc] = await db.select().from(accounts).where(eq(accounts.id, caller.accountId));
  return { error: false, status: 200, secret: acc.webhookSecret };
};

export const rotateWebhookSecret: KeyHandler<typeof s.webhookSecretResponse> = async ({ caller }) => {
  const db = await getDb();
  const secret = generateWebhookSecret();
  await db.update(accounts).set({ webhookSecret: secret }).where(eq(accounts.id, caller.accountId));
  return { error: false, status: 200, secret };
};

/** A timestamp as JSON would write it (Dates become ISO 8601; strings from raw SQL stay as they are). */
function wireTime(t: Date | string): string {
  return t instanceof Date ? t.toISOString() : String(t);
}

function wireKey(k: ReturnType<typeof publicKey>) {
  return {
    ...k,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}
