import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { prefetchQueries } from "@/lib/dashboard/server/prefetch";
import { ledgerQuery, usageQuery } from "@/lib/dashboard/data/queries";
import { CreditsView } from "@/components/credits/credits-view";
import { PageHeader } from "@/components/ui/notice";

export const metadata: Metadata = { title: "Credits" };

export default async function CreditsPage() {
  const user = await requirePageUser();
  const state = await prefetchQueries(user, [usageQuery(30), ledgerQuery()]);
  return (
    <HydrationBoundary state={state}>
      <PageHeader title="Credits" description="Each call reserves its credits when accepted, and settles them when it finishes." />
      <CreditsView />
    </HydrationBoundary>
  );
}
