"use client";

import { Icon } from "@/components/ui/icon";

/** Switches light/dark and remembers the choice (the root layout's script applies it before paint). */
export function ThemeToggle() {
  const toggle = () => {
    const dark = !document.documentElement.classList.contains("dark");
    document.documentElement.classList.toggle("dark", dark);
    try {
      localStorage.setItem("quire-theme", dark ? "dark" : "light");
    } catch {}
  };
  return (
    <button type="button" onClick={toggle} className="btn-ghost px-2" aria-label="Toggle dark mode" title="Toggle dark mode">
      <Icon name="moon" className="size-5 dark:hidden" />
      <Icon name="sun" className="hidden size-5 dark:block" />
    </button>
  );
}
