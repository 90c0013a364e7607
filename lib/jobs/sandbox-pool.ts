import "server-only";
import { getConfig } from "@/lib/core/config";
import { createSandboxPool } from "@/lib/jobs/sandbox/pool";

type Pool = ReturnType<typeof createSandboxPool>;
const g = globalThis as unknown as { __quirePool?: Pool };

/** The process's pool of sandboxed children that run operation runners (WORKERS of them); runners are found by id in lib/operations/runners.ts. */
export function getSandboxPool(): Pool {
  if (!g.__quirePool) {
    const cfg = getConfig();
    g.__quirePool = createSandboxPool({
      size: Math.max(1, cfg.workers),
      timeoutMs: cfg.jobTimeoutMs,
      memoryMb: cfg.jobMemoryMb,
      // Started from dist/ (npm run build): the children are plain JS too.
      compiled: process.env.QUIRE_COMPILED === "1",
    });
  }
  return g.__quirePool;
}

export async function closeSandboxPool() {
  const p = g.__quirePool;
  g.__quirePool = undefined;
  await p?.close();
}

/** The pool's counters if this process started one (metrics), without starting it. */
export function sandboxPoolStats() {
  return g.__quirePool?.stats();
}
