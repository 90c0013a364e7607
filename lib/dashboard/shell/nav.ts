import type { IconName } from "./icon-paths";

/** One link of the sidebar. */
export interface NavItem {
  href: string;
  label: string;
  icon: IconName;
  badge?: string;
  /** Extra words the sidebar's filter matches (the operation's summary, id and path). */
  keywords?: string;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
  /** A category of operations: folds away (open when it holds the current page or a search hit). */
  category?: string;
}

export const categoryLabels: Record<string, string> = {
  info: "Info",
  extract: "Extract",
  convert: "Convert",
  edit: "Edit",
  organize: "Organise",
  secure: "Secure",
  optimize: "Optimise",
  intelligence: "Intelligence",
  files: "Files",
  barcodes: "Barcodes",
  email: "E-mail",
};

/** The order categories are listed in; a category not named here comes last. */
export const categoryOrder = ["info", "extract", "convert", "edit", "organize", "secure", "optimize", "intelligence", "barcodes", "email", "files"];

/** What each category holds, for the overview's headings. */
export const categoryDescriptions: Record<string, string> = {
  info: "Read a document's properties and fields.",
  extract: "Take text, tables and files out of documents.",
  convert: "Turn documents, pages, images and sheets into other formats.",
  edit: "Add text, images and fields; change what a page shows.",
  organize: "Merge, split, rotate and remove pages.",
  secure: "Passwords and permissions.",
  optimize: "Make files smaller and faster to open.",
  intelligence: "Read invoices, classify documents.",
  files: "Upload, store and manage files.",
  barcodes: "Make and read barcodes and QR codes.",
  email: "Send e-mails and read .eml and .msg files.",
};

export type CatalogLike = { id: string; title: string; summary?: string; path?: string; category: string; deprecated?: boolean };

/** Operations grouped by category, in the categories' order (unknown categories last, by name). */
export function groupByCategory<T extends CatalogLike>(ops: T[]): { category: string; label: string; ops: T[] }[] {
  const cats = [...new Set(ops.map((o) => o.category))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return cats.map((category) => ({ category, label: categoryLabels[category] ?? category, ops: ops.filter((o) => o.category === category) }));
}

function rank(cat: string): number {
  const i = categoryOrder.indexOf(cat);
  return i < 0 ? categoryOrder.length : i;
}

/** True when every word of the query is found in the operation's title, summary, id, path or category. */
export function matchesQuery(text: string, query: string): boolean {
  const hay = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/** The sidebar: overview, operations grouped by category, tools, account. */
export function buildNav(ops: CatalogLike[]): NavGroup[] {
  const groups: NavGroup[] = [
    {
      label: "Overview",
      items: [
        { href: "/", label: "Dashboard", icon: "home" },
        { href: "/jobs", label: "Jobs", icon: "jobs" },
        { href: "/operations", label: "All operations", icon: "grid" },
      ],
    },
  ];
  for (const g of groupByCategory(ops)) {
    groups.push({
      label: g.label,
      category: g.category,
      items: g.ops.map((o) => ({
        href: `/operations/${o.id}`,
        label: o.title,
        icon: (g.category in categoryLabels ? g.category : "doc") as IconName,
        badge: o.deprecated ? "old" : undefined,
        keywords: [o.summary, o.id, o.path, g.label].filter(Boolean).join(" "),
      })),
    });
  }
  groups.push({
    label: "Tools",
    items: [
      { href: "/invoices", label: "Invoice review", icon: "invoice" },
      { href: "/rules", label: "Classification rules", icon: "rules" },
      { href: "/templates", label: "Templates", icon: "rules" },
      { href: "/files", label: "Files", icon: "folder" },
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
