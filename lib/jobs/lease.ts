import "server-only";
import crypto from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { envNumber, getConfig } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { getDb, getDbHandle } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { openSecret } from "@/lib/auth/secret-box";
import { releaseCredits } from "@/lib/credits/ledger";
import { fillReservedOutput } from "@/lib/storage/local-store";
import { finishJob, type JobRow } from "./job-store";

/**
 * Every running job has an owner: the process running it, named by an instance id and kept
 * alive by a heartbeat (JOB_HEARTBEAT_MS). A job still `working` whose owner stopped beating
 * for JOB_LEASE_MS (a crash, a killed node) — or, in embedded mode, any job found working at
 * start-up — is reclaimed by `reapOrphanedJobs`: an async job whose queue entry is still alive
 * is left to the queue (it runs again); anything else fails with its reservation released. A job
 * running past JOB_DEADLINE_MS is failed whoever owns it, so every job ends.
 */

const g = globalThis as unknown as {
  __quireInstance?: string;
  __quireRunning?: Set<string>;
  __quireHeartbeat?: NodeJS.Timeout;
  __quireShutdown?: AbortController;
};

/** This process's id as a job owner: host, pid and a random part (pids are reused). */
export function instanceId(): string {
  g.__quireInstance ??= `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString("hex")}`;
  return g.__quireInstance;
}

function running(): Set<string> {
  g.__quireRunning ??= new Set();
  return g.__quireRunning;
}

export function leaseSettings() {
  const jobTimeoutMs = getConfig().jobTimeoutMs;
  return {
    heartbeatMs: envNumber("JOB_HEARTBEAT_MS", 10_000),
    leaseMs: envNumber("JOB_LEASE_MS", 60_000),
    /** Hard end of one job (download, run, store), whatever happens: the sandbox cap plus room. */
    deadlineMs: envNumber("JOB_DEADLINE_MS", jobTimeoutMs + 5 * 60_000),
    shutdownGraceMs: envNumber("SHUTDOWN_GRACE_MS", 25_000),
  };
}

/** Fires when this process starts shutting down (SIGTERM): running jobs hand themselves back. */
export function shutdownSignal(): AbortSignal {
  g.__quireShutdown ??= new AbortController();
  return g.__quireShutdown.signal;
}

export function beginShutdown(): void {
  g.__quireShutdown ??= new AbortController();
  if (!g.__quireShutdown.signal.aborted)
    g.__quireShutdown.abort(
      new QuireError(
        503,
        "the server is shutting down: the call was stopped and not charged. Send it again.",
      ),
    );
}

/** Jobs this process is running now. */
export function runningJobs(): string[] {
  return [...running()];
}

/**
 * Takes a job for this process (owner + first heartbeat, and its start time in the same
 * update); false when it is no longer working.
 */
export async function claimJob(jobId: string, startedAt?: Date): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(jobs)
    .set({ owner: instanceId(), heartbeatAt: new Date(), ...(startedAt ? { startedAt } : {}) })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "working")))
    .returning({ id: jobs.id });
  if (!rows.length) return false;
  running().add(jobId);
  startHeartbeat();
  return true;
}

/** A job inserted already owned by this process (a synchronous call): heartbeats as if claimed. */
export function adoptJob(jobId: string): void {
  running().add(jobId);
  startHeartbeat();
}

/** The job ended here (finished, failed or handed back). */
export function releaseJob(jobId: string): void {
  running().delete(jobId);
}

/** Hands a job back: no owner, so another process (or this one after a restart) runs it again. */
export async function handBackJob(jobId: string): Promise<void> {
  running().delete(jobId);
  const db = await getDb();
  await db
    .update(jobs)
    .set({ owner: null, heartbeatAt: null, startedAt: null })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "working"), eq(jobs.owner, instanceId())));
}

function startHeartbeat(): void {
  if (g.__quireHeartbeat) return;
  const { heartbeatMs } = leaseSettings();
  g.__quireHeartbeat = setInterval(() => void beat(), heartbeatMs);
  g.__quireHeartbeat.unref();
}

async function beat(): Promise<void> {
  const ids = runningJobs();
  if (!ids.length) return;
  try {
    const db = await getDb();
    await db
      .update(jobs)
      .set({ heartbeatAt: new Date() })
      .where(and(inArray(jobs.id, ids), eq(jobs.owner, instanceId()), eq(jobs.status, "working")));
  } catch (e) {
    log.warn("job heartbeat failed", e);
  }
}

export function stopHeartbeat(): void {
  clearInterval(g.__quireHeartbeat);
  g.__quireHeartbeat = undefined;
}

/** A job's queue entry (pg-boss): its id and state, or undefined when it has none. */
async function queueEntry(jobId: string): Promise<{ id: string; state: string } | undefined> {
  const h = await getDbHandle();
  try {
    const r = await h.exec(
      `select id, state from pgboss.job where singleton_key = $1 order by created_on desc limit 1`,
      [jobId],
    );
    return r.rows[0] as { id: string; state: string } | undefined;
  } catch {
    return undefined;
  }
}

