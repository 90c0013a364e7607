"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { jobQuery } from "@/lib/dashboard/data/queries";
import { Notice } from "@/components/ui/notice";
import { StatusBadge } from "@/components/ui/status-badge";
import { InvoiceView } from "./invoice-view";

/** The invoice viewer for one parser job (waits while the job is working). */
export function InvoiceJob({ jobId }: { jobId: string }) {
  const { data, isError, error } = useQuery(jobQuery(jobId));
  if (isError) return <Notice tone="error" title="Could not load the invoice">{(error as Error).message}</Notice>;
  const job = data?.job;
  return (
    <div className="space-y-4">
      <p className="text-sm"><Link href="/invoices" className="text-brand-600 hover:underline dark:text-brand-100">Invoices</Link> <span className="text-zinc-400">/</span></p>
      <h1 className="page-title flex items-center gap-3">Invoice {job ? <StatusBadge status={job.status} /> : null}</h1>
      {!job || job.status === "working" ? <Notice tone="info">Parsing… this page updates by itself.</Notice> : job.status !== "success" ? <Notice tone="error" title="Parsing failed">{job.message}</Notice> : <InvoiceView result={job.result ?? {}} jobId={jobId} sourceUrl={typeof job.request?.url === "string" ? job.request.url : job.source} />}
    </div>
  );
}
