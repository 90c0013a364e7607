import "server-only";
import zlib from "node:zlib";
import type { BrowserContext, Request, Route } from "playwright-core";
import { QuireError, toQuireError } from "@/lib/core/errors";
import { checkUrl, egressFetch, type EgressResponse } from "@/lib/egress";

/**
 * Puts every request of a browser context through the egress guard. Chromium itself never opens
 * a connection: each http(s) request (navigations, redirects, subresources, fetch/XHR, beacons,
 * worker scripts) is performed by egressFetch — DNS resolved once, the address checked and
 * pinned — and its answer handed back with route.fulfill. Redirects are followed by egressFetch,
 * which checks every hop: Chromium does not route the second leg of a fulfilled redirect (it
 * would go to the network, where the dead-end proxy stops it), so the browser gets the final
 * answer under the first URL. The main page is fetched before navigation (see
 * renderUrlToPdf) so its redirects land on the right URL. Other schemes are refused,
 * except data: and blob:, which never touch the network. WebSockets are closed (a printed page
 * has no use for them, and they cannot be pinned). Service workers are blocked on the context.
 */
export interface EgressRouterOptions {
  /** Epoch ms after which no request is started. */
  deadline: number;
  /** Per-request time cap. */
  requestTimeoutMs: number;
  /** Per-response byte cap. */
  maxResponseBytes: number;
  /** Bytes across the whole page. */
  maxTotalBytes: number;
  /** Requests across the whole page. */
  maxRequests: number;
  /** Aborted when the job ends, cancelling requests in flight. */
  signal: AbortSignal;
  log?: (line: string) => void;
}

export interface EgressRouterState {
  /** Requests refused or failed, with the reason (for logs and tests). */
  blocked: Array<{ url: string; status: number; reason: string }>;
  /** Why the last main-frame navigation failed, if it did. */
  navigationError?: QuireError;
  requests: number;
  bytes: number;
  /** Requests being answered now, and when one last started or ended (ms epoch): network idleness. */
  inFlight: number;
  lastActivity: number;
  /** Serves `response` once for the next GET of `url` (the main page, fetched up front). */
  prime(url: string, response: EgressResponse): void;
}

// Hop-by-hop and framing headers: the body is handed over whole and decoded.
const dropResponseHeaders = new Set([
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "alt-svc",
]);
const dropRequestHeaders = new Set([
  "host",
  "connection",
  "content-length",
  "accept-encoding",
  "upgrade",
  "proxy-connection",
  "keep-alive",
  "te",
]);

