import Link from "next/link";
import { HydrationBoundary } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { prefetchQueries } from "@/lib/dashboard/server/prefetch";
import { getCatalog } from "@/lib/dashboard/server/catalog";
import { jobsQuery } from "@/lib/dashboard/data/queries";
import { categoryLabels, categoryOrder } from "@/lib/dashboard/shell/nav";
import { JobsTable } from "@/components/jobs/jobs-table";
import { Icon, type IconName } from "@/components/ui/icon";
import { PageHeader } from "@/components/ui/notice";

/** Overview: every operation at a glance and the latest jobs. */
export default async function OverviewPage() {
  const user = await requirePageUser();
  const [catalog, state] = await Promise.all([getCatalog(), prefetchQueries(user, [jobsQuery({ limit: 8 })])]);
  const sorted = [...catalog].sort((a, b) => categoryOrder.indexOf(a.category) - categoryOrder.indexOf(b.category));
  return (
    <HydrationBoundary state={state}>
      <PageHeader title={`Welcome${user.name ? `, ${user.name}` : ""}`} description="Run an operation, or follow what your API clients are doing." />
      <section aria-labelledby="ops-h" className="mb-8">
        <h2 id="ops-h" className="mb-3 text-sm font-semibold text-zinc-600 dark:text-zinc-400">Operations</h2>
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {sorted.map((o) => (
            <li key={o.id}>
              <Link href={`/operations/${o.id}`} className="card flex h-full gap-3 p-4 transition-shadow hover:shadow-md">
                <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-100">
                  <Icon name={o.category as IconName} className="size-5" />
                </span>
                <span className="min-w-0">
                  <span className="flex items-center gap-2 font-medium">{o.title}<span className="text-[10px] font-normal tracking-wide text-zinc-500 uppercase dark:text-zinc-400">{categoryLabels[o.category]}</span></span>
                  <span className="muted mt-0.5 line-clamp-2 block text-sm">{o.summary}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="recent-h">
        <div className="mb-3 flex items-center justify-between">
          <h2 id="recent-h" className="text-sm font-semibold text-zinc-600 dark:text-zinc-400">Recent jobs</h2>
          <Link href="/jobs" className="text-sm text-brand-600 hover:underline dark:text-brand-100">All jobs →</Link>
        </div>
        <JobsTable limit={8} compact />
      </section>
    </HydrationBoundary>
  );
}
