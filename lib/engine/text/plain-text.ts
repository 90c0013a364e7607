import type { Area } from "@/lib/engine/tables/extract-tables";
import { groupLines, joinWords, type TextLine } from "@/lib/engine/tables/lines";
import type { Segment } from "@/lib/engine/tables/types";
import { centreInArea } from "@/lib/engine/text/page-frame";
import type { PageText, Word } from "@/lib/engine/text/types";

/**
 * Plain text of positioned words, two ways:
 * - layoutText: the page as a character grid, like `pdftotext -layout`: each visual line is one
 *   text line, each word at the column its x position gives (in units of the page's median
 *   character width), vertical gaps kept as (at most two) blank lines.
 * - readingOrderText: the text in reading order, like `pdftotext` without -layout: text columns
 *   are read one after the other (an XY cut on whitespace), lines joined by single spaces.
 * Pure: word boxes in, strings out, so both are unit-tested on hand-made pages.
 */

/**
 * Words whose centre lies inside the area (all words without one). The area is on the page as
 * rendered: words of a deskewed or turned scan are placed there by the page's ocrFrame.
 */
export function wordsInArea(words: Word[], area: Area | undefined, page: Pick<PageText, "ocrFrame"> = {}): Word[] {
  if (!area) return words;
  return words.filter((w) => centreInArea(page, w, area));
}

/** Median width of one character on the page (pt), the grid unit of layout text. */
export function charWidth(words: Word[]): number {
  const ws = words
    .filter((w) => w.text.length > 0 && w.x1 > w.x0)
    .map((w) => (w.x1 - w.x0) / codePoints(w.text))
    .sort((a, b) => a - b);
  const m = ws[ws.length >> 1];
  return m && Number.isFinite(m) && m > 0.5 ? m : 5;
}

/** Characters (code points) of a text, as `[...text].length` counts them, without the array. */
function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    // The low half of a surrogate pair follows its high half: one character for the two.
    if (!(u >= 0xdc00 && u <= 0xdfff && i > 0 && isHighSurrogate(text.charCodeAt(i - 1)))) n++;
  }
  return n;
}

function isHighSurrogate(u: number): boolean {
  return u >= 0xd800 && u <= 0xdbff;
}