const liveQueueStates = new Set(["created", "retry", "active"]);

/** How a queue entry is failed (set by lib/jobs/queue.ts once its queue runs; lease.ts cannot import it). */
let failQueueEntry: ((queueId: string) => Promise<unknown>) | undefined;
export function setQueueEntryFailer(fn: (queueId: string) => Promise<unknown>): void {
  failQueueEntry = fn;
}

/** Fails a queue entry whose worker is gone, so the queue's own retry rules take over. */
async function handBack(queueId: string): Promise<void> {
  try {
    await failQueueEntry?.(queueId);
  } catch (e) {
    log.warn("handing an orphaned job back to the queue failed", e);
  }
}

/**
 * Reclaims jobs left `working` by a process that is gone, and ends jobs past their deadline.
 * `startup` (embedded mode: one process, so nothing working belongs to anyone else) treats every
 * working job not owned by this process as orphaned at once. Returns the ids it failed.
 */
export async function reapOrphanedJobs(opts: { startup?: boolean } = {}): Promise<string[]> {
  const db = await getDb();
  const cfg = getConfig();
  const { leaseMs, deadlineMs } = leaseSettings();
  const me = instanceId();
  const everyOther = opts.startup && cfg.embedded;
  const rows = (await db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.status, "working"),
        everyOther
          ? sql`${jobs.owner} is distinct from ${me}`
          : sql`(
              (${jobs.owner} is distinct from ${me}
                and coalesce(${jobs.heartbeatAt}, ${jobs.startedAt}, ${jobs.createdAt}) < now() - (${leaseMs} * interval '1 millisecond'))
              or ${jobs.startedAt} < now() - (${deadlineMs} * interval '1 millisecond')
            )`,
      ),
    )) as JobRow[];
  const failed: string[] = [];
  for (const row of rows) {
    const pastDeadline = row.startedAt !== null && Date.now() - row.startedAt.getTime() > deadlineMs;
    if (row.isAsync && !pastDeadline) {
      let entry = await queueEntry(row.id);
      // Held `active` by a worker that is gone: hand it back now (the queue counts the attempt and
      // retries it, or fails it once its retries are spent) instead of waiting for its expiry.
      if (entry?.state === "active") {
        await handBack(entry.id);
        entry = await queueEntry(row.id);
      }
      if (entry && liveQueueStates.has(entry.state)) continue; // the queue runs it (again)
    }
    const message = pastDeadline
      ? `the job did not finish within ${Math.round(deadlineMs / 1000)} s and was stopped.`
      : row.isAsync
        ? "the job was interrupted too many times (the server stopped while running it) and was given up."
        : "the server stopped while this synchronous call was running; it was not charged. Send it again.";
    if (await failJob(row, pastDeadline ? 408 : 500, message)) failed.push(row.id);
  }
  if (failed.length) log.warn(`ended ${failed.length} orphaned or overdue job(s): ${failed.join(", ")}`);
  return failed;
}

/** Fails a working job once: reservation released, promised output filled with the error. */
export async function failJob(row: JobRow, status: 408 | 500 | 503, message: string): Promise<boolean> {
  const err = new QuireError(status, message);
  const remaining = await releaseCredits(row.accountId, row.id);
  const ok = await finishJob(row.id, {
    status: "failed",
    result: { ...err.toBody(), credits: 0, remainingCredits: remaining, duration: 0 },
    message,
    credits: 0,
    finishedAt: new Date(),
    owner: null,
  });
  if (ok) {
    let promised: { id: string; name: string } | undefined;
    try {
      promised = (
        JSON.parse(openSecret(row.payload, "job-payload")) as { promised?: { id: string; name: string } }
      ).promised;
    } catch {
      /* unreadable payload: nothing was promised that we can fill */
    }
    if (promised)
      await fillReservedOutput(
        promised.id,
        promised.name,
        JSON.stringify(err.toBody()),
        "application/json",
      ).catch(() => {});
  }
  return ok;
}

/**
 * Removes work folders under DATA_DIR/tmp: at start-up in embedded mode all of them (nothing runs
 * yet), otherwise those older than the job deadline (left by a crash on any node sharing DATA_DIR).
 */
export async function sweepWorkFolders(opts: { all?: boolean } = {}): Promise<number> {
  const dir = path.join(getConfig().dataDir, "tmp");
  const { deadlineMs } = leaseSettings();
  let removed = 0;
  let entries: string[];
  try {
    entries = await fsp.readdir(dir);
  } catch {
    return 0;
  }
  const mine = new Set(runningJobs());
  for (const name of entries) {
    const full = path.join(dir, name);
    try {
      const jobId = name.slice(0, 36);
      if (mine.has(jobId)) continue;
      const st = await fsp.stat(full);
      if (!opts.all && Date.now() - st.mtimeMs < deadlineMs) continue;
      await fsp.rm(full, { recursive: true, force: true });
      removed++;
    } catch {
      /* gone meanwhile */
    }
  }
  return removed;
}
