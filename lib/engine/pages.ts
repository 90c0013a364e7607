import { QuireError } from "@/lib/core/errors";

/**
 * Parses the seed's page selection syntax: comma-separated `N`, `N-M`, `N-`, reverse indices
 * `!N` (`!0` = last page in 0-based mode, `!1` in 1-based mode) and reverse ranges `!5-!2`.
 * Returns one group of 0-based page indices per item, in the order given. Empty or undefined
 * selects every page as one group. Malformed text → 450; a page past the end → 449.
 */
export function parsePageGroups(spec: string | undefined | null, pageCount: number, base: 0 | 1): number[][] {
  const text = (spec ?? "").trim();
  if (text === "") return [Array.from({ length: pageCount }, (_, i) => i)];
  const groups: number[][] = [];
  for (const rawItem of text.split(",")) {
    const item = rawItem.replace(/\s+/g, "");
    if (item === "") throw new QuireError(450, `pages: empty item in "${text}"; use items like 1, 2-5, 7- or !1.`);
    const m = /^(!?\d+)(?:(-)(!?\d+)?)?$/.exec(item);
    if (!m) throw new QuireError(450, `pages: "${rawItem.trim()}" is not a page, range (N-M, N-) or reverse index (!N).`);
    const from = resolveIndex(m[1], pageCount, base, text);
    const to = m[2] ? (m[3] !== undefined ? resolveIndex(m[3], pageCount, base, text) : pageCount - 1) : from;
    if (to < from) {
      throw new QuireError(450, `pages: range "${rawItem.trim()}" ends before it starts.`);
    }
    const group: number[] = [];
    for (let i = from; i <= to; i++) group.push(i);
    groups.push(group);
  }
  return groups;
}

/** The selected 0-based page indices in order, without duplicates. */
export function parsePages(spec: string | undefined | null, pageCount: number, base: 0 | 1): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const g of parsePageGroups(spec, pageCount, base)) {
    for (const p of g) {
      if (seen.has(p)) continue;
      seen.add(p);
      out.push(p);
    }
  }
  return out;
}

function resolveIndex(token: string, pageCount: number, base: 0 | 1, text: string): number {
  const reverse = token.startsWith("!");
  const n = Number.parseInt(reverse ? token.slice(1) : token, 10);
  const first = base; // lowest valid number in this mode
  const shown = (i: number) => i + base;
  if (reverse) {
    if (n < first) throw new QuireError(450, `pages: reverse index "${token}" is below !${first} in "${text}".`);
    const idx = pageCount - 1 - (n - base);
    if (idx < 0) {
      throw new QuireError(449, `pages: "${token}" is before the first page; the document has ${pageCount} page(s).`);
    }
    return idx;
  }
  if (n < first) throw new QuireError(450, `pages: page numbers start at ${first} here, got ${n}.`);
  const idx = n - base;
  if (idx >= pageCount) {
    throw new QuireError(
      449,
      `pages: page ${n} is past the last page (${shown(pageCount - 1)}); the document has ${pageCount} page(s).`,
    );
  }
  return idx;
}
