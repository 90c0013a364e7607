import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { prefetchQueries } from "@/lib/dashboard/server/prefetch";
import { jobQuery } from "@/lib/dashboard/data/queries";
import { InvoiceJob } from "@/components/invoice/invoice-job";

export const metadata: Metadata = { title: "Invoice" };

export default async function InvoicePage({ params }: { params: Promise<{ jobId: string }> }) {
  const user = await requirePageUser();
  const { jobId } = await params;
  const state = await prefetchQueries(user, [jobQuery(jobId)]);
  return (
    <HydrationBoundary state={state}>
      <InvoiceJob jobId={jobId} />
    </HydrationBoundary>
  );
}
