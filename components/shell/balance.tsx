"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { balanceQuery } from "@/lib/dashboard/data/queries";
import { Icon } from "@/components/ui/icon";

/** The credit balance in the header, refreshed in the background. */
export function Balance() {
  const { data, isError } = useQuery(balanceQuery());
  const value = data ? data.remainingCredits.toLocaleString("en-US") : isError ? "—" : "…";
  return (
    <Link
      href="/credits"
      className="flex items-center gap-1.5 rounded-full border border-zinc-200 bg-white px-3 py-1 text-sm shadow-xs hover:bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:bg-zinc-800"
      data-testid="balance"
    >
      <Icon name="credits" className="size-4 text-brand-600 dark:text-brand-100" />
      <span className="sr-only">Credit balance: </span>
      <span className="font-medium tabular-nums">{value}</span>
      <span className="hidden text-zinc-600 sm:inline dark:text-zinc-400">credits</span>
    </Link>
  );
}
