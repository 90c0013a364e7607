import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { prefetchQueries } from "@/lib/dashboard/server/prefetch";
import { getApiBase } from "@/lib/dashboard/server/api-base";
import { jobQuery } from "@/lib/dashboard/data/queries";
import { JobDetail } from "@/components/jobs/job-detail";

export const metadata: Metadata = { title: "Job" };

/** One job: request, result, callbacks, re-run. */
export default async function JobPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser();
  const { id } = await params;
  const [state, apiBase] = await Promise.all([prefetchQueries(user, [jobQuery(id)]), getApiBase(user)]);
  return (
    <HydrationBoundary state={state}>
      <JobDetail id={id} apiBase={apiBase} />
    </HydrationBoundary>
  );
}
