import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/next-auth";
import { getCatalog } from "@/lib/dashboard/server/catalog";
import { OperationCatalog } from "@/components/operations/operation-catalog";
import { PageHeader } from "@/components/ui/notice";

export const metadata: Metadata = { title: "Operations" };

/** Every operation, by category, with search. */
export default async function OperationsPage() {
  await requirePageUser();
  const catalog = await getCatalog();
  return (
    <>
      <PageHeader title="Operations" description="Each one is an API endpoint; open it to run it from a form and copy the matching request." />
      <OperationCatalog operations={catalog} autoFocus />
    </>
  );
}
