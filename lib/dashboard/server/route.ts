import "server-only";
import { getSessionUser, type SessionUser } from "@/lib/auth/next-auth";
import { getConfig } from "@/lib/core/config";

/** The error body of the API (`{error, status, message}`), used by every dashboard route handler. */
export function jsonError(status: number, message: string): Response {
  return Response.json({ error: true, status, message }, { status });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request must come from a page of this dashboard: its Origin must be the
 * request's own host or PUBLIC_URL. Session cookies are SameSite=Lax already; this closes the
 * remaining cross-site POST gaps (and old browsers).
 */
function isSameOrigin(req: Request): boolean {
  if (SAFE_METHODS.has(req.method)) return true;
  const origin = req.headers.get("origin");
  if (!origin) return false;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (host && o.host === host) return true;
  try {
    return o.origin === new URL(getConfig().publicUrl).origin;
  } catch {
    return false;
  }
}

type Handler<C> = (req: Request, user: SessionUser, ctx: C) => Promise<Response> | Response;

/** Wraps a route handler: session required, same-origin for state changes, errors as JSON. */
export function withSession<C>(handler: Handler<C>) {
  return async (req: Request, ctx: C): Promise<Response> => {
    const user = await getSessionUser();
    if (!user) return jsonError(401, "Sign in to use the dashboard.");
    if (!isSameOrigin(req)) return jsonError(403, "Cross-origin request refused.");
    try {
      return await handler(req, user, ctx);
    } catch (err) {
      console.error("dashboard route failed", err);
      return jsonError(500, "The dashboard could not complete this request.");
    }
  };
}
