import { pageBox } from "@/lib/engine/text/page-frame";
import type { Matrix, PageText, Word } from "@/lib/engine/text/types";

/**
 * A page's words as lines of text laid out like the page (the way `pdftotext -layout` writes
 * them): words on the same baseline form one line, left to right, with spaces standing for the
 * horizontal gaps (two or more where a column gap is), so that expressions can use {{Spaces}} and
 * columns. Every character offset maps back to its word, for the boxes of what matches.
 */
export interface LayoutLine {
  text: string;
  /** Offsets in `text` of each word: [start, end). */
  spans: Array<{ start: number; end: number; word: Word }>;
  y0: number;
  y1: number;
}

export interface LayoutPage {
  index: number;
  width: number;
  height: number;
  lines: LayoutLine[];
  /** The lines joined by "\n". */
  text: string;
  /** Offset of each line in `text`. */
  lineStarts: number[];
  /** A deskewed or turned scan: words' frame → page as rendered (see PageText.ocrFrame). */
  ocrFrame?: Matrix;
}

export function layoutPage(page: PageText, words: Word[] = page.words): LayoutPage {
  const sorted = words.filter((w) => w.text.trim() !== "").sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2 || a.x0 - b.x0);
  // Character width of the page: its words' width per character (median-ish: the mean is fine).
  let chars = 0;
  let width = 0;
  for (const w of sorted) {
    chars += [...w.text].length;
    width += w.x1 - w.x0;
  }
  const cw = chars > 0 ? Math.max(1, width / chars) : 5;

  const groups: Word[][] = [];
  const centers: number[] = [];
  for (const w of sorted) {
    const c = (w.y0 + w.y1) / 2;
    const h = Math.max(1, w.y1 - w.y0);
    const last = groups.length - 1;
    if (last >= 0 && Math.abs(centers[last] - c) <= h * 0.45) {
      groups[last].push(w);
      centers[last] = (centers[last] * (groups[last].length - 1) + c) / groups[last].length;
    } else {
      groups.push([w]);
      centers.push(c);
    }
  }

  const lines: LayoutLine[] = groups.map((g) => {
    g.sort((a, b) => a.x0 - b.x0);
    let text = "";
    const spans: LayoutLine["spans"] = [];
    let prevEnd: number | undefined;
    for (const w of g) {
      const column = Math.round(w.x0 / cw);
      if (prevEnd !== undefined) {
        const gap = w.x0 - prevEnd;
        const em = Math.max(1, w.fontSize || (w.y1 - w.y0));
        // A word space (relative to the word's own size) is one space; a wider gap is a column
        // gap: at least two spaces, and as many as put the word at its place on the page.
        const pad =
          gap <= em * 0.05 ? 0 : gap < em * 0.6 ? 1 : Math.max(2, column - text.length);
        text += " ".repeat(pad);
      } else text += " ".repeat(Math.max(0, Math.min(column, 200)));
      spans.push({ start: text.length, end: text.length + w.text.length, word: w });
      text += w.text;
      prevEnd = w.x1;
    }
    return { text: text.trimEnd(), spans, y0: Math.min(...g.map((w) => w.y0)), y1: Math.max(...g.map((w) => w.y1)) };
  });
  const lineStarts: number[] = [];
  let offset = 0;
  for (const l of lines) {
    lineStarts.push(offset);
    offset += l.text.length + 1;
  }
  return {
    index: page.index,
    width: page.width,
    height: page.height,
    lines,
    text: lines.map((l) => l.text).join("\n"),
    lineStarts,
    ...(page.ocrFrame ? { ocrFrame: page.ocrFrame } : {}),
  };
}

/** The words a character range of the page's text covers, and their box. */
export function boxOf(page: LayoutPage, start: number, end: number): { x: number; y: number; width: number; height: number } | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  page.lines.forEach((line, i) => {
    const base = page.lineStarts[i];
    if (base > end || base + line.text.length < start) return;
    for (const s of line.spans) {
      if (base + s.end <= start || base + s.start >= end) continue;
      x0 = Math.min(x0, s.word.x0);
      y0 = Math.min(y0, s.word.y0);
      x1 = Math.max(x1, s.word.x1);
      y1 = Math.max(y1, s.word.y1);
    }
  });
  if (!Number.isFinite(x0)) return undefined;
  // Reported on the page as rendered (a deskewed scan's words are laid out level).
  const b = pageBox(page, { x0, y0, x1, y1 });
  const r = (n: number) => Math.round(n * 100) / 100;
  return { x: r(b.x0), y: r(b.y0), width: r(b.x1 - b.x0), height: r(b.y1 - b.y0) };
}
