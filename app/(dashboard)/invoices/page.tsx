import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/next-auth";
import { fetchUpstreamJson } from "@/lib/dashboard/server/prefetch";
import type { JobSummary } from "@/lib/dashboard/data/api-types";
import { invoiceListRow } from "@/lib/dashboard/invoices/list";
import { StatusBadge } from "@/components/ui/status-badge";
import { PageHeader } from "@/components/ui/notice";
import { LocalTime } from "@/components/ui/local-time";

export const metadata: Metadata = { title: "Invoice review" };

/** Parsed invoices of the account, named by vendor, number, date and total, each opening the side-by-side viewer. */
export default async function InvoicesPage() {
  const user = await requirePageUser();
  const data = await fetchUpstreamJson<{ jobs: JobSummary[] }>(user, "/v1/jobs?limit=100&q=ai-invoice-parser").catch(() => ({ jobs: [] as JobSummary[] }));
  const rows = data.jobs.filter((j) => j.operation === "ai-invoice-parser").map(invoiceListRow);
  return (
    <>
      <PageHeader title="Invoice review" description="Check what the invoice parser read, field by field, beside the PDF." actions={<Link href="/operations/ai-invoice-parser" className="btn-primary">Parse an invoice</Link>} />
      <div className="card table-scroll" tabIndex={0} role="region" aria-label="Parsed invoices">
        <table className="data-table" data-testid="invoice-list">
          <thead><tr><th scope="col">Vendor</th><th scope="col" className="hidden sm:table-cell">Number</th><th scope="col" className="hidden sm:table-cell">Date</th><th scope="col" className="text-right">Total</th><th scope="col">Status</th><th scope="col" className="hidden sm:table-cell">Parsed</th></tr></thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.jobId} data-job={r.jobId}>
                <td><Link className={r.named ? "font-medium hover:text-brand-600" : "muted hover:text-brand-600"} href={`/invoices/${encodeURIComponent(r.jobId)}`} data-cell="vendor">{r.title}</Link>
                  {r.invoiceNo || r.invoiceDate ? <div className="text-xs text-zinc-500 sm:hidden dark:text-zinc-400">{[r.invoiceNo, r.invoiceDate].filter(Boolean).join(" · ")}</div> : null}
                </td>
                <td data-cell="number" className="hidden sm:table-cell">{r.invoiceNo ?? <span className="muted">—</span>}</td>
                <td data-cell="date" className="hidden whitespace-nowrap sm:table-cell">{r.invoiceDate ?? <span className="muted">—</span>}</td>
                <td data-cell="total" className="whitespace-nowrap text-right tabular-nums">{r.total ?? <span className="muted">—</span>}</td>
                <td><StatusBadge status={r.status} /></td>
                <td className="hidden whitespace-nowrap sm:table-cell"><LocalTime iso={r.createdAt} mode="relative" /></td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? <p className="muted px-5 py-10 text-center text-sm">No invoices parsed yet.</p> : null}
      </div>
    </>
  );
}
