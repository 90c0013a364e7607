"use client";

import { useState } from "react";
import { checkPageSelection } from "@/lib/engine/pages";
import { pagesPreset } from "@/lib/dashboard/operations/pages-presets";

/** A page selection with a helper: first, last, all, or a range added with two numbers. */
export function PagesInput({ id, name, value, onChange, base, example, ...aria }: { id: string; name: string; value: string; onChange: (v: string) => void; base: 0 | 1; example?: string; "aria-invalid"?: boolean; "aria-describedby"?: string }) {
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const live = checkPageSelection(value, base);
  const add = (part: string) => onChange(value.trim() ? `${value.trim()}, ${part}` : part);
  return (
    <div className="space-y-2">
      <input id={id} name={name} className="input font-mono" value={value} onChange={(e) => onChange(e.target.value)} placeholder={example ?? (base === 0 ? "0, 2-4, 6-" : "1, 3-5, 7-")} aria-invalid={aria["aria-invalid"] || live ? true : undefined} aria-describedby={aria["aria-describedby"]} />
      <div className="flex flex-wrap items-center gap-1.5 text-xs">
        <span className="text-zinc-500 dark:text-zinc-400">Pages are {base === 0 ? "0-based (first page is 0)" : "1-based (first page is 1)"}:</span>
        <button type="button" className="btn-secondary btn-sm" onClick={() => onChange(pagesPreset("all", base))}>All</button>
        <button type="button" className="btn-secondary btn-sm" onClick={() => add(pagesPreset("first", base))}>+ First</button>
        <button type="button" className="btn-secondary btn-sm" onClick={() => add(pagesPreset("last", base))}>+ Last</button>
        <span className="inline-flex items-center gap-1">
          <label className="sr-only" htmlFor={`${id}-from`}>Range from</label>
          <input id={`${id}-from`} className="input w-16 px-2 py-1 text-xs" inputMode="numeric" placeholder="from" value={from} onChange={(e) => setFrom(e.target.value.replace(/\D/g, ""))} />
          –
          <label className="sr-only" htmlFor={`${id}-to`}>Range to</label>
          <input id={`${id}-to`} className="input w-16 px-2 py-1 text-xs" inputMode="numeric" placeholder="to/end" value={to} onChange={(e) => setTo(e.target.value.replace(/\D/g, ""))} />
          <button type="button" className="btn-secondary btn-sm" disabled={!from} onClick={() => { add(pagesPreset("range", base, Number(from), to ? Number(to) : undefined)); setFrom(""); setTo(""); }}>+ Range</button>
        </span>
      </div>
      {live ? <p className="field-error" role="status">{live}</p> : null}
    </div>
  );
}
