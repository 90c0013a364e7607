/**
 * The layout model of the invoice analysis: words grouped into visual rows (by vertical
 * overlap, so columns printed side by side share a row) and rows cut into segments at wide
 * horizontal gaps (a label and its value, table cells, side-by-side blocks).
 */
import type { PageText, Word } from "@/lib/engine/text/types";

export interface Box {
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Segment extends Box {
  id: number;
  /** Index of the row in its page. */
  row: number;
  words: Word[];
  text: string;
  fontSize: number;
  bold: boolean;
}

export interface Row {
  page: number;
  index: number;
  y0: number;
  y1: number;
  words: Word[];
  segments: Segment[];
  text: string;
}

export interface LayoutPage {
  index: number;
  width: number;
  height: number;
  rows: Row[];
}

export interface Layout {
  pages: LayoutPage[];
  segments: Segment[];
  /** Median line height of the document's words, the unit of vertical distances. */
  lineHeight: number;
}

/** The effective font size of a word (OCR words carry only their box). */
export function wordSize(w: Word): number {
  return w.fontSize > 0 ? w.fontSize : (w.y1 - w.y0) / 1.15;
}

function median(values: number[], fallback: number): number {
  if (values.length === 0) return fallback;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Joins words into text, inserting a space between words that do not touch. */
export function joinWords(words: Word[]): string {
  let out = "";
  let prev: Word | undefined;
  for (const w of words) {
    if (prev) {
      const gap = w.x0 - prev.x1;
      out += gap > wordSize(w) * 0.12 || prev.lineId !== w.lineId ? " " : "";
    }
    out += w.text;
    prev = w;
  }
  return out;
}

/** Builds rows and segments for every page. `gapFactor` × font size is the segment break. */
export function buildLayout(pages: PageText[], gapFactor = 0.9): Layout {
  const out: LayoutPage[] = [];
  const segments: Segment[] = [];
  const heights: number[] = [];
  let segId = 0;
  for (const page of pages) {
    const words = page.words.filter((w) => w.text.trim() !== "" && w.x1 > w.x0 - 0.01 && w.y1 > w.y0);
    for (const w of words) heights.push(w.y1 - w.y0);
    const sorted = [...words].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2 || a.x0 - b.x0);
    const rows: { y0: number; y1: number; cy: number; words: Word[] }[] = [];
    for (const w of sorted) {
      const h = w.y1 - w.y0;
      const cy = (w.y0 + w.y1) / 2;
      let best: (typeof rows)[number] | undefined;
      let bestOverlap = 0;
      for (let i = rows.length - 1; i >= 0 && i >= rows.length - 4; i--) {
        const r = rows[i];
        const overlap = Math.min(r.y1, w.y1) - Math.max(r.y0, w.y0);
        const rh = r.y1 - r.y0;
        const ratio = overlap / Math.max(0.1, Math.min(h, rh));
        // Two words that overlap horizontally are on different lines, however close vertically.
        const collides = r.words.some(
          (o) => Math.min(o.x1, w.x1) - Math.max(o.x0, w.x0) > 0.3 * Math.min(o.x1 - o.x0, w.x1 - w.x0),
        );
        if (
          !collides &&
          ratio > 0.55 &&
          Math.abs(cy - r.cy) < Math.max(h, rh) * 0.45 &&
          ratio > bestOverlap
        ) {
          best = r;
          bestOverlap = ratio;
        }
      }
      if (best) {
        best.words.push(w);
        best.y0 = Math.min(best.y0, w.y0);
        best.y1 = Math.max(best.y1, w.y1);
        best.cy = median(
          best.words.map((x) => (x.y0 + x.y1) / 2),
          cy,
        );
      } else rows.push({ y0: w.y0, y1: w.y1, cy, words: [w] });
    }
    rows.sort((a, b) => a.cy - b.cy);
    const pageRows: Row[] = rows.map((r, index) => {
      const ws = r.words.sort((a, b) => a.x0 - b.x0);
      const row: Row = { page: page.index, index, y0: r.y0, y1: r.y1, words: ws, segments: [], text: "" };
      let cur: Word[] = [];
      const flush = () => {
        if (cur.length === 0) return;
        const seg: Segment = {
          id: segId++,
          page: page.index,
          row: index,
          words: cur,
          text: joinWords(cur),
          x0: Math.min(...cur.map((w) => w.x0)),
          y0: Math.min(...cur.map((w) => w.y0)),
          x1: Math.max(...cur.map((w) => w.x1)),
          y1: Math.max(...cur.map((w) => w.y1)),
          fontSize: median(cur.map(wordSize), 10),
          bold: cur.filter((w) => w.bold).length * 2 > cur.length,
        };
        row.segments.push(seg);
        segments.push(seg);
        cur = [];
      };
      for (const w of ws) {
        const prev = cur.at(-1);
        if (prev) {
          const gap = w.x0 - prev.x1;
          const size = Math.min(wordSize(prev), wordSize(w));
          const sizeJump = Math.max(wordSize(prev), wordSize(w)) / Math.max(1, size) > 1.6;
          if (gap > size * gapFactor || (sizeJump && gap > size * 0.4) || gap < -size) flush();
        }
        cur.push(w);
      }
      flush();
      row.text = row.segments.map((s) => s.text).join("  ");
      return row;
    });
    out.push({ index: page.index, width: page.width, height: page.height, rows: pageRows });
  }
  return { pages: out, segments, lineHeight: median(heights, 10) };
}

/** Text of all pages, rows joined by newlines and segments by two spaces (for regex scans). */
export function layoutText(layout: Layout): string {
  return layout.pages.map((p) => p.rows.map((r) => r.text).join("\n")).join("\n\f");
}

/** The union box of some words on one page. */
export function boxOf(words: Word[], page: number): Box {
  return {
    page,
    x0: Math.min(...words.map((w) => w.x0)),
    y0: Math.min(...words.map((w) => w.y0)),
    x1: Math.max(...words.map((w) => w.x1)),
    y1: Math.max(...words.map((w) => w.y1)),
  };
}

/** Horizontal overlap of two boxes as a share of the narrower one (0..1). */
export function xOverlap(a: { x0: number; x1: number }, b: { x0: number; x1: number }): number {
  const o = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  return o / Math.max(0.1, Math.min(a.x1 - a.x0, b.x1 - b.x0));
}
