import http from "node:http";
import { getConfig } from "@/lib/core/config";
import { startEngine } from "./engine";
import { stopQueue } from "@/lib/jobs/queue";
import { closeSandboxPool } from "@/lib/jobs/sandbox-pool";
import { closeDb } from "@/lib/db/client";
import { log } from "@/lib/core/log";
import { createRequestHandler } from "./http-handler";

/**
 * `npm run worker`: a standalone queue worker for the scaled-out mode (needs DATABASE_URL). With
 * WORKER_PORT it also answers /healthz, /readyz and /metrics for orchestrators and Prometheus.
 */
async function main() {
  const cfg = getConfig();
  if (!cfg.databaseUrl) {
    process.stderr.write("npm run worker needs DATABASE_URL (PostgreSQL): embedded PGlite is one process.\n");
    process.exit(2);
  }
  await startEngine({ workers: true });
  let probes: http.Server | undefined;
  if (cfg.workerPort !== undefined) {
    const handler = createRequestHandler({ next: null, probesOnly: true });
    probes = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => probes!.listen(cfg.workerPort, cfg.host, resolve));
  }
  const port = probes ? ` (probes and metrics on port ${(probes.address() as { port: number }).port})` : "";
  process.stdout.write(`Quire worker started, pid ${process.pid}${port}\n`);
  const stop = async () => {
    log.info("worker stopping");
    probes?.close();
    await stopQueue();
    await closeSandboxPool();
    await closeDb().catch(() => {});
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}
main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
