import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { getConfig, getServerSecret } from "@/lib/core/config";
import { getDb, getDbHandle } from "@/lib/db/client";
import { createUser } from "@/lib/auth/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { getBoss, startWorkers, JOBS_QUEUE } from "@/lib/jobs/queue";
import { sweepExpiredFiles } from "@/lib/storage/local-store";
import { sweepIdempotencyKeys } from "@/lib/api/idempotency";
import { sweepRateBuckets } from "@/lib/api/rate-limit";
import { log } from "@/lib/core/log";
import { getEgressPolicy } from "@/lib/egress/policy";
import { checkChromiumAtStartup } from "@/lib/engine/browser/chromium-path";
import { getSandboxPool } from "@/lib/jobs/sandbox-pool";
import { provideSandbox } from "@/lib/jobs/sandbox/handle";
import { reapOrphanedJobs, sweepWorkFolders } from "@/lib/jobs/lease";
import { sweepSessions } from "@/lib/auth/sessions";

const g = globalThis as unknown as { __quireEngine?: Promise<void>; __quireSweeper?: NodeJS.Timeout };

/**
 * Start-up, once per process: configuration, database + migrations, first-run admin, the queue,
 * in-process workers and the expiry sweeper.
 */
export function startEngine(opts: { workers?: boolean } = {}): Promise<void> {
  g.__quireEngine ??= (async () => {
    const cfg = getConfig();
    protectDataDir(cfg.dataDir);
    getEgressPolicy(); // fails start-up on an unreadable EGRESS_ALLOW
    getServerSecret();
    const h = await getDbHandle();
    await ensureFirstAdmin();
    await getBoss();
    if (h.kind === "pglite") await recoverOrphanedJobs();
    // Jobs left working by a process that is gone: re-queued (async) or failed, uncharged.
    await reapOrphanedJobs({ startup: true }).catch((e) => log.warn("reclaiming orphaned jobs failed", e));
    await sweepWorkFolders({ all: h.kind === "pglite" }).catch((e) => log.warn("sweeping work folders failed", e));
    if (opts.workers ?? cfg.runWorkers) await startWorkers();
    // The dashboard (bundled by Next.js in this process) runs its previews through this handle.
    provideSandbox((job, runOpts) => getSandboxPool().run(job, runOpts));
    checkChromiumAtStartup((line) => log.info(line.replace(/^quire: /, "")));
    g.__quireSweeper = setInterval(() => {
      sweepExpiredFiles().catch((e) => log.warn("sweeping expired files failed", e));
      sweepIdempotencyKeys().catch((e) => log.warn("sweeping idempotency keys failed", e));
      sweepRateBuckets().catch((e) => log.warn("sweeping rate-limit buckets failed", e));
      reapOrphanedJobs().catch((e) => log.warn("reclaiming orphaned jobs failed", e));
      sweepSessions().catch((e) => log.warn("sweeping sessions failed", e));
      sweepWorkFolders().catch((e) => log.warn("sweeping work folders failed", e));
    }, 60_000);
    g.__quireSweeper.unref();
  })().catch((e) => {
    g.__quireEngine = undefined;
    throw e;
  });
  return g.__quireEngine;
}

/** First start on an empty database: an admin account, printed once with an API key. */
async function ensureFirstAdmin() {
  const db = await getDb();
  const count = async () =>
    ((await db.execute(sql`select count(*)::int as n from users`)) as unknown as { rows: Array<{ n: number }> }).rows[0].n;
  if ((await count()) > 0) return;
  const cfg = getConfig();
  const password = cfg.adminPassword ?? crypto.randomBytes(12).toString("base64url");
  let user;
  try {
    user = await createUser({ email: cfg.adminEmail, password, name: "Admin", role: "admin", credits: cfg.newAccountCredits });
  } catch (e) {
    // Several nodes started at once on an empty PostgreSQL: another one made the admin.
    if ((await count()) > 0) return;
    throw e;
  }
  const { secret } = await createApiKey(user.accountId, "First key");
  const lines = [
    "",
    "  Quire: first start — an admin account was created. This is shown once; keep it.",
    `    Dashboard sign-in: ${cfg.adminEmail}`,
    `    Password:          ${cfg.adminPassword ? "(from QUIRE_ADMIN_PASSWORD)" : password}`,
    `    API key:           ${secret}`,
    `    Credits:           ${cfg.newAccountCredits}`,
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

/**
 * Embedded mode is one process: a job still `active` in the queue at start-up belonged to a
 * process that died (SIGKILL, power loss). Fail it now so pg-boss retries it at once instead of
 * waiting for the heartbeat monitor.
 */
async function recoverOrphanedJobs() {
  const boss = await getBoss();
  const h = await getDbHandle();
  const r = await h.exec(`select id from pgboss.job where name = $1 and state = 'active'`, [JOBS_QUEUE]).catch(() => ({ rows: [] as any[] }));
  const ids = r.rows.map((x: { id: string }) => x.id);
  if (ids.length) {
    log.warn(`re-queueing ${ids.length} job(s) interrupted by the last shutdown`);
    await boss.fail(JOBS_QUEUE, ids, { message: "interrupted by a restart" } as never);
  }
}

/**
 * DATA_DIR holds the database, the server secret, uploads and outputs: only Quire's own user may
 * enter it (0700), whatever the umask made of it.
 */
function protectDataDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    fs.chmodSync(dir, 0o700);
  } catch (e) {
    log.warn(`could not restrict ${dir} to its owner (chmod 700): ${(e as Error).message}`);
  }
}
