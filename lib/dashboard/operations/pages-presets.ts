/**
 * Page selections built from the page field's helper buttons (first, last, all, a range), in the
 * syntax lib/engine/pages.ts reads (pure).
 */
export function pagesPreset(kind: "first" | "last" | "all" | "range", base: 0 | 1, from?: number, to?: number): string {
  if (kind === "first") return String(base);
  if (kind === "last") return `!${base}`;
  if (kind === "all") return "";
  const a = from ?? base;
  return to === undefined ? `${a}-` : a === to ? String(a) : `${a}-${to}`;
}
