import "server-only";
import { QueryClient, dehydrate, type DehydratedState } from "@tanstack/react-query";
import { getTarget } from "./backend";
import type { SessionUser } from "@/lib/auth/next-auth";

/** Reads one API path for the signed-in account straight from its upstream (server side). */
export async function fetchUpstreamJson<T>(user: SessionUser, path: string): Promise<T> {
  const target = await getTarget(user.accountId);
  const res = await fetch(target.baseUrl.replace(/\/+$/, "") + path, {
    headers: { "x-api-key": target.apiKey, accept: "application/json", ...(target.isRemote ? {} : { "x-quire-via": "dashboard" }) },
    cache: "no-store",
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await res.json()) as T & { error?: boolean; message?: string };
  if (!res.ok || body?.error === true) throw new Error(body?.message ?? `upstream ${res.status}`);
  return body;
}

type Prefetchable = { queryKey: readonly unknown[]; meta?: Record<string, unknown> };

/**
 * Prefetches queryOptions factories (by their meta.path) for a page and returns the state to
 * hand to <HydrationBoundary>. A failed read is left to the client, which shows the error.
 */
export async function prefetchQueries(user: SessionUser, queries: Prefetchable[]): Promise<DehydratedState> {
  const client = new QueryClient();
  await Promise.all(
    queries.map((q) => {
      const path = q.meta?.path;
      if (typeof path !== "string") return undefined;
      return client.prefetchQuery({ queryKey: q.queryKey, queryFn: () => fetchUpstreamJson(user, path) });
    }),
  );
  return dehydrate(client);
}
