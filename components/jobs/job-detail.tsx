"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { jobQuery } from "@/lib/dashboard/data/queries";
import { api, ApiError } from "@/lib/dashboard/data/http";
import { useOperationTitle } from "@/components/shell/operation-names";
import { buildCurl } from "@/lib/dashboard/jobs/curl";
import { formatDuration, formatNumber } from "@/lib/dashboard/shell/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { CopyButton } from "@/components/ui/copy-button";
import { Notice } from "@/components/ui/notice";
import { Icon } from "@/components/ui/icon";
import { JsonTree } from "@/components/results/json-tree";
import { ResultView } from "@/components/results/result-view";
import { LocalTime } from "@/components/ui/local-time";

/** One job: its request, result, callback deliveries; re-run. */
export function JobDetail({ id, apiBase }: { id: string; apiBase: string }) {
  const qc = useQueryClient();
  const router = useRouter();
  const { data, isError, error } = useQuery(jobQuery(id));
  const rerun = useMutation({
    mutationFn: () => api<{ jobId?: string }>(`/v1/jobs/${encodeURIComponent(id)}/rerun`, { method: "POST", body: {} }),
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: ["jobs"] });
      await qc.invalidateQueries({ queryKey: ["credits"] });
      if (res.jobId && res.jobId !== id) router.push(`/jobs/${encodeURIComponent(res.jobId)}`);
    },
  });
  const titleOf = useOperationTitle();
  if (isError && error instanceof ApiError && error.status === 404) {
    return (
      <div className="space-y-4" data-testid="no-such-job">
        <p className="text-sm"><Link href="/jobs" className="text-brand-600 hover:underline dark:text-brand-100">Jobs</Link> <span className="text-zinc-400">/</span></p>
        <h1 className="page-title">No such job</h1>
        <p className="font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">{id}</p>
        <Notice tone="warning" title="This account has no job with this id">
          Check the id for a typo, or sign in with the account that ran it. (The public API&apos;s{" "}
          <code className="font-mono text-xs">/v1/job/check</code> answers <code className="font-mono text-xs">working</code> for an unknown id, as PDF.co does; pass{" "}
          <code className="font-mono text-xs">force: true</code> to get <code className="font-mono text-xs">unknown</code> instead.)
        </Notice>
        <Link href="/jobs" className="btn-secondary">All jobs</Link>
      </div>
    );
  }
  if (isError) return <Notice tone="error" title="Could not load this job">{(error as Error).message}</Notice>;
  if (!data) return <p className="muted text-sm">Loading…</p>;
  const job = data.job;
  const curl = buildCurl(apiBase, job.path, job.request);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm"><Link href="/jobs" className="text-brand-600 hover:underline dark:text-brand-100">Jobs</Link> <span className="text-zinc-400">/</span></p>
          <h1 className="page-title mt-1 flex flex-wrap items-center gap-3">
            {titleOf(job.operation)} <StatusBadge status={job.status} />
          </h1>
          <p className="mt-1 font-mono text-xs text-zinc-500 dark:text-zinc-400">{job.jobId}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <CopyButton value={curl} label="Copy as curl" className="btn-secondary" />
          <button type="button" className="btn-primary" onClick={() => rerun.mutate()} disabled={rerun.isPending || job.status === "working"}>
            <Icon name="refresh" /> {rerun.isPending ? "Re-running…" : "Re-run"}
          </button>
        </div>
      </div>
      {rerun.isError ? <Notice tone="error" title="Re-run failed">{(rerun.error as Error).message}</Notice> : null}
      {rerun.isSuccess && !rerun.data?.jobId ? <Notice tone="success">Re-run finished. The new job is at the top of the job list.</Notice> : null}
      <dl className="card grid grid-cols-2 gap-px overflow-hidden bg-zinc-200 sm:grid-cols-3 lg:grid-cols-6 dark:bg-zinc-800">
        {[
          ["Created", <LocalTime key="t" iso={job.createdAt} />],
          ["Duration", formatDuration(job.durationMs)],
          ["Credits", formatNumber(job.credits)],
          ["Pages", formatNumber(job.pageCount)],
          ["Via", job.via],
          ["Endpoint", job.path],
        ].map(([k, v]) => [k as string, v] as const).map(([k, v]) => (
          <div key={k} className="bg-white px-4 py-3 dark:bg-zinc-900">
            <dt className="text-xs text-zinc-500 dark:text-zinc-400">{k}</dt>
            <dd className="mt-0.5 truncate text-sm font-medium" title={typeof v === "string" ? v : undefined}>{v}</dd>
          </div>
        ))}
      </dl>
      {job.status === "failed" && job.message ? <Notice tone="error" title="The job failed">{job.message}</Notice> : null}
      {job.status === "working" ? <Notice tone="info" title="Working…">This page updates by itself when the job finishes.</Notice> : null}
      {job.result && job.status === "success" ? (
        <section aria-labelledby="result-h">
          <h2 id="result-h" className="mb-3 text-base font-semibold">Result</h2>
          <ResultView operation={job.operation} result={job.result} jobId={job.jobId} sourceUrl={typeof job.request?.url === "string" ? job.request.url : job.source} />
        </section>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="request-h" className="card p-4">
          <h2 id="request-h" className="mb-2 text-base font-semibold">Request</h2>
          <JsonTree value={job.request} />
        </section>
        <section aria-labelledby="cb-h" className="card p-4">
          <h2 id="cb-h" className="mb-2 text-base font-semibold">Callback deliveries</h2>
          {job.callbacks.length === 0 ? (
            <p className="muted text-sm">{(job.request as { callback?: string })?.callback ? "No delivery yet." : "This job has no callback URL."}</p>
          ) : (
            <table className="data-table">
              <thead><tr><th scope="col">#</th><th scope="col">At</th><th scope="col">Result</th></tr></thead>
              <tbody>
                {job.callbacks.map((c) => (
                  <tr key={c.attempt}>
                    <td className="tabular-nums">{c.attempt}</td>
                    <td className="whitespace-nowrap"><LocalTime iso={c.at} /></td>
                    <td>{c.ok ? <span className="text-emerald-700 dark:text-emerald-400">Delivered ({c.httpStatus})</span> : <span className="text-red-700 dark:text-red-400">{c.httpStatus ? `HTTP ${c.httpStatus}` : ""} {c.error}</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
      <details className="card p-4">
        <summary className="cursor-pointer text-sm font-medium">Raw result JSON</summary>
        <div className="mt-3"><JsonTree value={job.result} openDepth={1} /></div>
      </details>
    </div>
  );
}
