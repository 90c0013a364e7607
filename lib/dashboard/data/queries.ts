import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, ApiError, local } from "./http";
import type { Balance, FilesAnswer, JobAnswer, JobsAnswer, KeysAnswer, Ledger, RuleSet, UpstreamSettings } from "./api-types";

/**
 * Server state of the dashboard: one queryOptions factory per resource. Keys start with the
 * resource so that mutations invalidate by prefix (["jobs"] refreshes the list and every job).
 * Each factory carries its API path in `meta.path` so server components can prefetch it.
 */

export interface JobFilter {
  status?: string;
  q?: string;
  /** Dates (YYYY-MM-DD): created on or after `from`, on or before `to`. */
  from?: string;
  to?: string;
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
    refetchInterval: 3_000,
    meta: { path: balancePath },
  });

const jobsPath = (f: JobFilter, cursor?: string | null) =>
  `/v1/jobs${qs({ limit: f.limit ?? 50, status: f.status, q: f.q, from: f.from, to: f.to, cursor: cursor ?? undefined })}`;

/** Jobs, newest first, a page at a time ("Load more" follows the API's nextCursor). */
export const jobsQuery = (f: JobFilter = {}) =>
  infiniteQueryOptions({
    queryKey: ["jobs", "list", { status: f.status ?? "", q: f.q ?? "", from: f.from ?? "", to: f.to ?? "", limit: f.limit ?? 50 }],
    queryFn: ({ signal, pageParam }) => api<JobsAnswer>(jobsPath(f, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // The list shows a new or finished job within 3 seconds; once many pages are loaded (each
    // is read again on a refresh), every 15 s.
    refetchInterval: (q) => ((q.state.data?.pages.length ?? 1) > 4 ? 15_000 : 2_500),
    meta: { path: jobsPath(f), infinite: true },
  });

/** The link of the CSV export with the same filters. */
export function exportHref(kind: "jobs" | "ledger" | "ledger-jobs", filters: Record<string, string | number | undefined>): string {
  return `/api/export/${kind}${qs(filters)}`;
}

const jobPath = (id: string) => `/v1/jobs/${encodeURIComponent(id)}`;
export const jobQuery = (id: string) =>
  queryOptions({
    queryKey: ["jobs", id],
    queryFn: ({ signal }) => api<JobAnswer>(jobPath(id), { signal }),
    // An unknown id is an answer, not a hiccup: no retries.
    retry: (count, err) => !(err instanceof ApiError && err.status === 404) && count < 3,
    refetchInterval: (q) => (q.state.data?.job.status === "working" ? 1_500 : false),
    meta: { path: jobPath(id) },
  });

/** Use per day and operation for the chart (one ledger row only: the chart reads `daily`). */
const usagePath = (days: number) => `/v1/account/credit/ledger?days=${days}&limit=1`;
export const usageQuery = (days = 30) =>
  queryOptions({
    queryKey: ["credits", "usage", days],
    // An aggregate over the period: refreshed less often than the balance and the ledger.
    queryFn: ({ signal }) => api<Ledger>(usagePath(days), { signal }),
    refetchInterval: 30_000,
    meta: { path: usagePath(days) },
  });

export interface LedgerFilter {
  view: "entries" | "jobs";
  from?: string;
  to?: string;
  jobId?: string;
}

const ledgerPath = (f: LedgerFilter, cursor?: string | null) =>
  `/v1/account/credit/ledger${qs({ view: f.view, from: f.from, to: f.to, days: f.from ? undefined : 366, jobId: f.jobId, limit: 50, daily: "false", cursor: cursor ?? undefined })}`;

/** Ledger rows (with the balance after each) or jobs as the ledger saw them, a page at a time. */
export const ledgerQuery = (f: LedgerFilter = { view: "entries" }) =>
  infiniteQueryOptions({
    queryKey: ["credits", "ledger", { view: f.view, from: f.from ?? "", to: f.to ?? "", jobId: f.jobId ?? "" }],
    queryFn: ({ signal, pageParam }) => api<Ledger>(ledgerPath(f, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: 5_000,
    meta: { path: ledgerPath(f), infinite: true },
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

const filesPath = "/v1/file/all?limit=500";
export const filesQuery = () =>
  queryOptions({
    queryKey: ["files"],
    queryFn: ({ signal }) => api<FilesAnswer>(filesPath, { signal }),
    meta: { path: filesPath },
  });
