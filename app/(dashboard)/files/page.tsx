import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { prefetchQueries } from "@/lib/dashboard/server/prefetch";
import { filesQuery } from "@/lib/dashboard/data/queries";
import { FilesView } from "@/components/files/files-view";
import { PageHeader } from "@/components/ui/notice";

export const metadata: Metadata = { title: "Files" };

export default async function FilesPage() {
  const user = await requirePageUser();
  const state = await prefetchQueries(user, [filesQuery()]);
  return (
    <HydrationBoundary state={state}>
      <PageHeader
        title="Files"
        description={<>Files stored for this account. Use a file&apos;s link (or <code>filetoken://</code> and its token) as an operation&apos;s <code>url</code>. Stored files are deleted when their link expires.</>}
      />
      <FilesView />
    </HydrationBoundary>
  );
}
