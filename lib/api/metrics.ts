import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import crypto from "node:crypto";
import type { TLSSocket } from "node:tls";
import { resolveForwarded } from "@/lib/core/forwarded";
import { gaugeFrom, metrics } from "@/lib/core/metrics";
import { getConfig } from "@/lib/core/config";
import { getDbHandle } from "@/lib/db/client";
import { JOBS_QUEUE } from "@/lib/jobs/queue";
import { sandboxPoolStats } from "@/lib/jobs/sandbox-pool";

let registered = false;

/** The gauges read at scrape time: queue depth (shared, from the database) and this process's sandbox. */
function registerGauges() {
  if (registered) return;
  registered = true;
  gaugeFrom(
    "quire_queue_jobs_waiting",
    "Background jobs queued and not yet taken by a worker (all nodes).",
    async () => {
      const h = await getDbHandle();
      const r = await h.exec(
        `select count(*)::int as n from pgboss.job where name = $1 and state in ('created', 'retry')`,
        [JOBS_QUEUE],
      );
      return Number(r.rows[0]?.n ?? 0);
    },
  );
  gaugeFrom("quire_queue_jobs_active", "Background jobs being worked on (all nodes).", async () => {
    const h = await getDbHandle();
    const r = await h.exec(`select count(*)::int as n from pgboss.job where name = $1 and state = 'active'`, [
      JOBS_QUEUE,
    ]);
    return Number(r.rows[0]?.n ?? 0);
  });
  gaugeFrom(
    "quire_sandbox_restarts_total",
    "Sandbox child processes started beyond the pool size (crashes, kills, recycling) in this process.",
    () => {
      const s = sandboxPoolStats();
      return s ? Math.max(0, s.started - s.size) : 0;
    },
  );
  gaugeFrom(
    "quire_sandbox_busy",
    "Sandbox children running a job in this process.",
    () => sandboxPoolStats()?.busy ?? 0,
  );
}

function tokenMatches(given: string, expected: string) {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * GET /metrics in Prometheus' text format. With METRICS_TOKEN set it needs
 * `Authorization: Bearer <token>`; without, only clients on this machine get it.
 */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse) {
  const clientIp = resolveForwarded({
    remoteAddress: req.socket.remoteAddress,
    encrypted: Boolean((req.socket as TLSSocket).encrypted),
    headers: req.headers,
  }).clientIp;
  const token = getConfig().metricsToken;
  if (token) {
    const auth = String(req.headers.authorization ?? "");
    const given = auth.toLowerCase().startsWith("bearer ") ? auth.slice(7).trim() : "";
    if (!tokenMatches(given, token)) {
      res.writeHead(401, { "content-type": "text/plain", "www-authenticate": 'Bearer realm="metrics"' });
      return res.end("metrics: send Authorization: Bearer <METRICS_TOKEN>\n");
    }
  } else if (!isLoopback(clientIp)) {
    res.writeHead(403, { "content-type": "text/plain" });
    return res.end("metrics: only from this machine unless METRICS_TOKEN is set\n");
  }
  registerGauges();
  const m = metrics();
  const body = await m.registry.metrics();
  res.writeHead(200, { "content-type": m.registry.contentType, "cache-control": "no-store" });
  res.end(body);
}

function isLoopback(ip: string) {
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}
