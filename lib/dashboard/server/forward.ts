import "server-only";
import type { SessionUser } from "@/lib/auth/users";
import { callUpstream, UpstreamError } from "./upstream";

/** Request headers passed through to the upstream (never cookies or the browser's auth). */
const PASS_REQUEST = [
  "content-type",
  "accept",
  // Quire's own engine builds links for the browser's scheme and host and logs under the same
  // request id (callUpstream drops the x-forwarded-* headers for a remote upstream).
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-forwarded-for",
  "x-request-id",
];
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

/**
 * Forwards one API call to the account's upstream with its key (lib/dashboard/server/upstream.ts),
 * streaming both bodies and passing the status through. Server-Timing gives the proxy's own time
 * (session, target, egress check) and the wait for the upstream's answer.
 */
export async function forwardToUpstream(req: Request, user: SessionUser, path: string): Promise<Response> {
  const started = performance.now();
  const headers: Record<string, string> = {};
  for (const h of PASS_REQUEST) {
    const v = req.headers.get(h);
    if (v) headers[h] = v;
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const length = Number(req.headers.get("content-length"));
  let upstream: Response;
  let sent = started;
  try {
    const answer = await callUpstream(user, path + new URL(req.url).search, {
      method: req.method,
      headers,
      body: hasBody ? req.body : null,
      contentLength:
        hasBody && Number.isFinite(length) && req.headers.has("content-length") ? length : undefined,
      signal: req.signal,
      // Synchronous calls may take long (SYNC_TIMEOUT_MS); the browser's abort still ends them.
      timeoutMs: 15 * 60_000,
    });
    sent = answer.sentAt;
    upstream = answer.response;
  } catch (err) {
    if (req.signal.aborted) return new Response(null, { status: 499 });
    if (err instanceof UpstreamError) {
      if (err.status !== 403) console.error("proxy: upstream call failed", err.message);
      return Response.json({ error: true, status: err.status, message: err.message }, { status: err.status });
    }
    console.error("proxy: upstream call failed", err);
    return Response.json({ error: true, status: 502, message: "The API did not answer." }, { status: 502 });
  }
  const out = new Headers();
  for (const h of PASS_RESPONSE) {
    const v = upstream.headers.get(h);
    if (v) out.set(h, v);
  }
  out.set(
    "server-timing",
    `proxy;dur=${(sent - started).toFixed(1)}, upstream;dur=${(performance.now() - sent).toFixed(1)}`,
  );
  out.set("cache-control", upstream.headers.get("cache-control") ?? "no-store");
  return new Response(upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: out,
  });
}
