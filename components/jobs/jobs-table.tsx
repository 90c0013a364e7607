"use client";

import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { jobsQuery } from "@/lib/dashboard/data/queries";
import { formatDuration, formatNumber, fileNameOf } from "@/lib/dashboard/shell/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { Icon } from "@/components/ui/icon";
import { Notice } from "@/components/ui/notice";
import { LocalTime } from "@/components/ui/local-time";

const statuses = ["", "working", "success", "failed", "aborted"];

/** Every job of the account, refreshed every few seconds, with status filter and search. */
export function JobsTable({ limit = 100, compact = false }: { limit?: number; compact?: boolean }) {
  const [status, setStatus] = useState("");
  const [q, setQ] = useState("");
  const query = useDeferredValue(q.trim());
  const { data, isError, error, isFetching } = useQuery({ ...jobsQuery({ status, q: query, limit }), placeholderData: keepPreviousData });
  const jobs = data?.jobs ?? [];
  return (
    <div className="card overflow-hidden">
      {compact ? null : (
        <div className="flex flex-wrap items-center gap-3 border-b border-zinc-200 p-3 dark:border-zinc-800">
          <div className="relative min-w-48 flex-1">
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
          <span className="ml-auto flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400" aria-live="polite">
            <span className={`size-2 rounded-full ${isFetching ? "bg-brand-500" : "bg-emerald-500"}`} aria-hidden="true" /> Live
          </span>
        </div>
      )}
      {isError ? (
        <div className="p-4">
          <Notice tone="error" title="Could not load jobs">{(error as Error).message}</Notice>
        </div>
      ) : null}
      <div className="overflow-x-auto">
        <table className="data-table" data-testid="jobs-table">
          <thead>
            <tr>
              <th scope="col">Operation</th>
              <th scope="col">Status</th>
              {compact ? null : <th scope="col" className="hidden md:table-cell">Source</th>}
              <th scope="col">Created</th>
              <th scope="col" className="hidden sm:table-cell">Duration</th>
              <th scope="col" className="text-right">Credits</th>
              <th scope="col"><span className="sr-only">Result</span></th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.jobId} className="hover:bg-zinc-50 dark:hover:bg-zinc-800/40" data-job-id={j.jobId}>
                <td>
                  <Link href={`/jobs/${encodeURIComponent(j.jobId)}`} className="font-medium text-zinc-900 hover:text-brand-600 dark:text-zinc-100 dark:hover:text-brand-100">
                    {j.operation}
                  </Link>
                  <div className="max-w-56 truncate font-mono text-[11px] text-zinc-500 dark:text-zinc-400">{j.jobId}</div>
                </td>
                <td><StatusBadge status={j.status} /></td>
                {compact ? null : (
                  <td className="hidden max-w-64 truncate text-zinc-600 md:table-cell dark:text-zinc-400" title={j.source ?? ""}>
                    {j.source ? fileNameOf(j.source) : "—"}
                  </td>
                )}
                <td className="whitespace-nowrap text-zinc-600 dark:text-zinc-400"><LocalTime iso={j.createdAt} mode="relative" /></td>
                <td className="hidden whitespace-nowrap tabular-nums sm:table-cell">{formatDuration(j.durationMs)}</td>
                <td className="text-right tabular-nums">{formatNumber(j.credits)}</td>
                <td className="text-right whitespace-nowrap">
                  {j.status === "success" && (j.url || j.urls?.length) ? (
                    <a href={j.url ?? j.urls![0]} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-sm text-brand-600 hover:underline dark:text-brand-100">
                      Result <Icon name="external" className="size-3.5" />
                    </a>
                  ) : j.status === "failed" ? (
                    <span className="text-xs text-red-700 dark:text-red-400" title={j.message ?? ""}>{j.message ? j.message.slice(0, 40) : "failed"}</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && jobs.length === 0 ? (
          <div className="px-6 py-12 text-center">
            <p className="font-medium">No jobs {status || query ? "match" : "yet"}</p>
            <p className="muted mt-1 text-sm">{status || query ? "Try another filter." : "Run an operation from the sidebar and it shows up here."}</p>
          </div>
        ) : null}
        {!data && !isError ? <div className="p-6 text-sm text-zinc-500 dark:text-zinc-400">Loading jobs…</div> : null}
      </div>
    </div>
  );
}
