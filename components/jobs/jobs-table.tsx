"use client";

import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { exportHref, jobsQuery } from "@/lib/dashboard/data/queries";
import { formatDuration, formatNumber, fileNameOf } from "@/lib/dashboard/shell/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { Icon } from "@/components/ui/icon";
import { Notice } from "@/components/ui/notice";
import { LocalTime } from "@/components/ui/local-time";
import { useOperationTitle } from "@/components/shell/operation-names";
import { DateRange } from "@/components/ui/date-range";

const statuses = ["", "working", "success", "failed", "aborted"];

/**
 * Every job of the account, refreshed every few seconds: status, text and date filters, a page
 * at a time ("Load more"), and a CSV export of everything the filters select.
 */
export function JobsTable({ limit = 50, compact = false }: { limit?: number; compact?: boolean }) {
  const [status, setStatus] = useState("");
  const [q, setQ] = useState("");
  const [range, setRange] = useState({ from: "", to: "" });
  const query = useDeferredValue(q.trim());
  const filter = { status, q: query, from: range.from, to: range.to, limit };
  const { data, isError, error, isFetching, hasNextPage, fetchNextPage, isFetchingNextPage } = useInfiniteQuery({
    ...jobsQuery(filter),
    placeholderData: keepPreviousData,
  });
  const titleOf = useOperationTitle();
  const jobs = data?.pages.flatMap((p) => p.jobs) ?? [];
  const filtered = Boolean(status || query || range.from || range.to);
  return (
    <div className="card overflow-hidden">
      {compact ? null : (
        <div className="flex flex-wrap items-center gap-3 border-b border-zinc-200 p-3 dark:border-zinc-800">
          <div className="relative min-w-0 flex-[1_1_14rem]">
            <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400" />
            <label htmlFor="job-search" className="sr-only">Search jobs</label>
            <input id="job-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Search by job id, operation or source…" className="input pl-9" />
          </div>
          <div role="group" aria-label="Filter by status" className="flex flex-wrap gap-1">
            {statuses.map((s) => (
              <button key={s || "all"} type="button" onClick={() => setStatus(s)} aria-pressed={status === s} className={`btn btn-sm ${status === s ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "btn-ghost"}`}>
                {s || "All"}
              </button>
            ))}
          </div>
          <DateRange idPrefix="jobs" value={range} onChange={setRange} />
          <div className="ml-auto flex items-center gap-3">
            <a href={exportHref("jobs", { status, q: query, from: range.from, to: range.to })} className="btn-secondary btn-sm" download>
              <Icon name="download" className="size-3.5" /> Export CSV
            </a>
            <span className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400" aria-live="polite">
              <span className={`size-2 rounded-full ${isFetching ? "bg-brand-500" : "bg-emerald-500"}`} aria-hidden="true" /> Live
            </span>
          </div>
        </div>
      )}
      {isError ? (
        <div className="p-4">
          <Notice tone="error" title="Could not load jobs">{(error as Error).message}</Notice>
        </div>
      ) : null}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Jobs table">
        <table className="data-table" data-testid="jobs-table">
          <thead>
            <tr>
              <th scope="col">Operation</th>
              <th scope="col">Status</th>
              {compact ? null : <th scope="col" className="hidden lg:table-cell">Source</th>}
              <th scope="col" className="hidden sm:table-cell">Created</th>
              <th scope="col" className="hidden md:table-cell">Duration</th>
              <th scope="col" className="hidden text-right sm:table-cell">Credits</th>
              <th scope="col"><span className="sr-only">Result</span></th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.jobId} className="hover:bg-zinc-50 dark:hover:bg-zinc-800/40" data-job-id={j.jobId}>
                <td className="max-w-[10rem] sm:max-w-64">
                  <Link href={`/jobs/${encodeURIComponent(j.jobId)}`} className="font-medium text-zinc-900 hover:text-brand-600 dark:text-zinc-100 dark:hover:text-brand-100">
                    {titleOf(j.operation)}
                  </Link>
                  <div className="truncate font-mono text-[11px] text-zinc-500 dark:text-zinc-400" title={j.jobId}>{j.jobId}</div>
                  <div className="text-xs text-zinc-500 sm:hidden dark:text-zinc-400"><LocalTime iso={j.createdAt} mode="relative" /></div>
                </td>
                <td className="max-w-[8rem] sm:max-w-64">
                  <StatusBadge status={j.status} />
                  <div className="mt-1 text-xs text-zinc-500 tabular-nums sm:hidden dark:text-zinc-400">{formatNumber(j.credits)} credit{j.credits === 1 ? "" : "s"}</div>
                  {j.status === "failed" && j.message ? (
                    <p className="mt-1 line-clamp-2 text-xs break-words text-red-700 dark:text-red-400" title={j.message}>{j.message}</p>
                  ) : null}
                </td>
                {compact ? null : (
                  <td className="hidden max-w-56 truncate text-zinc-600 lg:table-cell dark:text-zinc-400" title={j.source ?? ""}>
                    {j.source ? fileNameOf(j.source) : "—"}
                  </td>
                )}
                <td className="hidden whitespace-nowrap text-zinc-600 sm:table-cell dark:text-zinc-400"><LocalTime iso={j.createdAt} mode="relative" /></td>
                <td className="hidden whitespace-nowrap tabular-nums md:table-cell">{formatDuration(j.durationMs)}</td>
                <td className="hidden text-right tabular-nums sm:table-cell">{formatNumber(j.credits)}</td>
                <td className="text-right whitespace-nowrap">
                  {j.status === "success" && (j.url || j.urls?.length) ? (
                    <a href={j.url ?? j.urls![0]} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-sm text-brand-600 hover:underline dark:text-brand-100" aria-label={`Result of ${titleOf(j.operation)} (opens a new tab)`}>
                      <span className="hidden sm:inline">Result</span> <Icon name="external" className="size-3.5" />
                    </a>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && jobs.length === 0 ? (
          <div className="px-6 py-12 text-center">
            <p className="font-medium">No jobs {filtered ? "match" : "yet"}</p>
            <p className="muted mt-1 text-sm">{filtered ? "Try another filter." : "Run an operation from the sidebar and it shows up here."}</p>
          </div>
        ) : null}
        {!data && !isError ? <div className="p-6 text-sm text-zinc-500 dark:text-zinc-400">Loading jobs…</div> : null}
      </div>
      {!compact && hasNextPage ? (
        <div className="flex items-center justify-between gap-3 border-t border-zinc-200 p-3 text-sm dark:border-zinc-800">
          <span className="muted" data-testid="jobs-shown">{formatNumber(jobs.length)} jobs shown</span>
          <button type="button" className="btn-secondary btn-sm" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </div>
      ) : null}
    </div>
  );
}
