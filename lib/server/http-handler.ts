import "server-only";
import crypto from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { handleEngineRequest, isEnginePath, routeLabel } from "@/lib/api/router";
import { resolveForwarded, publicUrlFor, type Forwarded } from "@/lib/core/forwarded";
import { runWithContext } from "@/lib/core/request-context";
import { metrics } from "@/lib/core/metrics";
import { log } from "@/lib/core/log";

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** What a worker's WORKER_PORT serves (entries of the route table, like on web nodes). */
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

// Headers that belong to one connection, not to the request (and that HTTP/2 forbids).
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "http2-settings",
  "te",
]);

/**
 * Next's request handler needs Node's HTTP/1 request and response objects, not HTTP/2's
 * compatibility ones: a dashboard request that arrived over HTTP/2 is passed, streaming, to the
 * loopback-only internal listener (HTTP/1.1), which trusts the forwarded scheme, host and client.
 */
function viaInternalListener(
  req: IncomingMessage,
  res: ServerResponse,
  internalUrl: string,
  fwd: Forwarded,
  requestId: string,
) {
  const target = new URL(internalUrl);
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined && !k.startsWith(":") && !HOP_BY_HOP.has(k)) headers[k] = v;
  headers.host = fwd.host ?? target.host;
  headers["x-forwarded-proto"] = fwd.proto;
  headers["x-forwarded-for"] = fwd.clientIp;
  if (fwd.host) headers["x-forwarded-host"] = fwd.host;
  headers["x-request-id"] = requestId;
  return new Promise<void>((resolve) => {
    const out = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (back) => {
        const h: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(back.headers))
          if (v !== undefined && !HOP_BY_HOP.has(k)) h[k] = v;
        res.writeHead(back.statusCode ?? 502, h);
        back.pipe(res);
        back.on("end", resolve);
        back.on("error", () => (res.destroy(), resolve()));
      },
    );
    out.on("error", (e) => {
      log.error("dashboard request (HTTP/2 → internal listener) failed", e);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
      resolve();
    });
    req.pipe(out);
  });
}

/**
 * Everything in front of the engine and the dashboard, on every listener: the request id
 * (x-request-id in and out), who the client is and which scheme and host it used (TRUST_PROXY),
 * HSTS on https, request metrics, and the context that builds links and follows the request into
 * its job. The operations endpoints (/healthz, /readyz, /metrics) are entries of the route table.
 */
export function createRequestHandler(opts: {
  next: Handler | null;
  trusted?: boolean;
  probesOnly?: boolean;
  /** The internal listener's URL, for dashboard requests that came over HTTP/2. */
  internalUrl?: () => string | undefined;
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
    const isEngine = isEnginePath(pathname);
    const route = isEngine ? routeLabel(pathname) : pathname.startsWith("/_next/") ? "/_next/*" : "dashboard";
    res.once("finish", () => {
      const m = metrics();
      m.requests.inc({ method: req.method ?? "GET", route, status: String(res.statusCode) });
      m.requestSeconds.observe({ route }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    await runWithContext({ requestId, publicUrl: publicUrlFor(fwd) }, async () => {
      if (opts.probesOnly && !PROBES.has(pathname))
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
      setDashboardSecurityHeaders(res);
      const internal = opts.internalUrl?.();
      if (req.httpVersionMajor === 2 && internal)
        return viaInternalListener(req, res, internal, fwd, requestId);
      // The dashboard sees the client's own scheme, host and address, never what a client forged.
      req.headers["x-forwarded-proto"] = fwd.proto;
      req.headers["x-forwarded-for"] = fwd.clientIp;
      if (fwd.host) req.headers["x-forwarded-host"] = fwd.host;
      else delete req.headers["x-forwarded-host"];
      // The page asked for, so a sign-in redirect can come back to it (set here, never the client's).
      req.headers["x-quire-path"] = req.url ?? "/";
      try {
        await opts.next(req, res);
      } catch (e) {
        log.error("dashboard request failed", e);
        if (!res.headersSent) res.writeHead(500).end();
      }
    });
  };
}

/**
 * The dashboard's pages: nothing loads from other origins (the proxy calls upstreams
 * server-side), no other site may frame them, no MIME sniffing, no full URLs (with their signed
 * tokens) in the Referer of other sites. Next.js needs inline scripts and styles; its dev server
 * also needs eval. HSTS is set above for every HTTPS answer.
 */
function setDashboardSecurityHeaders(res: ServerResponse) {
  const dev = process.env.QUIRE_DEV === "1";
  res.setHeader(
    "content-security-policy",
    [
      "default-src 'self'",
      `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      `connect-src 'self'${dev ? " ws: wss:" : ""}`,
      "media-src 'self' data: blob:",
      "worker-src 'self' blob:",
      "frame-src 'self' blob:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  res.setHeader("x-frame-options", "DENY");
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("referrer-policy", "same-origin");
  res.setHeader("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=()");
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
