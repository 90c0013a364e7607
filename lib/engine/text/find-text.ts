import { QuireError } from "@/lib/core/errors";
import { charBoxes } from "@/lib/engine/text/char-boxes";
import type { PageText, Word } from "@/lib/engine/text/types";

/**
 * Text search over positioned words (POST /v1/pdf/find, the text edits): every occurrence with
 * the box of each line it covers, in points with a top-left origin (the page as displayed).
 * Pure: works on PageText from lib/engine/text/words.ts or OCR.
 */

/**
 * How a match must sit among words. None: anywhere, even inside a word. SmartMatch: it may not
 * cut a word made of letters and digits ("Invoice" matches "Invoice:" but not "Invoices").
 * ExactMatch: it must be whole white-space-delimited tokens ("Invoice" does not match "Invoice:").
 */
export type WordMatchingMode = "None" | "SmartMatch" | "ExactMatch";

export interface SearchOptions {
  regex?: boolean;
  caseSensitive?: boolean;
  wordMatching?: WordMatchingMode;
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface TextMatch {
  pageIndex: number;
  /** The matched text (line breaks as spaces). */
  text: string;
  /** Union of `lines`. */
  box: Box;
  /** One box per text line the match covers, in order. */
  lines: Box[];
  /** Font size of the first matched word. */
  fontSize: number;
  fontName: string;
  bold: boolean;
  italic: boolean;
  color: number;
}

/**
 * The regular expression (global, multi-line, Unicode where it can be) a search string stands for. Plain text matches with
 * runs of white space as any white space (a phrase may break across lines). An invalid regular
 * expression or an empty search → 400 naming `field`.
 */
export function compileSearch(search: string, opts: SearchOptions = {}, field = "searchString"): RegExp {
  const text = opts.regex ? search : search.replace(/\s+/g, " ").trim();
  if (text.trim() === "") throw new QuireError(400, `${field}: give the text to search for.`);
  const core = opts.regex ? text : escapeRegExp(text).replace(/ /g, "\\s+");
  const mode = opts.wordMatching ?? "None";
  const flags = `g${opts.caseSensitive ? "" : "i"}m`;
  const unicode = tryCompile(wrap(core, text, mode, opts.regex, "[\\p{L}\\p{N}]"), `${flags}u`);
  if (unicode instanceof RegExp) return unicode;
  // Unicode mode is strict about escapes that other regex dialects (.NET, PCRE) accept, such as
  // \- or \_ : such an expression is read again without it (letters then mean ASCII letters).
  const legacy = opts.regex ? tryCompile(wrap(core, text, mode, opts.regex, "[A-Za-z0-9\\u00C0-\\u024F]"), flags) : unicode;
  if (legacy instanceof RegExp) return legacy;
  throw new QuireError(400, `${field}: not a valid regular expression: ${unicode.message.replace(/^Invalid regular expression: /, "")}.`);
}

/** The search with the word boundaries of `mode` around it (`wordChar`: a class of word characters). */
function wrap(core: string, text: string, mode: WordMatchingMode, regex: boolean | undefined, wordChar: string): string {
  if (mode === "ExactMatch") return `(?<!\\S)(?:${core})(?!\\S)`;
  if (mode === "SmartMatch") {
    // A boundary only where the search itself starts or ends with a letter or digit.
    const startsWord = regex || /^[\p{L}\p{N}]/u.test(text);
    const endsWord = regex || /[\p{L}\p{N}]$/u.test(text);
    return `${startsWord ? `(?<!${wordChar})` : ""}(?:${core})${endsWord ? `(?!${wordChar})` : ""}`;
  }
  return core;
}

function tryCompile(source: string, flags: string): RegExp | Error {
  try {
    return new RegExp(source, flags);
  } catch (e) {
    return e as Error;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

interface Slot {
  word: Word;
  /** Character index inside the word. */
  k: number;
}

/** A page's text as the search sees it (words joined by spaces, lines by "\n") and where each character is. */
export function pageIndexText(page: PageText): { text: string; slots: (Slot | null)[] } {
  const lines = new Map<number, Word[]>();
  for (const w of page.words) {
    const line = lines.get(w.lineId);
    if (line) line.push(w);
    else lines.set(w.lineId, [w]);
  }
  let text = "";
  const slots: (Slot | null)[] = [];
  let firstLine = true;
  for (const words of lines.values()) {
    if (!firstLine) {
      text += "\n";
      slots.push(null);
    }
    firstLine = false;
    words.forEach((word, i) => {
      if (i > 0) {
        text += " ";
        slots.push(null);
      }
      // Code units, so slot indices follow string indices (surrogate pairs take two).
      for (let k = 0; k < word.text.length; k++) slots.push({ word, k });
      text += word.text;
    });
  }
  return { text, slots };
}

/**
 * The box of character k of a word: its own x-extent when known, else an even share of the word
 * along its direction (a word much taller than wide runs down or up the page: a rotated page).
 */
function charBox(w: Word, k: number): Box {
  const b = charBoxes.get(w);
  const n = w.text.length;
  if (b && b.length === 2 * n) return { x0: b[2 * k], x1: b[2 * k + 1], y0: w.y0, y1: w.y1 };
  if (n > 1 && w.y1 - w.y0 > 1.5 * (w.x1 - w.x0)) {
    const step = (w.y1 - w.y0) / n;
    return { x0: w.x0, x1: w.x1, y0: w.y0 + k * step, y1: w.y0 + (k + 1) * step };
  }
  const step = (w.x1 - w.x0) / Math.max(1, n);
  return { x0: w.x0 + k * step, x1: w.x0 + (k + 1) * step, y0: w.y0, y1: w.y1 };
}

/** Every match of `re` (from compileSearch) on a page, at most `limit`. */
export function findOnPage(page: PageText, re: RegExp, limit = Infinity): TextMatch[] {
  const { text, slots } = pageIndexText(page);
  const out: TextMatch[] = [];
  re.lastIndex = 0;
  for (const m of text.matchAll(re)) {
    if (out.length >= limit) break;
    if (m[0].length === 0) continue;
    const start = m.index;
    const end = start + m[0].length;
    const lines: Box[] = [];
    const lineIds: number[] = [];
    let first: Word | null = null;
    for (let i = start; i < end; i++) {
      const s = slots[i];
      if (!s) continue;
      first ??= s.word;
      const c = charBox(s.word, s.k);
      const at = lineIds.lastIndexOf(s.word.lineId);
      if (at >= 0 && at === lineIds.length - 1) {
        const b = lines[at];
        b.x0 = Math.min(b.x0, c.x0);
        b.x1 = Math.max(b.x1, c.x1);
        b.y0 = Math.min(b.y0, c.y0);
        b.y1 = Math.max(b.y1, c.y1);
      } else {
        lineIds.push(s.word.lineId);
        lines.push(c);
      }
    }
    if (!first || lines.length === 0) continue;
    out.push({
      pageIndex: page.index,
      text: m[0].replace(/\s+/g, " "),
      box: union(lines),
      lines,
      fontSize: first.fontSize,
      fontName: first.fontName,
      bold: first.bold,
      italic: first.italic,
      color: first.color,
    });
  }
  return out;
}

export function union(boxes: Box[]): Box {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

const r2 = (v: number) => Math.round(v * 100) / 100;

/** A box as the public API writes rectangles: left, top, width, height (and right, bottom) in points. */
export function boxFields(b: Box) {
  return {
    left: r2(b.x0),
    top: r2(b.y0),
    width: r2(b.x1 - b.x0),
    height: r2(b.y1 - b.y0),
    right: r2(b.x1),
    bottom: r2(b.y1),
  };
}
