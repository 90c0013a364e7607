import http from "node:http";
import path from "node:path";
import type net from "node:net";
import { getConfig } from "@/lib/core/config";
import { startEngine } from "./engine";
import { log } from "@/lib/core/log";
import { listenAdminSocket } from "./admin-socket";
import { runAdminCommand } from "./cli";
import { createRequestHandler, type Handler } from "./http-handler";
import { boundUrls, isLoopbackAddress, openListeners } from "./listen";
import { installGracefulStop, tolerateClosedOutput } from "./shutdown";

/**
 * Quire's one process: the engine API (/v1, /v2), storage links (/files), the operations
 * endpoints (/healthz, /readyz, /metrics) and, unless DASHBOARD=false, the Next.js dashboard for
 * every other path.
 */
async function main() {
  tolerateClosedOutput();
  const cfg = getConfig();
  const root = process.env.QUIRE_ROOT ?? process.cwd();
  process.env.QUIRE_ROOT = root;
  let nextHandler: Handler | null = null;
  let internal: net.Server | undefined;
  const late: { internalHandler?: Handler } = {};
  if (cfg.dashboard) {
    // The dashboard's server side calls the engine over a loopback-only plain-HTTP listener of
    // its own: it works whatever the public listener speaks (TLS, HTTP/2), and its requests are
    // trusted to carry the browser's scheme and host for the links they get back.
    internal = http.createServer((req, res) => {
      if (!late.internalHandler) return void res.writeHead(503).end();
      Promise.resolve(late.internalHandler(req, res)).catch((e: unknown) => {
        log.error("internal request failed", e);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => internal!.listen(0, "127.0.0.1", resolve));
    process.env.QUIRE_INTERNAL_URL = `http://127.0.0.1:${(internal.address() as net.AddressInfo).port}`;
    const { default: next } = await import("next");
    const dev = process.env.QUIRE_DEV === "1";
    const app = next({ dev, dir: root, hostname: "localhost", port: cfg.port });
    await app.prepare();
    nextHandler = app.getRequestHandler() as unknown as Handler;
  }
  late.internalHandler = createRequestHandler({ next: nextHandler, trusted: true });
  await startEngine();
  // The admin socket serves the CLI while this process owns the embedded database; with
  // PostgreSQL the CLI opens the database itself (and nodes may share DATA_DIR).
  if (cfg.embedded) listenAdminSocket(runAdminCommand);
  const listeners = await openListeners(
    cfg,
    createRequestHandler({ next: nextHandler, internalUrl: () => process.env.QUIRE_INTERNAL_URL }),
  );
  const scheme = cfg.tls ? "https" : "http";
  const bound = boundUrls(listeners.main, scheme);
  const shown = `${scheme}://${bound.address.includes(":") ? `[${bound.address}]` : bound.address}:${bound.port}`;
  const lines = [
    `Quire is listening on ${shown}${bound.allInterfaces ? ` (every interface: ${bound.urls.join(", ")})` : ""}${cfg.tls ? " — HTTPS, HTTP/2 and HTTP/1.1" : ""}`,
  ];
  if (listeners.redirect)
    lines.push(`  Redirect:  http on port ${(listeners.redirect.address() as net.AddressInfo).port} → https`);
  lines.push(
    nextHandler ? `  Dashboard: ${cfg.publicUrl}/` : "  Dashboard: off (DASHBOARD=false)",
    `  API:       ${cfg.publicUrl}/v1  (OpenAPI: ${cfg.publicUrl}/v1/openapi.json)`,
    `  Data:      ${path.relative(root, cfg.dataDir) || "."} (${cfg.databaseUrl ? "PostgreSQL" : "embedded PGlite"}; files: ${cfg.s3 ? `S3 bucket ${cfg.s3.bucket}` : "local disk"})`,
  );
  if (!isLoopbackAddress(bound.address) && !cfg.tls && cfg.trustProxy.entries.length === 0) {
    lines.push(
      "",
      "  WARNING: other machines can reach this server over plain HTTP: API keys, passwords and documents",
      "  would cross the network unencrypted. Serve HTTPS (TLS_CERT_FILE and TLS_KEY_FILE), or put Quire",
      "  behind a TLS proxy and set TRUST_PROXY to its address; or listen on HOST=127.0.0.1 only.",
    );
  }
  process.stdout.write(lines.join("\n") + "\n");
  installGracefulStop(() => {
    listeners.close();
    internal?.close();
  });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  if (process.env.LOG_LEVEL === "debug" && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});