/** Installs the routes on the context and returns the live state of what was fetched or blocked. */
export async function routeThroughEgress(
  context: BrowserContext,
  opts: EgressRouterOptions,
): Promise<EgressRouterState> {
  const primed = new Map<string, EgressResponse>();
  const state: EgressRouterState = {
    blocked: [],
    requests: 0,
    bytes: 0,
    inFlight: 0,
    lastActivity: Date.now(),
    prime: (url, response) => void primed.set(url, response),
  };
  const log = opts.log ?? (() => {});

  const refuse = async (route: Route, request: Request, error: QuireError, code: string) => {
    state.blocked.push({ url: request.url().slice(0, 300), status: error.status, reason: error.message });
    if (isMainNavigation(request)) state.navigationError = error;
    log(`web page: refused ${request.method()} ${request.url().slice(0, 200)}: ${error.message}`);
    await route.abort(code).catch(() => {});
  };

  await context.route("**/*", async (route, request) => {
    const url = request.url();
    const scheme = url.slice(0, url.indexOf(":") + 1).toLowerCase();
    if (scheme === "data:" || scheme === "blob:") return route.continue().catch(() => {});
    if (scheme !== "http:" && scheme !== "https:") {
      return refuse(
        route,
        request,
        new QuireError(403, `url: ${scheme} URLs are not allowed in a converted page`),
        "blockedbyclient",
      );
    }
    if (opts.signal.aborted) return route.abort("aborted").catch(() => {});
    if (++state.requests > opts.maxRequests) {
      return refuse(
        route,
        request,
        new QuireError(400, `url: the page made more than ${opts.maxRequests} requests`),
        "blockedbyclient",
      );
    }
    const remainingBytes = opts.maxTotalBytes - state.bytes;
    const remainingMs = opts.deadline - Date.now();
    if (remainingBytes <= 0 || remainingMs <= 0) {
      const why =
        remainingBytes <= 0 ? `downloaded more than ${opts.maxTotalBytes} bytes` : "ran out of time";
      return refuse(
        route,
        request,
        new QuireError(remainingBytes <= 0 ? 413 : 408, `url: the page ${why}`),
        "blockedbyclient",
      );
    }
    state.inFlight++;
    state.lastActivity = Date.now();
    try {
      let res = request.method() === "GET" ? primed.get(url) : undefined;
      if (res) primed.delete(url);
      res ??= await egressFetch(url, {
        method: request.method(),
        headers: await forwardableHeaders(request),
        body: request.postDataBuffer() ?? undefined,
        maxRedirects: 5,
        acceptAnyStatus: true,
        maxBytes: Math.min(opts.maxResponseBytes, remainingBytes),
        timeoutMs: Math.min(opts.requestTimeoutMs, remainingMs),
        signal: opts.signal,
        field: "url",
      });
      const bytes = decodeBody(res.bytes, res.headers["content-encoding"], opts.maxResponseBytes);
      state.bytes += bytes.length;
      const outHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (!dropResponseHeaders.has(k.toLowerCase())) outHeaders[k] = v;
      await route.fulfill({ status: res.status, headers: outHeaders, body: bytes });
    } catch (e) {
      const error = toQuireError(e);
      const code =
        error.status === 403
          ? "blockedbyclient"
          : error.status === 408
            ? "timedout"
            : error.status === 413
              ? "failed"
              : "connectionfailed";
      await refuse(route, request, error, code);
    } finally {
      state.inFlight--;
      state.lastActivity = Date.now();
    }
  });

  await context.routeWebSocket(/.*/, async (ws) => {
    let reason = "WebSockets are not relayed when printing a page";
    try {
      await checkUrl(ws.url().replace(/^ws(s?):/i, "http$1:"));
    } catch (e) {
      reason = toQuireError(e).message;
    }
    state.blocked.push({ url: ws.url().slice(0, 300), status: 403, reason });
    log(`web page: closed WebSocket ${ws.url().slice(0, 200)}: ${reason}`);
    await ws.close({ code: 1008, reason: reason.slice(0, 120) }).catch(() => {});
  });

  return state;
}

function isMainNavigation(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    return false; // service worker or detached frame
  }
}

async function forwardableHeaders(request: Request): Promise<Record<string, string>> {
  const all = await request.allHeaders().catch(() => request.headers());
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) {
    const key = k.toLowerCase();
    if (key.startsWith(":") || dropRequestHeaders.has(key) || key.startsWith("proxy-")) continue;
    out[key] = v;
  }
  out["accept-encoding"] = "identity";
  return out;
}

/** Servers may compress despite `accept-encoding: identity`; decode, capped like the download. */
function decodeBody(bytes: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  const enc = (encoding ?? "").trim().toLowerCase();
  if (!enc || enc === "identity" || bytes.length === 0) return bytes;
  const opts = { maxOutputLength: maxBytes };
  try {
    if (enc === "gzip" || enc === "x-gzip") return zlib.gunzipSync(bytes, opts);
    if (enc === "deflate") {
      try {
        return zlib.inflateSync(bytes, opts);
      } catch {
        return zlib.inflateRawSync(bytes, opts);
      }
    }
    if (enc === "br") return zlib.brotliDecompressSync(bytes, opts);
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new QuireError(413, `url: a response is larger than ${maxBytes} bytes once decoded`);
    throw new QuireError(400, `url: a response could not be decoded (${enc})`);
  }
  throw new QuireError(400, `url: a response uses an unsupported content encoding (${enc})`);
}
