"use client";

import Link from "next/link";
import { useState } from "react";
import { Icon, type IconName } from "@/components/ui/icon";
import { categoryDescriptions, categoryLabels, groupByCategory, matchesQuery, type CatalogLike } from "@/lib/dashboard/shell/nav";

/**
 * Every operation as cards grouped by category, with a search box (title, summary, id, path,
 * category) and category chips: the way in when there are dozens of operations.
 */
export function OperationCatalog({ operations, autoFocus = false }: { operations: CatalogLike[]; autoFocus?: boolean }) {
  const [query, setQuery] = useState("");
  const [category, setCategory] = useState("");
  const q = query.trim();
  const all = groupByCategory(operations);
  const groups = all
    .filter((g) => !category || g.category === category)
    .map((g) => ({ ...g, ops: q ? g.ops.filter((o) => matchesQuery(`${o.title} ${o.summary ?? ""} ${o.id} ${o.path ?? ""} ${g.label}`, q)) : g.ops }))
    .filter((g) => g.ops.length);
  const found = groups.reduce((n, g) => n + g.ops.length, 0);
  return (
    <div data-testid="operation-catalog">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <div className="relative min-w-0 flex-[1_1_16rem]">
          <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400" />
          <label htmlFor="op-search" className="sr-only">Search operations</label>
          <input
            id="op-search"
            type="search"
            value={query}
            autoFocus={autoFocus}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={`Search ${operations.length} operations: “merge”, “csv”, “/v1/pdf/split”…`}
            className="input pl-9"
          />
        </div>
        <div role="group" aria-label="Category" className="flex flex-wrap gap-1">
          {[{ category: "", label: "All" }, ...all].map((g) => (
            <button
              key={g.category || "all"}
              type="button"
              aria-pressed={category === g.category}
              onClick={() => setCategory(g.category)}
              className={`btn btn-sm ${category === g.category ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "btn-ghost"}`}
            >
              {g.label}
            </button>
          ))}
        </div>
      </div>
      <p className="sr-only" aria-live="polite">{`${found} operation${found === 1 ? "" : "s"} shown`}</p>
      {groups.length === 0 ? <p className="muted py-8 text-center text-sm">No operation matches “{q}”.</p> : null}
      <div className="space-y-6">
        {groups.map((g) => (
          <section key={g.category} aria-labelledby={`cat-${g.category}`}>
            <h3 id={`cat-${g.category}`} className="flex flex-wrap items-baseline gap-x-2 text-sm font-semibold text-zinc-800 dark:text-zinc-200">
              {g.label} <span className="muted text-xs font-normal">{categoryDescriptions[g.category] ?? ""}</span>
            </h3>
            <ul className="mt-2 grid grid-cols-2 gap-2 sm:gap-3 xl:grid-cols-3">
              {g.ops.map((o) => (
                <li key={o.id} className="min-w-0">
                  <Link href={`/operations/${o.id}`} title={o.summary} className="card flex h-full gap-3 p-3 transition-shadow hover:shadow-md sm:p-4">
                    <span className="hidden size-9 shrink-0 place-items-center sm:grid rounded-lg bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-100">
                      <Icon name={(g.category in categoryLabels ? g.category : "doc") as IconName} className="size-5" />
                    </span>
                    <span className="min-w-0">
                      <span className="flex flex-wrap items-center gap-x-2 text-sm font-medium sm:text-base">
                        {o.title}
                        {o.deprecated ? <span className="rounded bg-zinc-200 px-1.5 text-[10px] font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">old</span> : null}
                      </span>
                      <span className="muted mt-0.5 line-clamp-2 hidden text-sm sm:block">{o.summary}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
