import "server-only";
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { handleEngineRequest, isEnginePath } from "@/lib/api/router";
import { resolveForwarded, publicUrlFor } from "@/lib/core/forwarded";
import { runWithContext } from "@/lib/core/request-context";
import { metrics } from "@/lib/core/metrics";
import { log } from "@/lib/core/log";
import { readiness } from "./health";
import { routeLabel, serveMetrics } from "./metrics";

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** HTTP/2 pseudo-headers (":method"...) are not header names Next's fetch Headers accept. */
function dropPseudoHeaders(req: IncomingMessage) {
  for (const k of Object.keys(req.headers)) if (k.startsWith(":")) delete req.headers[k];
}

/**
 * Everything in front of the engine and the dashboard, on every listener: the request id
 * (x-request-id in and out), who the client is and which scheme and host it used (TRUST_PROXY),
 * HSTS on https, the operations endpoints (/healthz, /readyz, /metrics), request metrics, and the
 * context that builds links and follows the request into its job.
 */
export function createRequestHandler(opts: {
  next: Handler | null;
  trusted?: boolean;
  probesOnly?: boolean;
}): Handler {
  return async (req, res) => {
    const started = process.hrtime.bigint();
    const incoming = req.headers["x-request-id"];
    const requestId =
      typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    res.setHeader("x-request-id", requestId);
    const fwd = resolveForwarded({
      remoteAddress: req.socket.remoteAddress,
      encrypted: Boolean((req.socket as TLSSocket).encrypted),
      headers: req.headers,
      trusted: opts.trusted,
    });
    if (req.headers.host === undefined && typeof req.headers[":authority"] === "string")
      req.headers.host = req.headers[":authority"];
    if (fwd.proto === "https") res.setHeader("strict-transport-security", "max-age=31536000");
    const pathname = (req.url ?? "/").split("?")[0];
    const isEngine = isEnginePath(pathname) || pathname === "/readyz" || pathname === "/metrics";
    const route = routeLabel(pathname, isEngine);
    res.once("finish", () => {
      const m = metrics();
      m.requests.inc({ method: req.method ?? "GET", route, status: String(res.statusCode) });
      m.requestSeconds.observe({ route }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    await runWithContext({ requestId, publicUrl: publicUrlFor(fwd) }, async () => {
      if (pathname === "/healthz") return sendPlainJson(res, 200, { ok: true });
      if (pathname === "/readyz") {
        const r = await readiness();
        return sendPlainJson(res, r.ready ? 200 : 503, { ok: r.ready, checks: r.checks });
      }
      if (pathname === "/metrics") return serveMetrics(req, res, fwd.clientIp);
      if (opts.probesOnly)
        return sendPlainJson(res, 404, {
          error: true,
          status: 404,
          message: "This port serves /healthz, /readyz and /metrics only.",
        });
      if (isEnginePath(pathname)) return handleEngineRequest(req, res);
      if (!opts.next) {
        return sendPlainJson(res, 404, {
          error: true,
          status: 404,
          message: "The dashboard is off (DASHBOARD=false); the API is under /v1.",
        });
      }
      // The dashboard sees the client's own scheme, host and address, never what a client forged.
      dropPseudoHeaders(req);
      req.headers["x-forwarded-proto"] = fwd.proto;
      req.headers["x-forwarded-for"] = fwd.clientIp;
      if (fwd.host) req.headers["x-forwarded-host"] = fwd.host;
      else delete req.headers["x-forwarded-host"];
      try {
        await opts.next(req, res);
      } catch (e) {
        log.error("dashboard request failed", e);
        if (!res.headersSent) res.writeHead(500).end();
      }
    });
  };
}

function sendPlainJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}
