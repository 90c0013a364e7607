import http from "node:http";
import path from "node:path";
import { getConfig } from "@/lib/core/config";
import { handleEngineRequest, isEnginePath } from "@/lib/api/router";
import { startEngine } from "./engine";
import { stopQueue } from "@/lib/jobs/queue";
import { closeSandboxPool } from "@/lib/jobs/sandbox-pool";
import { closeDb } from "@/lib/db/client";
import { log } from "@/lib/core/log";
import { listenAdminSocket } from "./admin-socket";
import { runAdminCommand } from "./cli";

/**
 * Quire's one process: the engine API (/v1, /v2), storage links (/files) and, unless
 * DASHBOARD=false, the Next.js dashboard for every other path.
 */
async function main() {
  const cfg = getConfig();
  const root = process.env.QUIRE_ROOT ?? process.cwd();
  process.env.QUIRE_ROOT = root;
  process.env.QUIRE_INTERNAL_URL ??= `http://127.0.0.1:${cfg.port}`;
  type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
  let nextHandler: Handler | null = null;
  if (cfg.dashboard) {
    const { default: next } = await import("next");
    const dev = process.env.QUIRE_DEV === "1";
    const app = next({ dev, dir: root, hostname: "localhost", port: cfg.port });
    await app.prepare();
    nextHandler = app.getRequestHandler() as unknown as Handler;
  }
  await startEngine();
  listenAdminSocket(runAdminCommand);
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (isEnginePath(pathname) || !nextHandler) {
      if (!isEnginePath(pathname) && !nextHandler) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: true, status: 404, message: "The dashboard is off (DASHBOARD=false); the API is under /v1." }));
        return;
      }
      void handleEngineRequest(req, res);
    } else {
      nextHandler(req, res).catch((e: unknown) => {
        log.error("dashboard request failed", e);
        if (!res.headersSent) res.writeHead(500).end();
      });
    }
  });
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 0; // sync calls may wait up to SYNC_TIMEOUT_MS; uploads stream
  await new Promise<void>((resolve) => server.listen(cfg.port, cfg.host, resolve));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : cfg.port;
  process.stdout.write(
    `Quire is listening on http://127.0.0.1:${port}\n` +
      (nextHandler ? `  Dashboard: ${cfg.publicUrl}/\n` : "  Dashboard: off (DASHBOARD=false)\n") +
      `  API:       ${cfg.publicUrl}/v1  (OpenAPI: ${cfg.publicUrl}/v1/openapi.json)\n` +
      `  Data:      ${path.relative(root, cfg.dataDir) || "."} (${cfg.databaseUrl ? "PostgreSQL" : "embedded PGlite"})\n`,
  );
  const shutdown = async (signal: string) => {
    log.info(`${signal}: shutting down`);
    server.close();
    await stopQueue();
    await closeSandboxPool();
    await closeDb().catch(() => {});
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  if (process.env.LOG_LEVEL === "debug" && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});
