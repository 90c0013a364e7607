"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import type { FormModel } from "@/lib/dashboard/operations/form-model";
import { jobQuery } from "@/lib/dashboard/data/queries";
import { buildCurl } from "@/lib/dashboard/jobs/curl";
import { CopyButton } from "@/components/ui/copy-button";
import { StatusBadge } from "@/components/ui/status-badge";
import { Notice } from "@/components/ui/notice";
import { ResultView } from "@/components/results/result-view";

/** The answer of a run: the result at once, or a background job followed until it ends. */
export function RunResult({ model, apiBase, request, response }: { model: FormModel; apiBase: string; request: Record<string, unknown>; response: Record<string, unknown> }) {
  const jobId = typeof response.jobId === "string" ? response.jobId : null;
  const isBackground = Boolean(jobId) && (response.status === "working" || response.status === "created" || request.async === true || model.alwaysAsync);
  const curl = buildCurl(apiBase, model.path, request);
  return (
    <section aria-labelledby="run-result-h" className="space-y-4" data-testid="run-result">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="run-result-h" className="text-lg font-semibold">Result</h2>
        {jobId ? (
          <Link href={`/jobs/${encodeURIComponent(jobId)}`} className="font-mono text-xs text-brand-600 hover:underline dark:text-brand-100">{jobId}</Link>
        ) : null}
        <div className="ml-auto">
          <CopyButton value={curl} label="Copy as curl" />
        </div>
      </div>
      {isBackground && jobId ? <JobFollower jobId={jobId} operation={model.id} sourceUrl={typeof request.url === "string" ? request.url : null} /> : <ResultView operation={model.id} result={response} jobId={jobId ?? undefined} sourceUrl={typeof request.url === "string" ? request.url : null} />}
    </section>
  );
}

function JobFollower({ jobId, operation, sourceUrl }: { jobId: string; operation: string; sourceUrl: string | null }) {
  const { data, isError, error } = useQuery({ ...jobQuery(jobId), refetchInterval: (q) => (!q.state.data || q.state.data.job.status === "working" ? 1_000 : false) });
  if (isError) return <Notice tone="error" title="Could not follow the job">{(error as Error).message}</Notice>;
  const job = data?.job;
  if (!job || job.status === "working") {
    return (
      <div className="card flex items-center gap-3 p-4" data-testid="job-working">
        <StatusBadge status="working" />
        <p className="text-sm">Running in the background… this updates by itself.</p>
      </div>
    );
  }
  if (job.status !== "success") return <Notice tone="error" title={`The job ${job.status}`}>{job.message ?? "No message."}</Notice>;
  return (
    <div className="space-y-3">
      <StatusBadge status="success" />
      <ResultView operation={operation} result={job.result ?? {}} jobId={jobId} sourceUrl={sourceUrl} />
    </div>
  );
}
