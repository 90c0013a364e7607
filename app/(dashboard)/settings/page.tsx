import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/next-auth";
import { SettingsView } from "@/components/settings/settings-view";
import { PageHeader } from "@/components/ui/notice";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  await requirePageUser();
  return (
    <>
      <PageHeader title="Settings" description="Callback signing and where the dashboard sends its calls." />
      <SettingsView />
    </>
  );
}
