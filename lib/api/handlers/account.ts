import "server-only";
import { openWebhookSecret, sealWebhookSecret } from "@/lib/auth/webhook-secret";
import { eq } from "drizzle-orm";
import { QuireError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import { accounts, users } from "@/lib/db/schema";
import { dailyUse, ledgerEntries, ledgerJobs } from "@/lib/credits/ledger-view";
import { decodeCursor, encodeCursor, parseTimeBound } from "../paging";
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
  const f = await input();
  const span = Math.min(Math.max(Number(f.days ?? 30) || 30, 1), 366);
  const range = { from: parseTimeBound(f.from, "from") ?? new Date(Date.now() - span * 86400_000), to: parseTimeBound(f.to, "to") };
  const limit = Math.min(Math.max(Number(f.limit ?? 100) || 100, 1), 500);
  const key = decodeCursor<[string, number]>(f.cursor, ["string", "number"]);
  const before = key ? { at: key[0], id: key[1] } : undefined;
  const daily = f.cursor || f.daily === false ? [] : await dailyUse(caller.accountId, range);
  if (f.view === "jobs") {
    const found = await ledgerJobs(caller.accountId, { ...range, limit: limit + 1, before });
    const page = found.slice(0, limit);
    return {
      error: false,
      status: 200,
      entries: [],
      jobs: page.map(({ id: _id, cursor: _c, ...j }) => ({ ...j, at: wireTime(j.at) })),
      daily,
      nextCursor: found.length > limit ? encodeCursor([page.at(-1)!.cursor.at, page.at(-1)!.cursor.id]) : null,
    };
  }
  const found = await ledgerEntries(caller.accountId, { ...range, limit: limit + 1, before, jobId: f.jobId || undefined });
  const page = found.slice(0, limit);
  return {
    error: false,
    status: 200,
    entries: page.map(({ cursor: _c, ...e }) => ({ ...e, at: wireTime(e.at) })),
    daily,
    nextCursor: found.length > limit ? encodeCursor([page.at(-1)!.cursor.at, page.at(-1)!.cursor.id]) : null,
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
  return { error: false, status: 200, secret: openWebhookSecret(acc.webhookSecret) };
};

export const rotateWebhookSecret: KeyHandler<typeof s.webhookSecretResponse> = async ({ caller }) => {
  const db = await getDb();
  const secret = generateWebhookSecret();
  await db.update(accounts).set({ webhookSecret: sealWebhookSecret(secret) }).where(eq(accounts.id, caller.accountId));
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
