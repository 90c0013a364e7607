import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { prefetchQueries } from "@/lib/dashboard/server/prefetch";
import { jobsQuery } from "@/lib/dashboard/data/queries";
import { JobsTable } from "@/components/jobs/jobs-table";
import { PageHeader } from "@/components/ui/notice";

export const metadata: Metadata = { title: "Jobs" };

/** All jobs of the account, live. */
export default async function JobsPage() {
  const user = await requirePageUser();
  const state = await prefetchQueries(user, [jobsQuery({})]);
  return (
    <HydrationBoundary state={state}>
      <PageHeader title="Jobs" description="Every operation run by this account, from the API or the dashboard. Updates live." />
      <JobsTable />
    </HydrationBoundary>
  );
}
