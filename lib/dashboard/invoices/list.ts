/** One row of the dashboard's invoice list (pure: tested in tests/unit/dashboard). */
import type { JobSummary } from "@/lib/dashboard/data/api-types";

export interface InvoiceListRow {
  jobId: string;
  /** The link text: the vendor's name, else the file's name, else the job id. */
  title: string;
  /** Whether the title is the vendor (false: the file name stands in). */
  named: boolean;
  invoiceNo: string | null;
  invoiceDate: string | null;
  /** The total with its currency ("1234.50 EUR"), or null. */
  total: string | null;
  status: JobSummary["status"];
  createdAt: string;
}

/** The file name of a source URL (a signed URL's query left out), decoded. */
export function fileNameOf(source: string | null): string | null {
  if (!source) return null;
  const noQuery = source.split(/[?#]/)[0] ?? "";
  const last = noQuery.split("/").filter(Boolean).pop();
  if (!last) return null;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The invoice list's row for a parser job: named by vendor, number, date and total when the job read them. */
export function invoiceListRow(job: JobSummary): InvoiceListRow {
  const h = job.invoice ?? {};
  const file = fileNameOf(job.source);
  return {
    jobId: job.jobId,
    title: h.vendor ?? file ?? job.jobId,
    named: h.vendor !== undefined,
    invoiceNo: h.invoiceNo ?? null,
    invoiceDate: h.invoiceDate ?? null,
    total: h.total !== undefined ? (h.currency ? `${h.total} ${h.currency}` : h.total) : null,
    status: job.status,
    createdAt: job.createdAt,
  };
}
