import type { Metadata } from "next";
import { HydrationBoundary, QueryClient, dehydrate } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { listRuleSets } from "@/lib/dashboard/server/rule-sets";
import { ruleSetsQuery } from "@/lib/dashboard/data/queries";
import { RulesWorkbench } from "@/components/rules/rules-workbench";
import { PageHeader } from "@/components/ui/notice";

export const metadata: Metadata = { title: "Classification rules" };

export default async function RulesPage() {
  const user = await requirePageUser();
  const qc = new QueryClient();
  qc.setQueryData(ruleSetsQuery().queryKey, { ruleSets: await listRuleSets(user.accountId) });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <PageHeader title="Classification rules" description="Write rule sets for the classifier, test them on a document, and use them from the classifier form." />
      <RulesWorkbench />
    </HydrationBoundary>
  );
}
