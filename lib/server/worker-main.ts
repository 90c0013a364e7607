import { startEngine } from "./engine";
import { stopQueue } from "@/lib/jobs/queue";
import { closeSandboxPool } from "@/lib/jobs/sandbox-pool";
import { log } from "@/lib/core/log";

/** `npm run worker`: a standalone queue worker for the scaled-out mode (needs DATABASE_URL). */
async function main() {
  if (!process.env.DATABASE_URL) {
    process.stderr.write("npm run worker needs DATABASE_URL (PostgreSQL): embedded PGlite is one process.\n");
    process.exit(2);
  }
  await startEngine({ workers: true });
  process.stdout.write("Quire worker started\n");
  const stop = async () => {
    log.info("worker stopping");
    await stopQueue();
    await closeSandboxPool();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}
main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
