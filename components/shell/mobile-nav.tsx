"use client";

import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { usePathname } from "next/navigation";
import { Icon } from "@/components/ui/icon";
import { NavLinks } from "./nav-links";
import type { NavGroup } from "@/lib/dashboard/shell/nav";

/**
 * Phone-width navigation: a menu button opening the sidebar as a drawer. The drawer is portalled
 * to <body>: inside the header, whose backdrop-filter makes it the containing block of fixed
 * descendants, a `fixed inset-0` drawer would be clipped to the header's 56 px.
 */
export function MobileNav({ groups }: { groups: NavGroup[] }) {
  const pathname = usePathname();
  // Open on the page where it was opened: navigating elsewhere closes it, with no effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (v: boolean) => setOpenOn(v ? pathname : null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <div className="lg:hidden">
      <button
        type="button"
        className="btn-ghost -ml-2 px-2"
        aria-label="Open navigation"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <Icon name="menu" className="size-5" />
      </button>
      {open
        ? createPortal(
            <div
              className="fixed inset-0 z-50 lg:hidden"
              role="dialog"
              aria-modal="true"
              aria-label="Navigation"
            >
              <div className="absolute inset-0 bg-zinc-950/50" onClick={() => setOpen(false)} />
              <div className="absolute inset-y-0 left-0 w-72 max-w-[85vw] overflow-y-auto bg-white shadow-xl dark:bg-zinc-900">
                <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
                  <span className="font-semibold">Quire</span>
                  <button
                    type="button"
                    className="btn-ghost px-2"
                    aria-label="Close navigation"
                    onClick={() => setOpen(false)}
                    autoFocus
                  >
                    <Icon name="close" className="size-5" />
                  </button>
                </div>
                <NavLinks groups={groups} onNavigate={() => setOpen(false)} idPrefix="drawer" />
              </div>
            </div>,
            document.body,
          )
        : null}
    </div>
  );
}
