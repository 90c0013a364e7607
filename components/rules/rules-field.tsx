"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { ruleSetsQuery } from "@/lib/dashboard/data/queries";
import { RulesEditor } from "./rules-editor";

/** The classifier form's rules: pick a saved rule set or write rules inline. */
export function RulesField({ id, value, onChange, describedBy }: { id: string; value: string; onChange: (v: string) => void; describedBy?: string }) {
  const { data } = useQuery(ruleSetsQuery());
  const sets = data?.ruleSets ?? [];
  // The set whose rules are in the editor stays selected; editing them shows "Choose…" again.
  const selected = sets.find((s) => s.rules === value)?.id ?? "";
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-set`} className="text-xs text-zinc-600 dark:text-zinc-400">Use a saved rule set</label>
        <select id={`${id}-set`} className="input w-auto py-1 text-sm" value={selected} onChange={(e) => { const s = sets.find((x) => x.id === e.target.value); if (s) onChange(s.rules); }} data-testid="rule-set-picker">
          <option value="">{sets.length ? "Choose…" : "No saved rule sets"}</option>
          {sets.map((s) => (
            <option key={s.id} value={s.id}>{s.name}</option>
          ))}
        </select>
        <Link href="/rules" className="text-xs text-brand-600 hover:underline dark:text-brand-100">Manage rule sets</Link>
      </div>
      <RulesEditor id={id} value={value} onChange={onChange} describedBy={describedBy} minRows={5} />
    </div>
  );
}
