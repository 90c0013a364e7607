import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/next-auth";
import { fetchUpstreamJson } from "@/lib/dashboard/server/prefetch";
import type { JobSummary } from "@/lib/dashboard/data/api-types";
import { StatusBadge } from "@/components/ui/status-badge";
import { PageHeader } from "@/components/ui/notice";
import { LocalTime } from "@/components/ui/local-time";

export const metadata: Metadata = { title: "Invoice review" };

/** Parsed invoices of the account, each opening the side-by-side viewer. */
export default async function InvoicesPage() {
  const user = await requirePageUser();
  const data = await fetchUpstreamJson<{ jobs: JobSummary[] }>(user, "/v1/jobs?limit=100&q=ai-invoice-parser").catch(() => ({ jobs: [] as JobSummary[] }));
  const jobs = data.jobs.filter((j) => j.operation === "ai-invoice-parser");
  return (
    <>
      <PageHeader title="Invoice review" description="Check what the invoice parser read, field by field, beside the PDF." actions={<Link href="/operations/ai-invoice-parser" className="btn-primary">Parse an invoice</Link>} />
      <div className="card overflow-x-auto">
        <table className="data-table">
          <thead><tr><th scope="col">Invoice</th><th scope="col">Status</th><th scope="col">Parsed</th></tr></thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.jobId}>
                <td><Link className="font-medium hover:text-brand-600" href={`/invoices/${encodeURIComponent(j.jobId)}`}>{j.source ? decodeURIComponent(j.source.split("/").pop() ?? j.jobId) : j.jobId}</Link></td>
                <td><StatusBadge status={j.status} /></td>
                <td><LocalTime iso={j.createdAt} mode="relative" /></td>
              </tr>
            ))}
          </tbody>
        </table>
        {jobs.length === 0 ? <p className="muted px-5 py-10 text-center text-sm">No invoices parsed yet.</p> : null}
      </div>
    </>
  );
}
