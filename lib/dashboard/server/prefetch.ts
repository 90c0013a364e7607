import "server-only";
import { QueryClient, dehydrate, type DehydratedState } from "@tanstack/react-query";
import type { SessionUser } from "@/lib/auth/users";
import { callUpstream } from "./upstream";

/** Reads one API path for the signed-in account from its upstream (server side), with its key. */
export async function fetchUpstreamJson<T>(user: SessionUser, path: string): Promise<T> {
  const { response } = await callUpstream(user, path, { headers: { accept: "application/json" }, timeoutMs: 5_000 });
  const body = (await response.json()) as T & { error?: boolean; message?: string };
  if (!response.ok || body?.error === true) throw new Error(body?.message ?? `upstream ${response.status}`);
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
      if (q.meta?.infinite)
        return client.prefetchInfiniteQuery({ queryKey: q.queryKey, queryFn: () => fetchUpstreamJson(user, path), initialPageParam: null });
      return client.prefetchQuery({ queryKey: q.queryKey, queryFn: () => fetchUpstreamJson(user, path) });
    }),
  );
  return dehydrate(client);
}
