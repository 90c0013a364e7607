import "server-only";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { getConfig } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import { dataStore } from "@/lib/db/schema";

/**
 * The data store of `/v1/data/store`: small JSON documents an account keeps under keys of its
 * choice (the public API calls the key `jobid`: typically the id of the job whose answer is kept).
 * Everything is scoped to the account; another account's key is simply not there (404).
 */

export interface StoredData {
  key: string;
  /** The stored value, parsed back from its JSON text. */
  body: unknown;
  size: number;
  createdAt: Date;
  updatedAt: Date;
}

const KEY = /^[A-Za-z0-9._:@-]{1,200}$/;

/** A key from a parameter: 1–200 letters, digits and `. _ : @ -`; anything else is 400. */
export function parseDataKey(raw: unknown, field = "jobid"): string {
  const key = typeof raw === "string" || typeof raw === "number" ? String(raw).trim() : "";
  if (!key) throw new QuireError(400, `${field}: give the key to store the data under (e.g. the job's id).`);
  if (!KEY.test(key)) throw new QuireError(400, `${field}: use 1–200 letters, digits and . _ : @ - (got ${JSON.stringify(key.slice(0, 40))}).`);
  return key;
}

/** A value as stored: JSON text within DATA_STORE_MAX_BYTES (413 past it). */
export function dataText(value: unknown, field = "body"): string {
  if (value === undefined) throw new QuireError(400, `${field}: give the data to store (any JSON value).`);
  const text = JSON.stringify(value);
  const max = getConfig().dataStoreMaxBytes;
  if (Buffer.byteLength(text) > max) throw new QuireError(413, `${field} is larger than ${max} bytes (DATA_STORE_MAX_BYTES).`);
  return text;
}

const fromRow = (r: typeof dataStore.$inferSelect): StoredData => ({
  key: r.key,
  body: JSON.parse(r.body) as unknown,
  size: r.size,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** Stores (or replaces) the value under the key. A new key past DATA_STORE_MAX_KEYS is 413. */
export async function putData(accountId: string, key: string, text: string): Promise<StoredData> {
  const db = await getDb();
  const max = getConfig().dataStoreMaxKeys;
  const [existing] = await db
    .select({ key: dataStore.key })
    .from(dataStore)
    .where(and(eq(dataStore.accountId, accountId), eq(dataStore.key, key)))
    .limit(1);
  if (!existing) {
    const [{ n }] = await db.select({ n: count() }).from(dataStore).where(eq(dataStore.accountId, accountId));
    if (n >= max) throw new QuireError(413, `This account keeps ${n} entries in the data store, the most allowed (DATA_STORE_MAX_KEYS); delete some first.`);
  }
  const size = Buffer.byteLength(text);
  const [row] = await db
    .insert(dataStore)
    .values({ accountId, key, body: text, size })
    .onConflictDoUpdate({
      target: [dataStore.accountId, dataStore.key],
      set: { body: text, size, updatedAt: sql`now()` },
    })
    .returning();
  return fromRow(row);
}

export async function getData(accountId: string, key: string): Promise<StoredData> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(dataStore)
    .where(and(eq(dataStore.accountId, accountId), eq(dataStore.key, key)))
    .limit(1);
  if (!row) throw new QuireError(404, `jobid: nothing is stored under ${JSON.stringify(key)}.`);
  return fromRow(row);
}

/** The account's keys (oldest first), without their values. */
export async function listData(accountId: string): Promise<Array<Omit<StoredData, "body">>> {
  const db = await getDb();
  return db
    .select({ key: dataStore.key, size: dataStore.size, createdAt: dataStore.createdAt, updatedAt: dataStore.updatedAt })
    .from(dataStore)
    .where(eq(dataStore.accountId, accountId))
    .orderBy(asc(dataStore.createdAt), asc(dataStore.key))
    .limit(getConfig().dataStoreMaxKeys);
}

export async function deleteData(accountId: string, key: string): Promise<void> {
  const db = await getDb();
  const gone = await db
    .delete(dataStore)
    .where(and(eq(dataStore.accountId, accountId), eq(dataStore.key, key)))
    .returning({ key: dataStore.key });
  if (!gone.length) throw new QuireError(404, `jobid: nothing is stored under ${JSON.stringify(key)}.`);
}
