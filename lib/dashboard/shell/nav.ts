import type { IconName } from "./icon-paths";

/** One link of the sidebar. */
export interface NavItem {
  href: string;
  label: string;
  icon: IconName;
  badge?: string;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

export const categoryLabels: Record<string, string> = {
  info: "Info",
  extract: "Extract",
  convert: "Convert",
  intelligence: "Intelligence",
  optimize: "Optimize",
  edit: "Edit",
  organize: "Organize",
};

export const categoryOrder = ["info", "extract", "convert", "intelligence", "optimize", "edit", "organize"];

/** The sidebar: overview, operations grouped by category, tools, account. */
export function buildNav(ops: { id: string; title: string; category: string; deprecated?: boolean }[]): NavGroup[] {
  const groups: NavGroup[] = [
    {
      label: "Overview",
      items: [
        { href: "/", label: "Dashboard", icon: "home" },
        { href: "/jobs", label: "Jobs", icon: "jobs" },
      ],
    },
  ];
  for (const cat of categoryOrder) {
    const items = ops
      .filter((o) => o.category === cat)
      .map((o) => ({
        href: `/operations/${o.id}`,
        label: o.title,
        icon: cat as IconName,
        badge: o.deprecated ? "old" : undefined,
      }));
    if (items.length) groups.push({ label: categoryLabels[cat] ?? cat, items });
  }
  groups.push({
    label: "Tools",
    items: [
      { href: "/invoices", label: "Invoice review", icon: "invoice" },
      { href: "/rules", label: "Classification rules", icon: "rules" },
    ],
  });
  groups.push({
    label: "Account",
    items: [
      { href: "/credits", label: "Credits", icon: "credits" },
      { href: "/keys", label: "API keys", icon: "key" },
      { href: "/settings", label: "Settings", icon: "settings" },
    ],
  });
  return groups;
}
