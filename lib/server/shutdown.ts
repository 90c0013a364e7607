import { stopQueue, stopTakingJobs } from "@/lib/jobs/queue";
import { closeSandboxPool } from "@/lib/jobs/sandbox-pool";
import { beginShutdown, leaseSettings, runningJobs, stopHeartbeat } from "@/lib/jobs/lease";
import { closeDb } from "@/lib/db/client";
import { log } from "@/lib/core/log";

/**
 * A reader that went away (a closed pipe, a dead terminal) must not make logging throw: without
 * a listener, every write raises EPIPE as an uncaught error, which is logged, which writes again.
 * Output to a gone reader is dropped.
 */
export function tolerateClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", () => {
      /* EPIPE and friends: nobody is reading */
    });
  }
}

/**
 * SIGTERM/SIGINT: stop taking work (listeners closed by `closeListeners`, no more queue jobs),
 * let running jobs finish for SHUTDOWN_GRACE_MS, then hand the rest back (async jobs go back to
 * the queue and run again after a restart or on another node; synchronous calls are failed,
 * uncharged), close the sandbox, the queue and the database, and exit. A second signal, or a
 * step that hangs, exits at once / after the grace period plus 10 s.
 */
export function installGracefulStop(closeListeners: () => void): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      process.exit(1);
      return;
    }
    stopping = true;
    const { shutdownGraceMs } = leaseSettings();
    setTimeout(() => process.exit(1), shutdownGraceMs + 10_000).unref();
    log.info(
      `${signal}: shutting down (${runningJobs().length} job(s) running, grace ${Math.round(shutdownGraceMs / 1000)} s)`,
    );
    try {
      closeListeners();
      await stopTakingJobs().catch(() => {});
      await waitForJobs(shutdownGraceMs);
      if (runningJobs().length) {
        log.warn(`handing back ${runningJobs().length} job(s) still running after the grace period`);
        beginShutdown();
        await waitForJobs(5_000);
      }
      await stopQueue();
      await closeSandboxPool();
      stopHeartbeat();
      await closeDb().catch(() => {});
    } catch (e) {
      log.error("shutdown failed", e);
    }
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

async function waitForJobs(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (runningJobs().length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}
