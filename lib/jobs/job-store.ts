import "server-only";
import { and, desc, eq, getTableColumns, gte, ilike, lt, or, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { callbackDeliveries, jobs } from "@/lib/db/schema";
import { cachedFinishedJob, rememberFinishedJob } from "@/lib/db/embedded-cache";

export type JobRow = typeof jobs.$inferSelect;

/** Inserts a job row (in `tx` when given: with its credit reservation) and returns it as stored. */
export async function insertJob(
  values: typeof jobs.$inferInsert,
  tx?: Pick<Awaited<ReturnType<typeof getDb>>, "insert">,
): Promise<JobRow> {
  const db = tx ?? (await getDb());
  const [row] = await db.insert(jobs).values(values).returning();
  return row;
}

export async function getJob(id: string): Promise<JobRow | null> {
  const hit = cachedFinishedJob<JobRow>(id);
  if (hit) return hit;
  const db = await getDb();
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
  if (row && row.status !== "working") rememberFinishedJob(id, row);
  return row ?? null;
}

export async function updateJob(id: string, values: Partial<typeof jobs.$inferInsert>) {
  const db = await getDb();
  await db.update(jobs).set(values).where(eq(jobs.id, id));
}

/** Moves a job out of `working` once; false when another run already finished it. */
export async function finishJob(id: string, values: Partial<typeof jobs.$inferInsert>): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(jobs)
    .set(values)
    .where(and(eq(jobs.id, id), eq(jobs.status, "working")))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Where a page of jobs starts: after this job (createdAt, then id, both descending). `at` is the
 * database's own text of created_at: microseconds that a JS Date would round away.
 */
export interface JobCursor {
  at: string;
  id: string;
}

/**
 * One page of an account's jobs, newest first, read through jobs_account_created_idx: `before`
 * continues after the last row of the previous page (keyset paging stays fast however deep).
 */
export async function listJobs(
  accountId: string,
  opts: { limit: number; status?: string; q?: string; from?: Date; to?: Date; before?: JobCursor },
) {
  const db = await getDb();
  const conds = [eq(jobs.accountId, accountId)];
  if (opts.status) conds.push(eq(jobs.status, opts.status as JobRow["status"]));
  if (opts.q) {
    const like = `%${opts.q.replace(/[%_\\]/g, (c) => "\\" + c)}%`;
    conds.push(or(ilike(jobs.operation, like), ilike(jobs.source, like), ilike(jobs.id, like))!);
  }
  if (opts.from) conds.push(gte(jobs.createdAt, opts.from));
  if (opts.to) conds.push(lt(jobs.createdAt, opts.to));
  if (opts.before) {
    conds.push(sql`(${jobs.createdAt}, ${jobs.id}) < (${opts.before.at}::timestamptz, ${opts.before.id})`);
  }
  return db
    .select({ ...getTableColumns(jobs), cursorAt: sql<string>`${jobs.createdAt}::text` })
    .from(jobs)
    .where(and(...conds))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(opts.limit);
}

export async function recordDelivery(values: typeof callbackDeliveries.$inferInsert) {
  const db = await getDb();
  await db.insert(callbackDeliveries).values(values);
}

export async function listDeliveries(jobId: string) {
  const db = await getDb();
  return db.select().from(callbackDeliveries).where(eq(callbackDeliveries.jobId, jobId)).orderBy(callbackDeliveries.id);
}

/** Jobs still working, on every node: all of them, or one account's. */
export async function countWorkingJobs(accountId?: string): Promise<number> {
  const db = await getDb();
  const cond = accountId ? and(eq(jobs.status, "working"), eq(jobs.accountId, accountId)) : eq(jobs.status, "working");
  const [r] = await db.select({ n: sql<number>`count(*)` }).from(jobs).where(cond);
  return Number(r?.n ?? 0);
}
