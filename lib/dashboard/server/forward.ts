import "server-only";
import { getTarget } from "./backend";
import { checkUrl } from "@/lib/egress";
import { isQuireError } from "@/lib/core/errors";
import type { SessionUser } from "@/lib/auth/next-auth";

/** Request headers passed through to the upstream (never cookies or the browser's auth). */
const PASS_REQUEST = ["content-type", "accept", "content-length"];
/** Response headers passed back (bodies are re-streamed, so no encoding/length). */
const PASS_RESPONSE = [
  "content-type",
  "content-disposition",
  "cache-control",
  "retry-after",
  "ratelimit",
  "ratelimit-policy",
  "x-request-id",
];

/** Only the API's own paths may be reached through the proxy. */
export function isApiPath(path: string): boolean {
  return /^\/v[12]\/[A-Za-z0-9/_.\-]*$/.test(path) && !path.includes("..");
}

function joinUrl(base: string, path: string, search: string): string {
  return base.replace(/\/+$/, "") + path + search;
}

/**
 * Forwards one API call to the account's upstream with its key, streaming both bodies and
 * passing the status through. Adds a Server-Timing entry with the time to upstream headers.
 */
export async function forwardToUpstream(req: Request, user: SessionUser, path: string): Promise<Response> {
  const started = performance.now();
  const target = await getTarget(user.accountId);
  const incoming = new URL(req.url);
  const headers = new Headers();
  for (const h of PASS_REQUEST) {
    const v = req.headers.get(h);
    if (v) headers.set(h, v);
  }
  headers.set("x-api-key", target.apiKey);
  if (!target.isRemote) {
    headers.set("x-quire-via", "dashboard");
    // Quire's own engine builds links for the browser's scheme and host, and logs under the same request id.
    for (const h of ["x-forwarded-proto", "x-forwarded-host", "x-forwarded-for", "x-request-id"]) {
      const v = req.headers.get(h);
      if (v) headers.set(h, v);
    }
  }
  if (target.isRemote) {
    // A remote upstream was checked when it was saved; its name may resolve elsewhere since.
    // Re-check it through the egress guard on every call (the engine's own URL is internal).
    try {
      await checkUrl(target.baseUrl);
    } catch (e) {
      const message = isQuireError(e) ? e.message : "The remote API's address is not allowed.";
      return Response.json({ error: true, status: 403, message }, { status: 403 });
    }
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const prepared = performance.now();
  let upstream: Response;
  try {
    upstream = await fetch(joinUrl(target.baseUrl, path, incoming.search), {
      method: req.method,
      headers,
      body: hasBody ? req.body : undefined,
      // Node's fetch streams a request body only in half-duplex mode.
      ...(hasBody ? { duplex: "half" } : {}),
      redirect: "manual",
      signal: req.signal,
      cache: "no-store",
    } as RequestInit);
  } catch (err) {
    if (req.signal.aborted) return new Response(null, { status: 499 });
    const message = target.isRemote
      ? `The remote API at ${new URL(target.baseUrl).host} did not answer.`
      : "Quire's engine did not answer.";
    console.error("proxy: upstream fetch failed", err);
    return Response.json({ error: true, status: 502, message }, { status: 502 });
  }
  const out = new Headers();
  for (const h of PASS_RESPONSE) {
    const v = upstream.headers.get(h);
    if (v) out.set(h, v);
  }
  const own = (prepared - started).toFixed(1);
  const wait = (performance.now() - prepared).toFixed(1);
  out.set("server-timing", `proxy;dur=${own}, upstream;dur=${wait}`);
  out.set("cache-control", upstream.headers.get("cache-control") ?? "no-store");
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: out });
}
