"use client";

import Link from "next/link";
import { useState } from "react";
import { usePathname } from "next/navigation";
import { Icon } from "@/components/ui/icon";
import { matchesQuery, type NavGroup, type NavItem } from "@/lib/dashboard/shell/nav";

/**
 * The sidebar's grouped links; the current page is marked with aria-current. Categories of
 * operations fold (the current page's category starts open) and a filter box finds an
 * operation by name, summary, id or path among many.
 */
export function NavLinks({ groups, onNavigate, idPrefix = "nav" }: { groups: NavGroup[]; onNavigate?: () => void; idPrefix?: string }) {
  const pathname = usePathname();
  // "/" and the operations index are active on themselves only (each operation has its own link).
  const isActive = (href: string) => (href === "/" || href === "/operations" ? pathname === href : pathname === href || pathname.startsWith(href + "/"));
  const [query, setQuery] = useState("");
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const q = query.trim();
  const opCount = groups.filter((g) => g.category).reduce((n, g) => n + g.items.length, 0);
  const shown = groups
    .map((g) => ({ ...g, items: q && g.category ? g.items.filter((i) => matchesQuery(`${i.label} ${i.keywords ?? ""}`, q)) : g.items }))
    .filter((g) => !q || (g.category && g.items.length));
  const isOpen = (g: NavGroup) => Boolean(q) || (toggled[g.label] ?? g.items.some((i) => isActive(i.href)));
  return (
    <nav aria-label="Main" className="space-y-4 px-3 py-4">
      {opCount > 8 ? (
        <div className="relative">
          <Icon name="search" className="pointer-events-none absolute top-1/2 left-2.5 size-3.5 -translate-y-1/2 text-zinc-400" />
          <label htmlFor={`${idPrefix}-filter`} className="sr-only">Find an operation</label>
          <input
            id={`${idPrefix}-filter`}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={`Find an operation (${opCount})…`}
            className="input py-1.5 pl-8 text-sm"
          />
        </div>
      ) : null}
      {q && shown.length === 0 ? <p className="muted px-2 text-sm">No operation matches “{q}”.</p> : null}
      {shown.map((g) =>
        g.category ? (
          <div key={g.label}>
            <button
              type="button"
              aria-expanded={isOpen(g)}
              aria-controls={`${idPrefix}-cat-${g.category}`}
              onClick={() => setToggled((t) => ({ ...t, [g.label]: !isOpen(g) }))}
              className="flex w-full items-center gap-1 rounded px-2 pb-1.5 text-left text-[11px] font-semibold tracking-wider text-zinc-500 uppercase hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-200"
            >
              <Icon name="chevron" className={`size-3 transition-transform ${isOpen(g) ? "rotate-90" : ""}`} />
              {g.label}
              <span className="ml-auto font-normal tracking-normal normal-case">{g.items.length}</span>
            </button>
            {isOpen(g) ? (
              <ul id={`${idPrefix}-cat-${g.category}`} className="space-y-0.5">
                {g.items.map((item) => (
                  <NavLink key={item.href} item={item} active={isActive(item.href)} onNavigate={onNavigate} />
                ))}
              </ul>
            ) : null}
          </div>
        ) : (
          <div key={g.label}>
            <p className="px-2 pb-1.5 text-[11px] font-semibold tracking-wider text-zinc-500 uppercase dark:text-zinc-400">{g.label}</p>
            <ul className="space-y-0.5">
              {g.items.map((item) => (
                <NavLink key={item.href} item={item} active={isActive(item.href)} onNavigate={onNavigate} />
              ))}
            </ul>
          </div>
        ),
      )}
    </nav>
  );
}

function NavLink({ item, active, onNavigate }: { item: NavItem; active: boolean; onNavigate?: () => void }) {
  return (
    <li>
      <Link
        href={item.href}
        prefetch={false}
        onClick={onNavigate}
        aria-current={active ? "page" : undefined}
        title={item.label}
        className={`flex items-center gap-2.5 rounded-md px-2 py-1.5 text-sm transition-colors ${
          active
            ? "bg-brand-50 font-medium text-brand-700 dark:bg-brand-500/15 dark:text-brand-100"
            : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800/70 dark:hover:text-white"
        }`}
      >
        <Icon name={item.icon} className="size-4 shrink-0 opacity-80" />
        <span className="truncate">{item.label}</span>
        {item.badge ? (
          <span className="ml-auto rounded bg-zinc-200 px-1.5 text-[10px] font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">{item.badge}</span>
        ) : null}
      </Link>
    </li>
  );
}
