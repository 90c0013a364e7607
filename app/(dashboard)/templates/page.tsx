import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/next-auth";
import { TemplatesWorkbench } from "@/components/templates/templates-workbench";
import { PageHeader } from "@/components/ui/notice";

export const metadata: Metadata = { title: "Templates" };

export default async function TemplatesPage() {
  await requirePageUser();
  return (
    <>
      <PageHeader
        title="Templates"
        description="HTML templates for HTML → PDF (templateId + templateData), and document parser templates that read fields and tables from documents of a known layout."
      />
      <TemplatesWorkbench />
    </>
  );
}
