/**
 * The seed's page selection syntax ("0, 1-3, 5-, !0"): checks a selection as you type and
 * builds one from helper choices (pure).
 */
export function checkPages(text: string): string | null {
  if (!text.trim()) return null;
  for (const raw of text.split(",")) {
    const part = raw.trim();
    if (!part) return "pages: empty item between commas";
    if (!/^!?\d+(-(!?\d+)?)?$/.test(part)) return `pages: "${part}" is not a page, a range (2-5), an open range (5-) or a page from the end (!0)`;
    const m = /^!?(\d+)-!?(\d+)$/.exec(part);
    if (m && !part.includes("!") && Number(m[1]) > Number(m[2])) return `pages: "${part}" ends before it starts`;
  }
  return null;
}

/** A selection for the helper buttons. */
export function pagesPreset(kind: "first" | "last" | "all" | "range", base: 0 | 1, from?: number, to?: number): string {
  if (kind === "first") return String(base);
  if (kind === "last") return `!${base}`;
  if (kind === "all") return "";
  const a = from ?? base;
  return to === undefined ? `${a}-` : a === to ? String(a) : `${a}-${to}`;
}
