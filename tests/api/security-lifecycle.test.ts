import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { uploadBytes } from "../helpers/api-client";
import { makePdf } from "../helpers/pdf-fixtures";

/**
 * Issue 10 §3: every job ends. A synchronous call in flight during a crash is failed and
 * uncharged at the next start; an async job killed until its retries run out is failed with
 * its reservation released; SIGTERM lets running jobs finish or hands them back so they complete
 * after a restart; SIGTERM exits even when nobody reads the process's output; stale work
 * folders are swept.
 */
let q: QuireServer;
let big: string;

beforeAll(async () => {
  // A short lease: with PostgreSQL (several nodes may share the database) a restarted node takes
  // over another owner's job only once its lease has run out.
  q = await startQuire({ env: { SHUTDOWN_GRACE_MS: "1000", JOB_HEARTBEAT_MS: "300", JOB_LEASE_MS: "1500" } });
  big = await uploadBytes(q, makePdf({ pages: 1500 }), "big.pdf");
}, 180_000);
afterAll(async () => {
  await q?.stop();
});

/** Lets the killed process's lease run out (PostgreSQL mode; embedded mode reclaims at once). */
async function leaseOut() {
  if (q.mode === "postgres") await new Promise((r) => setTimeout(r, 1800));
}

async function userKey(credits: number) {
  const email = `u${Math.random().toString(36).slice(2, 8)}@test.local`;
  const r = await q.cli(["create-user", email, "--password", "password123", "--credits", String(credits)]);
  expect(r.code, r.out).toBe(0);
  return /api key:\s+(qk_\S+)/.exec(r.out)![1];
}

async function balance(key: string) {
  return (await q.api("/v1/account/credit/balance", { key })).body.remainingCredits as number;
}

/** Waits until a job of this key is running (started after `since`); returns its id. */
async function runningJob(key: string, since: number, jobId?: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = (await q.api("/v1/jobs?status=working", { key })).body.jobs as Array<{
      jobId: string;
      startedAt: string | null;
    }>;
    const hit = list.find(
      (j) => (!jobId || j.jobId === jobId) && j.startedAt && Date.parse(j.startedAt) > since,
    );
    if (hit) return hit.jobId;
    if (Date.now() > deadline) throw new Error(`no running job\n${q.stdout().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("crashes and stops end every job", () => {
  it("SIGKILL during a synchronous call → at the next start the job is failed and the reservation released", async () => {
    const key = await userKey(5000);
    const before = await balance(key);
    const since = Date.now();
    const call = q.api("/v1/pdf/split", { json: { url: big }, key }).catch(() => undefined);
    const jobId = await runningJob(key, since);
    await q.kill("SIGKILL");
    await call;
    await leaseOut();
    await q.restart();
    const job = (await q.api(`/v1/jobs/${jobId}`, { key })).body.job;
    expect(job.status).toBe("failed");
    expect(job.result.message).toMatch(/server stopped/);
    expect(await balance(key)).toBe(before);
  }, 180_000);

  it("an async job killed until its retries run out → failed, with its reservation released", async () => {
    const key = await userKey(5000);
    const before = await balance(key);
    const r = await q.api("/v1/pdf/split", { json: { url: big, async: true }, key });
    const jobId = r.body.jobId as string;
    // pg-boss runs a job 3 times (retryLimit 2): kill it in each run.
    let since = 0;
    for (let run = 1; run <= 3; run++) {
      await runningJob(key, since, jobId);
      await q.kill("SIGKILL");
      since = Date.now();
      await leaseOut();
      await q.restart();
    }
    const done = await waitForJob(q, jobId, 60_000, key);
    expect(done.status).toBe("failed");
    expect(done.message).toMatch(/interrupted/);
    expect(await balance(key)).toBe(before);
  }, 300_000);

  it("SIGTERM with a running async job → exits within the grace period, the job completes after the restart, charged once", async () => {
    const key = await userKey(5000);
    const before = await balance(key);
    const r = await q.api("/v1/pdf/split", { json: { url: big, async: true }, key });
    const jobId = r.body.jobId as string;
    await runningJob(key, 0, jobId);
    const t0 = Date.now();
    await q.kill("SIGTERM");
    expect(Date.now() - t0).toBeLessThan(15_000);
    const out = q.stdout();
    expect(out).not.toMatch(/job finished: pdf-split failed/);
    await q.restart();
    const done = await waitForJob(q, jobId, 120_000, key);
    expect(done.status, JSON.stringify(done)).toBe("success");
    expect(done.credits).toBe(1 + 1500);
    expect(await balance(key)).toBe(before - 1501);
  }, 240_000);

  it("a stale work folder under DATA_DIR/tmp is swept at start-up", async () => {
    const stale = path.join(q.dataDir, "tmp", "00000000-0000-0000-0000-000000000000-dead");
    fs.mkdirSync(stale, { recursive: true });
    fs.writeFileSync(path.join(stale, "source-0"), "left by a crash");
    // Older than any job could run (with several nodes only such folders are swept).
    const old = new Date(Date.now() - 2 * 24 * 3600_000);
    fs.utimesSync(stale, old, old);
    await q.kill("SIGKILL");
    await q.restart();
    expect(fs.existsSync(stale)).toBe(false);
  }, 120_000);
});

describe("SIGTERM with nobody reading the output", () => {
  it("exits promptly instead of spinning on EPIPE", async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-epipe-"));
    const root = path.resolve(import.meta.dirname, "../..");
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DASHBOARD: "false",
      QUIRE_ROOT: root,
      WORKERS: "1",
      LOG_LEVEL: "debug",
      NODE_ENV: "test",
      QUIRE_ADMIN_PASSWORD: "correct horse battery",
    };
    delete env.DATABASE_URL;
    delete env.VITEST;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--import", "./scripts/node-hooks.mjs", "lib/server/main.ts"],
      {
        cwd: root,
        env: env as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    const started = Date.now();
    while (!out.includes("Quire is listening")) {
      if (child.exitCode !== null || Date.now() - started > 90_000) throw new Error(`did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The reader goes away: every later write to stdout/stderr fails with EPIPE.
    child.stdout!.destroy();
    child.stderr!.destroy();
    await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => {});
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const t0 = Date.now();
    child.kill("SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise<"hung">((r) => setTimeout(() => r("hung"), 20_000)),
    ]);
    if (code === "hung") child.kill("SIGKILL");
    expect(code).not.toBe("hung");
    expect(Date.now() - t0).toBeLessThan(20_000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 150_000);
});
