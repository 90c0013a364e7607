import Link from "next/link";
import { HydrationBoundary } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { prefetchQueries } from "@/lib/dashboard/server/prefetch";
import { getCatalog } from "@/lib/dashboard/server/catalog";
import { jobsQuery } from "@/lib/dashboard/data/queries";
import { JobsTable } from "@/components/jobs/jobs-table";
import { OperationCatalog } from "@/components/operations/operation-catalog";
import { PageHeader } from "@/components/ui/notice";

/** Overview: the latest jobs, then every operation by category with search. */
export default async function OverviewPage() {
  const user = await requirePageUser();
  const [catalog, state] = await Promise.all([getCatalog(), prefetchQueries(user, [jobsQuery({ limit: 8 })])]);
  return (
    <HydrationBoundary state={state}>
      <PageHeader title={`Welcome${user.name ? `, ${user.name}` : ""}`} description="Run an operation, or follow what your API clients are doing." />
      <section aria-labelledby="recent-h" className="mb-8">
        <div className="mb-3 flex items-center justify-between">
          <h2 id="recent-h" className="text-sm font-semibold text-zinc-600 dark:text-zinc-400">Recent jobs</h2>
          <Link href="/jobs" className="text-sm text-brand-600 hover:underline dark:text-brand-100">All jobs →</Link>
        </div>
        <JobsTable limit={8} compact />
      </section>
      <section aria-labelledby="ops-h">
        <h2 id="ops-h" className="mb-3 text-sm font-semibold text-zinc-600 dark:text-zinc-400">Operations</h2>
        <OperationCatalog operations={catalog} />
      </section>
    </HydrationBoundary>
  );
}
