import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/next-auth";
import { getOperation } from "@/lib/operations/registry";
import { buildFormModel } from "@/lib/dashboard/operations/form-model";
import { getApiBase } from "@/lib/dashboard/server/api-base";
import { categoryLabels } from "@/lib/dashboard/shell/nav";
import { OperationForm } from "@/components/operations/operation-form";
import { PageHeader } from "@/components/ui/notice";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const op = getOperation((await params).id);
  return { title: op?.title ?? "Operation" };
}

/** One page per operation, its form generated from the contract on the server. */
export default async function OperationPage({ params }: Props) {
  const user = await requirePageUser();
  const { id } = await params;
  const op = getOperation(id);
  if (!op) notFound();
  const model = buildFormModel(op);
  const apiBase = await getApiBase(user);
  return (
    <>
      <PageHeader
        title={op.title}
        description={
          <>
            {op.summary} <span className="ml-1 rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">POST {op.path}</span>
            <span className="ml-2 text-xs text-zinc-500 dark:text-zinc-400">{categoryLabels[op.category]} · {op.cost.perCall} credit{op.cost.perCall === 1 ? "" : "s"} per call{op.cost.perPage ? ` + ${op.cost.perPage} per page` : ""}</span>
          </>
        }
      />
      <div className="max-w-5xl">
        <OperationForm model={model} apiBase={apiBase} />
      </div>
    </>
  );
}
