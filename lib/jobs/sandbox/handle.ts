import "server-only";
import { QuireError } from "@/lib/core/errors";
import type { RunResult } from "@/lib/operations/runner-types";
import type { SandboxJob, SandboxRunOptions } from "./pool";

type RunInSandbox = (job: SandboxJob, opts: SandboxRunOptions) => Promise<RunResult>;
const g = globalThis as unknown as { __quireSandboxRun?: RunInSandbox };

/** Called once by the start-up of the process that owns the sandbox pool (lib/server/engine.ts). */
export function provideSandbox(run: RunInSandbox): void {
  g.__quireSandboxRun = run;
}

/**
 * Runs a task in this process's sandbox pool. For code that Next.js bundles (the dashboard's
 * route handlers): the bundler must not see the pool itself, which forks its child by file path.
 */
export function runInSandbox(job: SandboxJob, opts: SandboxRunOptions): Promise<RunResult> {
  if (!g.__quireSandboxRun) return Promise.reject(new QuireError(500, "Internal error: the sandbox is not running in this process."));
  return g.__quireSandboxRun(job, opts);
}
