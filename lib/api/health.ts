import "server-only";
import { getDbHandle } from "@/lib/db/client";
import { getBoss, JOBS_QUEUE } from "@/lib/jobs/queue";
import { getObjectStore } from "@/lib/storage/object-store";

type Check = () => Promise<unknown>;

const checks: Record<string, Check> = {
  database: async () => (await getDbHandle()).exec("select 1"),
  queue: async () => {
    const q = await (await getBoss()).getQueue(JOBS_QUEUE);
    if (!q) throw new Error(`queue ${JOBS_QUEUE} is missing`);
  },
  storage: async () => (await getObjectStore()).check(),
};

function within<T>(ms: number, p: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}

/**
 * Readiness: the database, the queue and the object store each answer within 3 s. A node that
 * is not ready should get no traffic (503), but stays alive (/healthz) to recover by itself.
 */
export async function readiness(): Promise<{ ready: boolean; checks: Record<string, string> }> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await within(3000, check());
        return [name, "ok"] as const;
      } catch (e) {
        return [name, e instanceof Error ? e.message : String(e)] as const;
      }
    }),
  );
  return { ready: results.every(([, r]) => r === "ok"), checks: Object.fromEntries(results) };
}
