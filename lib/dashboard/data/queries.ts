import { queryOptions } from "@tanstack/react-query";
import { api, local } from "./http";
import type { Balance, JobAnswer, JobsAnswer, KeysAnswer, Ledger, RuleSet, UpstreamSettings } from "./api-types";

/**
 * Server state of the dashboard: one queryOptions factory per resource. Keys start with the
 * resource so that mutations invalidate by prefix (["jobs"] refreshes the list and every job).
 * Each factory carries its API path in `meta.path` so server components can prefetch it.
 */

export interface JobFilter {
  status?: string;
  q?: string;
  limit?: number;
}

function qs(params: Record<string, string | number | undefined>): string {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") s.set(k, String(v));
  const out = s.toString();
  return out ? `?${out}` : "";
}

const balancePath = "/v1/account/credit/balance";
export const balanceQuery = () =>
  queryOptions({
    queryKey: ["credits", "balance"],
    queryFn: ({ signal }) => api<Balance>(balancePath, { signal }),
    refetchInterval: 10_000,
    meta: { path: balancePath },
  });

const jobsPath = (f: JobFilter) => `/v1/jobs${qs({ limit: f.limit ?? 100, status: f.status, q: f.q })}`;
export const jobsQuery = (f: JobFilter = {}) =>
  queryOptions({
    queryKey: ["jobs", "list", { status: f.status ?? "", q: f.q ?? "", limit: f.limit ?? 100 }],
    queryFn: ({ signal }) => api<JobsAnswer>(jobsPath(f), { signal }),
    // The list shows a new or finished job within 3 seconds.
    refetchInterval: 2_500,
    meta: { path: jobsPath(f) },
  });

const jobPath = (id: string) => `/v1/jobs/${encodeURIComponent(id)}`;
export const jobQuery = (id: string) =>
  queryOptions({
    queryKey: ["jobs", id],
    queryFn: ({ signal }) => api<JobAnswer>(jobPath(id), { signal }),
    refetchInterval: (q) => (q.state.data?.job.status === "working" ? 1_500 : false),
    meta: { path: jobPath(id) },
  });

const ledgerPath = (days: number) => `/v1/account/credit/ledger?days=${days}`;
export const ledgerQuery = (days = 30) =>
  queryOptions({
    queryKey: ["credits", "ledger", days],
    queryFn: ({ signal }) => api<Ledger>(ledgerPath(days), { signal }),
    refetchInterval: 15_000,
    meta: { path: ledgerPath(days) },
  });

export const keysQuery = () =>
  queryOptions({
    queryKey: ["keys"],
    queryFn: ({ signal }) => api<KeysAnswer>("/v1/account/keys", { signal }),
    meta: { path: "/v1/account/keys" },
  });

export const ruleSetsQuery = () =>
  queryOptions({
    queryKey: ["rule-sets"],
    queryFn: ({ signal }) => local<{ ruleSets: RuleSet[] }>("/api/rule-sets", { signal }),
    meta: { local: "/api/rule-sets" },
  });

export const upstreamQuery = () =>
  queryOptions({
    queryKey: ["settings", "upstream"],
    queryFn: ({ signal }) => local<UpstreamSettings>("/api/settings/upstream", { signal }),
  });