function median(xs: number[], fallback: number): number {
  if (xs.length === 0) return fallback;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Lines of one page as a character grid (without line endings). */
export function layoutLines(words: Word[]): string[] {
  // Lines only: their content groups are not used here.
  const lines = groupLines(words, {}, false);
  if (lines.length === 0) return [];
  const cw = charWidth(words);
  // The common left margin is left out (as pdftotext -layout does).
  const x0 = Math.min(...lines.map((l) => l.x0));
  const height = median(lines.map((l) => l.y1 - l.y0), 10);
  const out: string[] = [];
  let prevBottom: number | null = null;
  for (const line of lines) {
    if (prevBottom !== null) {
      const gap = line.y0 - prevBottom;
      const blanks = Math.min(2, Math.floor(gap / (height * 1.2)));
      for (let i = 0; i < blanks; i++) out.push("");
    }
    out.push(placeWords(line.words, x0, cw));
    prevBottom = line.y1;
  }
  return out;
}

/**
 * Puts words at their grid columns. Words closer than about two spaces of their font keep a
 * single space (a heading in a larger font must not be spread over the grid); a wider gap puts
 * the word at its column, at least two spaces after the previous one.
 */
function placeWords(words: Word[], x0: number, cw: number): string {
  let s = "";
  let prev: Word | null = null;
  for (const w of [...words].sort((a, b) => a.x0 - b.x0)) {
    const col = Math.max(0, Math.round((w.x0 - x0) / cw));
    let at: number;
    if (!prev) at = col;
    else if (w.x0 - prev.x1 < 0.6 * Math.max(w.fontSize, prev.fontSize, 1)) at = s.length + 1;
    else at = Math.max(col, s.length + 2);
    s = s.padEnd(at, " ") + w.text;
    prev = w;
  }
  return s;
}

export interface TextOptions {
  area?: Area;
  /** Line break (default CR LF, as the seed's CSV). */
  lineEnding?: string;
  /** Between pages (default form feed, as pdftotext). */
  pageBreak?: string;
}

/** Layout-preserving text of the pages (see the top of this file). */
export function layoutText(pages: PageText[], opts: TextOptions = {}): string {
  const eol = opts.lineEnding ?? "\r\n";
  return pages
    .map((p) => {
      const lines = layoutLines(wordsInArea(p.words, opts.area, p));
      return lines.map((l) => l.trimEnd()).join(eol) + (lines.length ? eol : "");
    })
    .join(opts.pageBreak ?? "\f");
}

/**
 * Layout text from table analysis (lineGrouping): each row of a table puts its cells at the
 * table's column positions, a multi-line cell taking as many text lines as it needs; text
 * outside tables is one line per segment, cells at least two spaces apart.
 */
export function segmentsLayoutText(pages: PageText[], segments: Segment[], opts: TextOptions = {}): string {
  const eol = opts.lineEnding ?? "\r\n";
  const byPage = new Map<number, string[]>();
  const cwOf = new Map(pages.map((p) => [p.index, charWidth(p.words)]));
  const originOf = new Map(pages.map((p) => [p.index, Math.min(...wordsInArea(p.words, opts.area, p).map((w) => w.x0), p.width)]));
  for (const s of segments) {
    const page = s.kind === "table" ? s.table.page : s.page;
    const cw = cwOf.get(page) ?? 5;
    const origin = originOf.get(page) ?? 0;
    const out = byPage.get(page) ?? [];
    if (s.kind === "text") {
      const col = Math.max(0, Math.round((s.x0 - origin) / cw));
      out.push(" ".repeat(col) + s.cells.join("  "));
    } else {
      const edges = s.table.columnEdges;
      for (const row of s.table.rows) {
        const cellLines = row.map((c) => c.split("\n"));
        const height = Math.max(1, ...cellLines.map((l) => l.length));
        for (let k = 0; k < height; k++) {
          let line = "";
          cellLines.forEach((lines, c) => {
            const text = lines[k] ?? "";
            if (!text) return;
            const col = Math.max(0, Math.round(((edges[c] ?? origin) - origin) / cw));
            const at = line.length === 0 ? col : Math.max(col, line.length + 2);
            line = line.padEnd(at, " ") + text;
          });
          out.push(line);
        }
      }
    }
    byPage.set(page, out);
  }
  return pages
    .map((p) => {
      const lines = byPage.get(p.index) ?? [];
      return lines.map((l) => l.trimEnd()).join(eol) + (lines.length ? eol : "");
    })
    .join(opts.pageBreak ?? "\f");
}

interface Band {
  lines: TextLine[];
  y0: number;
  y1: number;
}

type Interval = [number, number];

/** Empty x intervals of the band inside [lo, hi]. */
function bandGaps(lines: TextLine[], lo: number, hi: number): Interval[] {
  const spans = lines.flatMap((l) => l.words.map((w) => [w.x0, w.x1] as Interval)).sort((a, b) => a[0] - b[0]);
  const gaps: Interval[] = [];
  let cur = lo;
  for (const [a, b] of spans) {
    if (a > cur) gaps.push([cur, a]);
    cur = Math.max(cur, b);
  }
  if (cur < hi) gaps.push([cur, hi]);
  return gaps;
}

function intersect(a: Interval[], b: Interval[], min: number): Interval[] {
  const out: Interval[] = [];
  for (const [a0, a1] of a) {
    for (const [b0, b1] of b) {
      const x0 = Math.max(a0, b0);
      const x1 = Math.min(a1, b1);
      if (x1 - x0 >= min) out.push([x0, x1]);
    }
  }
  return out;
}

/**
 * Blocks of text in reading order. The lines are cut into horizontal bands (a band = lines that
 * overlap vertically, so the two halves of a two-column row are one band); consecutive bands
 * that share a vertical gutter (an empty x interval at least `gutter` wide inside the text)
 * form a multi-column block, read column by column, each column recursively the same way —
 * when its columns are text columns (median line at least `minColumn` wide); a table's narrow
 * cells are read row by row instead.
 */
function readingBlocks(lines: TextLine[], gutter: number, minColumn: number, depth = 0): TextLine[][] {
  if (lines.length === 0) return [];
  const bands: Band[] = [];
  for (const l of [...lines].sort((a, b) => a.y0 - b.y0)) {
    const last = bands[bands.length - 1];
    if (last && l.y0 < last.y1 - 0.3 * Math.min(l.y1 - l.y0, last.y1 - last.y0)) {
      last.lines.push(l);
      last.y1 = Math.max(last.y1, l.y1);
    } else bands.push({ lines: [l], y0: l.y0, y1: l.y1 });
  }
  const lo = Math.min(...lines.map((l) => l.x0));
  const hi = Math.max(...lines.map((l) => l.x1));
  const blocks: TextLine[][] = [];
  let i = 0;
  while (i < bands.length) {
    let gaps = bandGaps(bands[i].lines, lo, hi);
    let j = i + 1;
    let best: { end: number; gaps: Interval[] } | null = null;
    while (j < bands.length) {
      const next = intersect(gaps, bandGaps(bands[j].lines, lo, hi), gutter);
      const members = bands.slice(i, j + 1).flatMap((b) => b.lines);
      const mx0 = Math.min(...members.map((l) => l.x0));
      const mx1 = Math.max(...members.map((l) => l.x1));
      const inner = next.filter(([a, b]) => a > mx0 + 0.5 && b < mx1 - 0.5);
      if (inner.length === 0) break;
      gaps = next;
      best = { end: j, gaps: inner };
      j++;
    }
    const columns = best && depth < 6 ? splitColumns(bands.slice(i, best.end + 1), best.gaps) : null;
    // Text columns hold lines of text; narrow "columns" (a table's cells) are read row by row.
    if (best && columns && columns.every((col) => median(col.map((l) => l.x1 - l.x0), 0) >= minColumn)) {
      for (const col of columns) blocks.push(...readingBlocks(col, gutter, minColumn, depth + 1));
      i = best.end + 1;
    } else {
      blocks.push(bands[i].lines.sort((a, b) => a.x0 - b.x0));
      i++;
    }
  }
  return blocks;
}

/** The lines of the bands split at the middle of each gutter, one list per column. */
function splitColumns(bands: Band[], gaps: Interval[]): TextLine[][] {
  const cuts = gaps.map(([a, b]) => (a + b) / 2).sort((a, b) => a - b);
  const columns: TextLine[][] = Array.from({ length: cuts.length + 1 }, () => []);
  for (const l of bands.flatMap((b) => b.lines)) {
    // A band may hold one line across a gutter (the halves of a two-column row): split it.
    splitLine(l, cuts).forEach((p, c) => {
      if (p) columns[c].push(p);
    });
  }
  return columns;
}

function splitLine(l: TextLine, cuts: number[]): (TextLine | null)[] {
  const parts: Word[][] = Array.from({ length: cuts.length + 1 }, () => []);
  for (const w of l.words) {
    const cx = (w.x0 + w.x1) / 2;
    let c = 0;
    while (c < cuts.length && cx > cuts[c]) c++;
    parts[c].push(w);
  }
  return parts.map((ws) => (ws.length ? { ...l, words: ws, chunks: [], x0: Math.min(...ws.map((w) => w.x0)), x1: Math.max(...ws.map((w) => w.x1)) } : null));
}

/** Text lines of one page in reading order (one entry per visual line of a column). */
export function readingOrderLines(words: Word[]): string[] {
  const lines = groupLines(words);
  if (lines.length === 0) return [];
  const size = median(words.map((w) => w.fontSize), 10);
  const out: string[] = [];
  for (const block of readingBlocks(lines, Math.max(1.0 * size, 6), 8 * size)) {
    // A band of a single-column block may hold more than one line (side-by-side labels).
    const text = block.map((l) => joinWords([...l.words].sort((a, b) => a.x0 - b.x0))).join(" ");
    out.push(text);
  }
  return out;
}

/** Reading-order text of the pages (see the top of this file). */
export function readingOrderText(pages: PageText[], opts: TextOptions = {}): string {
  const eol = opts.lineEnding ?? "\r\n";
  return pages
    .map((p) => {
      const lines = readingOrderLines(wordsInArea(p.words, opts.area, p));
      return lines.map((l) => l + eol).join("");
    })
    .join(opts.pageBreak ?? "\f");
}
