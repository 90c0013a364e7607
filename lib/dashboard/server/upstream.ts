import "server-only";
import { Readable } from "node:stream";
import { getConfig } from "@/lib/core/config";
import { isQuireError } from "@/lib/core/errors";
import { engineBaseUrl, getProxyTarget, getRemoteUpstream } from "@/lib/auth/upstream";
import { egressStream } from "@/lib/egress";
import type { SessionUser } from "@/lib/auth/users";
import { resolveOwnFile } from "@/lib/storage/local-store";

/**
 * The one way the dashboard's server code calls an account's upstream. Quire's own engine is
 * reached over loopback; a remote service goes through the egress guard on every call — its
 * address checked again (the name may resolve elsewhere since it was saved) and the connection
 * pinned to the checked address. The account's key is added here and nowhere else: the proxy
 * (forward.ts), the server prefetch (prefetch.ts) and the previewers (outputs.ts) all call in.
 */

export interface UpstreamInit {
  method?: string;
  headers?: Record<string, string>;
  /** A request body, streamed as it arrives. */
  body?: ReadableStream<Uint8Array> | null;
  /** Its length, when known (else it is sent chunked). */
  contentLength?: number;
  signal?: AbortSignal;
  /** Time until the answer's head arrives (default 60 s). */
  timeoutMs?: number;
}

export interface UpstreamAnswer {
  /** The answer, its body streaming. */
  response: Response;
  isRemote: boolean;
  /** performance.now() when the request left (after the target was resolved and checked). */
  sentAt: number;
}

/** The upstream could not be reached (502) or its address is refused (403). */
export class UpstreamError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

/** Calls an API path (`/v1/...?query`) of the account's upstream with the account's key. */
export async function callUpstream(
  user: SessionUser,
  pathAndQuery: string,
  init: UpstreamInit = {},
): Promise<UpstreamAnswer> {
  const target = await getProxyTarget(user.accountId);
  const headers: Record<string, string> = { ...init.headers, "x-api-key": target.apiKey };
  if (!target.isRemote) headers["x-quire-via"] = "dashboard";
  // The browser's address and host are for this server only, never a remote service.
  else for (const h of ["x-forwarded-proto", "x-forwarded-host", "x-forwarded-for"]) delete headers[h];
  if (init.contentLength !== undefined) headers["content-length"] = String(init.contentLength);
  const url = target.baseUrl.replace(/\/+$/, "") + pathAndQuery;
  return send(url, target.isRemote, { ...init, headers });
}

/**
 * Reads an output link the upstream answered with (no key: the links carry their own signature).
 * Quire's own links (its signed /files links under whatever host they name, or the object
 * store's presigned URLs) are read from storage directly; links on PUBLIC_URL or the engine's
 * loopback origin from the engine; other https links only when the account uses a remote upstream.
 */
export async function fetchUpstreamLink(
  user: SessionUser,
  link: URL,
  init: UpstreamInit = {},
): Promise<UpstreamAnswer> {
  const stored = await resolveOwnFile(link.href).catch(() => null);
  if (stored) {
    const sentAt = performance.now();
    const body = Readable.toWeb(await stored.open()) as ReadableStream<Uint8Array>;
    const headers = { "content-type": stored.row.contentType, "content-length": String(stored.row.size) };
    return { response: new Response(body, { status: 200, headers }), isRemote: false, sentAt };
  }
  const engine = engineBaseUrl();
  if ([new URL(getConfig().publicUrl).origin, new URL(engine).origin].includes(link.origin)) {
    return send(engine.replace(/\/+$/, "") + link.pathname + link.search, false, init);
  }
  const remote = await getRemoteUpstream(user.accountId);
  if (!remote || link.protocol !== "https:")
    throw new UpstreamError(403, "url: only output links of your upstream can be read here");
  return send(link.href, true, init);
}

async function send(url: string, isRemote: boolean, init: UpstreamInit): Promise<UpstreamAnswer> {
  const sentAt = performance.now();
  return { response: await request(url, isRemote, init), isRemote, sentAt };
}

async function request(url: string, isRemote: boolean, init: UpstreamInit): Promise<Response> {
  const method = (init.method ?? "GET").toUpperCase();
  const timeoutMs = init.timeoutMs ?? 60_000;
  const where = isRemote ? `The remote API at ${new URL(url).host}` : "Quire's engine";
  if (!isRemote) {
    // Loopback to this server: not a caller-named address, so no egress check.
    const head = new AbortController();
    const timer = setTimeout(
      () => head.abort(new UpstreamError(504, `${where} did not answer within ${timeoutMs / 1000} s.`)),
      timeoutMs,
    );
    try {
      return await fetch(url, {
        method,
        headers: init.headers,
        body: init.body ?? undefined,
        // Node's fetch streams a request body only in half-duplex mode.
        ...(init.body ? { duplex: "half" } : {}),
        redirect: "manual",
        signal: init.signal ? AbortSignal.any([init.signal, head.signal]) : head.signal,
        cache: "no-store",
      } as RequestInit);
    } catch (e) {
      if (init.signal?.aborted) throw e;
      if (head.signal.aborted) throw head.signal.reason;
      throw new UpstreamError(502, `${where} did not answer.`);
    } finally {
      clearTimeout(timer);
    }
  }
  try {
    const r = await egressStream(url, {
      method,
      headers: init.headers,
      body: init.body ?? undefined,
      contentLength: init.contentLength,
      signal: init.signal,
      timeoutMs,
      field: "upstream",
    });
    const nullBody = r.status === 204 || r.status === 304 || method === "HEAD";
    if (nullBody) r.body.resume();
    const status = r.status >= 200 && r.status <= 599 ? r.status : 502;
    return new Response(nullBody ? null : (Readable.toWeb(r.body) as ReadableStream<Uint8Array>), {
      status,
      headers: r.headers,
    });
  } catch (e) {
    if (init.signal?.aborted) throw e;
    if (isQuireError(e) && (e.status === 403 || e.status === 452)) throw new UpstreamError(403, e.message);
    if (isQuireError(e) && e.status === 408)
      throw new UpstreamError(504, `${where} did not answer within ${timeoutMs / 1000} s.`);
    throw new UpstreamError(502, `${where} did not answer.`);
  }
}
