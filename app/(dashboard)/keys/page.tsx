import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { prefetchQueries } from "@/lib/dashboard/server/prefetch";
import { keysQuery } from "@/lib/dashboard/data/queries";
import { KeysView } from "@/components/keys/keys-view";
import { PageHeader } from "@/components/ui/notice";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const user = await requirePageUser();
  const state = await prefetchQueries(user, [keysQuery()]);
  return (
    <HydrationBoundary state={state}>
      <PageHeader title="API keys" description={<>Send a key in the <code>x-api-key</code> header. Keys are stored hashed; a new key is shown once.</>} />
      <KeysView />
    </HydrationBoundary>
  );
}
