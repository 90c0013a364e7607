import "server-only";
import { openWebhookSecret } from "@/lib/auth/webhook-secret";
import { PgBoss } from "pg-boss";
import { getConfig } from "@/lib/core/config";
import { getDbHandle } from "@/lib/db/client";
import { log } from "@/lib/core/log";
import { executeJob, jobCheckResult } from "./execute-job";
import { getJob, recordDelivery } from "./job-store";
import { setQueueEntryFailer } from "./lease";
import { deliverWebhook, nextRetryDelay, WEBHOOK_MAX_ATTEMPTS } from "@/lib/webhooks";
import { getDb } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";
import { eq } from "drizzle-orm";

export const JOBS_QUEUE = "quire-jobs";
const CALLBACKS_QUEUE = "quire-callbacks";

const g = globalThis as unknown as { __quireBoss?: Promise<PgBoss>; __quireWorking?: boolean };

/** The durable queue (pg-boss) on the same database as everything else: PGlite or PostgreSQL. */
// Jobs whose worker is gone (found by lib/jobs/lease.ts) go back through the queue's own
// fail-and-retry rules at once, instead of waiting for the entry to expire.
setQueueEntryFailer(async (id) => (await getBoss()).fail(JOBS_QUEUE, id, { reason: "the worker running it stopped" }));

export function getBoss(): Promise<PgBoss> {
  g.__quireBoss ??= (async () => {
    const h = await getDbHandle();
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => h.exec(text, values) },
      backend: h.kind === "pglite" ? "pglite" : "postgres",
      superviseIntervalSeconds: 5,
      monitorIntervalSeconds: 30,
    } as ConstructorParameters<typeof PgBoss>[0]);
    boss.on("error", (e: unknown) => log.error("queue error", e));
    await boss.start();
    const cfg = getConfig();
    await ensureQueue(boss, JOBS_QUEUE, {
      retryLimit: 2,
      retryDelay: 1,
      expireInSeconds: Math.ceil(cfg.jobTimeoutMs / 1000) + 120,
      heartbeatSeconds: 10,
    });
    await ensureQueue(boss, CALLBACKS_QUEUE, { retryLimit: 0, expireInSeconds: 120 });
    return boss;
  })().catch((e) => {
    g.__quireBoss = undefined;
    throw e;
  });
  return g.__quireBoss;
}

async function ensureQueue(boss: PgBoss, name: string, options: Record<string, unknown>) {
  const existing = await boss.getQueue(name);
  if (!existing) await boss.createQueue(name, options as never);
  else await boss.updateQueue(name, options as never);
}

/** Puts a job on the queue (async calls and the invoice parser). */
export async function enqueueJob(jobId: string) {
  const boss = await getBoss();
  await boss.send(JOBS_QUEUE, { jobId }, { singletonKey: jobId } as never);
}

/** Schedules a callback delivery attempt, durable across restarts. */
async function enqueueCallback(jobId: string, attempt = 1, delaySeconds = 0) {
  const boss = await getBoss();
  await boss.send(CALLBACKS_QUEUE, { jobId, attempt }, { startAfter: delaySeconds } as never);
}

/** Runs a queued job and, when it asked for one, schedules its callback. */
async function runQueuedJob(jobId: string) {
  // A job handed back on shutdown throws (JobHandedBack): the queue keeps it and runs it again.
  const row = await executeJob(jobId);
  if (row.callbackUrl && row.isAsync) await enqueueCallback(jobId);
}

/** Starts this process's queue workers (jobs + callbacks). */
export async function startWorkers() {
  if (g.__quireWorking) return;
  g.__quireWorking = true;
  const boss = await getBoss();
  const cfg = getConfig();
  await boss.work(
    JOBS_QUEUE,
    { localConcurrency: cfg.queueConcurrency, pollingIntervalSeconds: 0.5 } as never,
    (async (batch: Array<{ data: { jobId: string } }>) => {
      for (const job of batch) await runQueuedJob(job.data.jobId);
    }) as never,
  );
  await boss.work(
    CALLBACKS_QUEUE,
    { localConcurrency: 2, pollingIntervalSeconds: 1 } as never,
    (async (batch: Array<{ data: { jobId: string; attempt: number } }>) => {
      for (const job of batch) await deliverCallback(job.data.jobId, job.data.attempt);
    }) as never,
  );
}

/** One signed delivery attempt; failures schedule the next attempt with backoff. */
async function deliverCallback(jobId: string, attempt: number) {
  const row = await getJob(jobId);
  if (!row?.callbackUrl) return;
  const db = await getDb();
  const [account] = await db.select().from(accounts).where(eq(accounts.id, row.accountId)).limit(1);
  if (!account) return;
  const body = await jobCheckResult(row);
  // One webhook-id per job, so receivers can de-duplicate retries.
  const r = await deliverWebhook(row.callbackUrl!, body, openWebhookSecret(account.webhookSecret), { timeoutMs: 15_000, id: `msg_${jobId}` });
  await recordDelivery({
    jobId,
    url: row.callbackUrl,
    attempt,
    ok: r.ok,
    httpStatus: r.status ?? null,
    error: r.ok ? null : (r.error ?? `HTTP ${r.status}`),
  });
  if (!r.ok && r.retryable !== false && attempt < WEBHOOK_MAX_ATTEMPTS) {
    await enqueueCallback(jobId, attempt + 1, Math.round(nextRetryDelay(attempt) / 1000));
  } else if (!r.ok) log.warn(`callback for job ${jobId} gave up after ${attempt} attempts`);
}

/** Stops fetching new jobs (shutdown); jobs already running go on. */
export async function stopTakingJobs() {
  const b = g.__quireBoss;
  if (!b || !g.__quireWorking) return;
  await (await b).offWork(JOBS_QUEUE, { wait: false });
}

export async function stopQueue() {
  const b = g.__quireBoss;
  g.__quireBoss = undefined;
  g.__quireWorking = false;
  if (b) await (await b).stop({ graceful: false, wait: false } as never).catch(() => {});
}
