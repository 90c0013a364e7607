import { QuireError, isQuireError } from "@/lib/core/errors";

/**
 * The page selection syntax of the public API: comma-separated `N`, `N-M`, `N-`, reverse indices
 * `!N` (`!0` = last page in 0-based mode, `!1` in 1-based mode) and reverse ranges `!5-!2`.
 * Pure and universal: the engine resolves selections against a document here, and the dashboard's
 * page field checks what is typed with the same reader (checkPageSelection), so both accept the same text.
 */

/** One end of an item as written: a page number, or counted from the end (`!N`). */
interface PageRef {
  token: string;
  n: number;
  reverse: boolean;
}

/** One item as written: a page, or a range whose end is a page or open (`N-`). */
interface PageItem {
  text: string;
  from: PageRef;
  to: PageRef | "end" | undefined;
}

function readRef(token: string): PageRef {
  const reverse = token.startsWith("!");
  return { token, n: Number.parseInt(reverse ? token.slice(1) : token, 10), reverse };
}

/** Reads one item's syntax; malformed → 450. */
function readItem(rawItem: string, whole: string): PageItem {
  const item = rawItem.replace(/\s+/g, "");
  if (item === "") throw new QuireError(450, `pages: empty item in "${whole}"; use items like 1, 2-5, 7- or !1.`);
  const m = /^(!?\d+)(?:(-)(!?\d+)?)?$/.exec(item);
  if (!m) throw new QuireError(450, `pages: "${rawItem.trim()}" is not a page, range (N-M, N-) or reverse index (!N).`);
  return { text: rawItem.trim(), from: readRef(m[1]), to: m[2] ? (m[3] !== undefined ? readRef(m[3]) : "end") : undefined };
}

const belowFirst = (ref: PageRef, base: 0 | 1, whole: string) =>
  ref.reverse
    ? new QuireError(450, `pages: reverse index "${ref.token}" is below !${base} in "${whole}".`)
    : new QuireError(450, `pages: page numbers start at ${base} here, got ${ref.n}.`);

const backwards = (item: PageItem) => new QuireError(450, `pages: range "${item.text}" ends before it starts.`);

/**
 * Parses a selection against a document: one group of 0-based page indices per item, in the order
 * given. Empty or undefined selects every page as one group. Malformed text → 450; a page past
 * the end → 449.
 */
export function parsePageGroups(spec: string | undefined | null, pageCount: number, base: 0 | 1): number[][] {
  const text = (spec ?? "").trim();
  if (text === "") return [Array.from({ length: pageCount }, (_, i) => i)];
  const groups: number[][] = [];
  for (const rawItem of text.split(",")) {
    const item = readItem(rawItem, text);
    const from = resolveIndex(item.from, pageCount, base, text);
    const to = item.to === undefined ? from : item.to === "end" ? pageCount - 1 : resolveIndex(item.to, pageCount, base, text);
    if (to < from) throw backwards(item);
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

/**
 * Checks a selection before the document is known (as it is typed): the message of the first
 * problem that holds whatever the page count, or null. What depends on the page count (449) is
 * left to parsePageGroups.
 */
export function checkPageSelection(spec: string | undefined | null, base: 0 | 1): string | null {
  const text = (spec ?? "").trim();
  if (text === "") return null;
  try {
    for (const rawItem of text.split(",")) {
      const item = readItem(rawItem, text);
      for (const ref of [item.from, item.to]) if (ref && ref !== "end" && ref.n < base) throw belowFirst(ref, base, text);
      const to = item.to;
      if (to && to !== "end" && to.reverse === item.from.reverse) {
        if (item.from.reverse ? to.n > item.from.n : to.n < item.from.n) throw backwards(item);
      }
    }
    return null;
  } catch (e) {
    if (isQuireError(e)) return e.message;
    throw e;
  }
}

function resolveIndex(ref: PageRef, pageCount: number, base: 0 | 1, text: string): number {
  if (ref.n < base) throw belowFirst(ref, base, text);
  if (ref.reverse) {
    const idx = pageCount - 1 - (ref.n - base);
    if (idx < 0) {
      throw new QuireError(449, `pages: "${ref.token}" is before the first page; the document has ${pageCount} page(s).`);
    }
    return idx;
  }
  const idx = ref.n - base;
  if (idx >= pageCount) {
    throw new QuireError(
      449,
      `pages: page ${ref.n} is past the last page (${pageCount - 1 + base}); the document has ${pageCount} page(s).`,
    );
  }
  return idx;
}
