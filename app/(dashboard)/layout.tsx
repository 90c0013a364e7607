import Link from "next/link";
import type { ReactNode } from "react";
import { HydrationBoundary } from "@tanstack/react-query";
import { requirePageUser } from "@/lib/auth/next-auth";
import { getCatalog } from "@/lib/dashboard/server/catalog";
import { prefetchQueries } from "@/lib/dashboard/server/prefetch";
import { buildNav } from "@/lib/dashboard/shell/nav";
import { balanceQuery } from "@/lib/dashboard/data/queries";
import { NavLinks } from "@/components/shell/nav-links";
import { MobileNav } from "@/components/shell/mobile-nav";
import { Balance } from "@/components/shell/balance";
import { ThemeToggle } from "@/components/shell/theme-toggle";
import { UserMenu } from "@/components/shell/user-menu";
import { OperationNamesProvider } from "@/components/shell/operation-names";

/** The signed-in shell: sidebar grouped by category, header with balance and user menu. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  const [catalog, state] = await Promise.all([getCatalog(), prefetchQueries(user, [balanceQuery()])]);
  const groups = buildNav(catalog);
  return (
    <HydrationBoundary state={state}>
      <OperationNamesProvider operations={catalog.map(({ id, title, category }) => ({ id, title, category }))}>
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
        Skip to content
      </a>
      <div className="flex min-h-dvh">
        <aside className="sticky top-0 hidden h-dvh w-64 shrink-0 flex-col border-r border-zinc-200 bg-white lg:flex dark:border-zinc-800 dark:bg-zinc-900">
          <Link href="/" className="flex h-14 items-center gap-2 border-b border-zinc-200 px-5 dark:border-zinc-800">
            <Logo />
            <span className="text-base font-semibold tracking-tight">Quire</span>
          </Link>
          <div className="flex-1 overflow-y-auto">
            <NavLinks groups={groups} />
          </div>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-zinc-200 bg-white/85 px-4 backdrop-blur sm:px-6 dark:border-zinc-800 dark:bg-zinc-900/85">
            <MobileNav groups={groups} />
            <Link href="/" className="flex items-center gap-2 lg:hidden" aria-label="Quire home">
              <Logo />
            </Link>
            <div className="ml-auto flex items-center gap-2 sm:gap-3">
              <Balance />
              <ThemeToggle />
              <UserMenu name={user.name} email={user.email} />
            </div>
          </header>
          <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 lg:px-8">
            {children}
          </main>
        </div>
      </div>
      </OperationNamesProvider>
    </HydrationBoundary>
  );
}

function Logo() {
  return (
    <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-brand-600" />
      <path d="M9 8h10l4 4v12H9z" fill="#fff" />
      <path d="M19 8v4h4" fill="#c7d2fe" />
      <path d="M12 16h8M12 19h8M12 22h5" className="stroke-brand-600" strokeWidth="1.5" />
    </svg>
  );
}
