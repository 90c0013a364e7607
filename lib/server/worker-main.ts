import http from "node:http";
import { getConfig } from "@/lib/core/config";
import { startEngine } from "./engine";
import { createRequestHandler } from "./http-handler";
import { installGracefulStop, tolerateClosedOutput } from "./shutdown";

/**
 * `npm run worker`: a standalone queue worker for the scaled-out mode (needs DATABASE_URL). With
 * WORKER_PORT it also answers /healthz, /readyz and /metrics for orchestrators and Prometheus.
 */
async function main() {
  tolerateClosedOutput();
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
  installGracefulStop(() => probes?.close());
}
main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
