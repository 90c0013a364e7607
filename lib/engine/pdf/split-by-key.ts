import { QuireError } from "@/lib/core/errors";
import type { PageText } from "@/lib/engine/text/types";
import { splitBaseName, type SplitPart } from "./split-pdf";

/**
 * Split by key pages (POST /v1/pdf/split2): a page on which `searchString` is found starts a new
 * part. Pure: the search string's forms, the page text a search looks at, the plan of parts.
 */

/** What `searchString` asks for: text, a regular expression, or barcodes (the `[[barcode:…]]` macro). */
export type KeySearch =
  | { kind: "text"; test: (pageText: string) => boolean; describe: string }
  | { kind: "barcode"; types: string[]; value: ((text: string) => boolean) | null; describe: string };

/** `[[barcode:qrcode,datamatrix /regex/]]`, `[[barcode:qrcode value]]`, `[[barcode:code128]]`. */
const BARCODE_MACRO = /^\s*\[\[\s*barcode\s*:\s*([^\s\]]*)\s*(.*?)\s*\]\]\s*$/is;

/**
 * Reads `searchString`. Plain text matches with runs of white space as one space (a phrase may
 * break across lines) and, unless `caseSensitive`, in any letter case; `regexSearch` takes it as
 * a regular expression over the page's text (lines joined by "\n"). An invalid expression → 400.
 */
export function parseKeySearch(searchString: string, opts: { regex?: boolean; caseSensitive?: boolean } = {}): KeySearch {
  const macro = BARCODE_MACRO.exec(searchString);
  if (macro) return parseBarcodeMacro(macro[1], macro[2], opts.caseSensitive ?? false);
  const text = searchString.trim();
  if (text === "") throw new QuireError(400, "searchString: give the text (or [[barcode:…]] macro) that marks the first page of each part.");
  const flags = opts.caseSensitive ? "u" : "iu";
  if (opts.regex) {
    const re = compile(text, `m${flags}`, "searchString");
    return { kind: "text", test: (t) => re.test(t), describe: `the expression /${text}/` };
  }
  const re = new RegExp(escapeRegExp(normalizeSpace(text)).replace(/ /g, "\\s+"), flags);
  return { kind: "text", test: (t) => re.test(t), describe: `"${text}"` };
}

function parseBarcodeMacro(typeList: string, valuePart: string, caseSensitive: boolean): KeySearch {
  const types = typeList
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const value = valuePart.trim();
  let test: ((text: string) => boolean) | null = null;
  const slashed = /^\/(.*)\/([a-z]*)$/s.exec(value);
  if (slashed) {
    const re = compile(slashed[1], `${caseSensitive ? "" : "i"}u${slashed[2].replace(/[^ims]/g, "")}`, "searchString (barcode value)");
    test = (t) => re.test(t);
  } else if (value !== "") {
    test = caseSensitive ? (t) => t.includes(value) : (t) => t.toLowerCase().includes(value.toLowerCase());
  }
  const what = types.length ? types.join(", ") : "any type";
  return {
    kind: "barcode",
    types,
    value: test,
    describe: `a barcode (${what})${value ? ` with the value ${value}` : ""}`,
  };
}

function compile(source: string, flags: string, field: string): RegExp {
  try {
    return new RegExp(source, [...new Set(flags)].join(""));
  } catch (e) {
    throw new QuireError(400, `${field}: not a valid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, "")}.`);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A page's text as a search sees it: its lines in reading order, words joined by spaces, lines by "\n". */
export function pageSearchText(page: PageText): string {
  const lines = new Map<number, string[]>();
  for (const w of page.words) {
    const line = lines.get(w.lineId);
    if (line) line.push(w.text);
    else lines.set(w.lineId, [w.text]);
  }
  return [...lines.values()].map((l) => l.join(" ")).join("\n");
}

/**
 * The parts of a split at key pages (0-based, any order): each key page starts a part; the pages
 * before the first key page are a part of their own. With `excludeKeyPages` the key pages are left
 * out (a part that had only its key page disappears). Names as split's: `result_page3-5.pdf`
 * (1-based source pages; the base is `name` without .pdf).
 */
export function planKeySplit(
  pageCount: number,
  keyPages: Iterable<number>,
  opts: { excludeKeyPages?: boolean; name?: string } = {},
): SplitPart[] {
  const keys = new Set([...keyPages].filter((p) => p >= 0 && p < pageCount));
  const groups: number[][] = [];
  let current: number[] = [];
  for (let p = 0; p < pageCount; p++) {
    if (keys.has(p) && current.length > 0) {
      groups.push(current);
      current = [];
    }
    // Excluded, a key page still ends the part before it but belongs to none.
    if (keys.has(p) && opts.excludeKeyPages) continue;
    current.push(p);
  }
  if (current.length > 0) groups.push(current);
  const base = splitBaseName(opts.name);
  return groups.map((g) => {
    const first = g[0] + 1;
    const last = g[g.length - 1] + 1;
    return { pages: g, name: `${base}_page${first === last ? first : `${first}-${last}`}.pdf` };
  });
}
