import "server-only";
import path from "node:path";
import { getConfig } from "@/lib/core/config";
import { createSandboxPool } from "@/lib/jobs/sandbox/pool";

type Pool = ReturnType<typeof createSandboxPool>;
const g = globalThis as unknown as { __quirePool?: Pool };

/** The process's pool of sandboxed children that run operation runners (WORKERS of them). */
export function getSandboxPool(): Pool {
  if (!g.__quirePool) {
    const cfg = getConfig();
    const root = process.env.QUIRE_ROOT ?? process.cwd();
    // Started from dist/ (npm run build): children and runners are plain JS too.
    const compiled = process.env.QUIRE_COMPILED === "1";
    g.__quirePool = createSandboxPool({
      size: Math.max(1, cfg.workers),
      timeoutMs: cfg.jobTimeoutMs,
      memoryMb: cfg.jobMemoryMb,
      compiled,
      runnerModule: (opId: string) =>
        compiled ? path.join(root, "dist/lib/operations", opId, "runner.js") : path.join(root, "lib/operations", opId, "runner.ts"),
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
