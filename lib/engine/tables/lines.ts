import type { Word } from "@/lib/engine/text/types";

/**
 * Text lines and content groups ("chunks") from word boxes: the raw material of whitespace
 * table detection. A line is words sharing a baseline band; a chunk is a run of words inside a
 * line whose gaps stay under `spaceRatio` space widths — a cell candidate.
 */
export interface Chunk {
  words: Word[];
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface TextLine {
  words: Word[];
  chunks: Chunk[];
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Median font size of the line's words. */
  fontSize: number;
}

export interface LineOptions {
  spaceRatio?: number;
  considerFontColors?: boolean;
  considerFontSizes?: boolean;
}

const RTL_RE = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;

/**
 * Width of a space in em for the font (monospaced fonts have wide spaces). OCR boxes are tight
 * around the ink, so the gap between two OCR words also holds both side bearings: ~0.4 em.
 */
export function spaceEm(w: Word): number {
  if (w.ocr) return 0.4;
  let em = spaceEmByFont.get(w.fontName);
  if (em === undefined) {
    em = /courier|mono|consol|typewriter|fixed/i.test(w.fontName) ? 0.6 : 0.27;
    if (spaceEmByFont.size >= 1000) spaceEmByFont.clear();
    spaceEmByFont.set(w.fontName, em);
  }
  return em;
}

/** spaceEm by font name: a page has a few fonts and thousands of word gaps. */
const spaceEmByFont = new Map<string, number>();

/**
 * Groups words into visual lines, top to bottom; words in a line are left to right. With
 * `withChunks` false the lines carry no content groups (chunks: []), for callers that only
 * need the lines' words (a cell's text).
 */
export function groupLines(words: Word[], opts: LineOptions = {}, withChunks = true): TextLine[] {
  const sorted = words
    .filter((w) => w.text.length > 0 && w.y1 > w.y0)
    .sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const open: { words: Word[]; y0: number; y1: number }[] = [];
  const done: { words: Word[]; y0: number; y1: number }[] = [];
  for (const w of sorted) {
    const h = w.y1 - w.y0;
    const cy = (w.y0 + w.y1) / 2;
    let target: (typeof open)[number] | undefined;
    // Lines are created in order of centre, so only the last few can still take this word.
    for (let i = open.length - 1; i >= Math.max(0, open.length - 4); i--) {
      const l = open[i];
      const lh = l.y1 - l.y0;
      const overlap = Math.min(l.y1, w.y1) - Math.max(l.y0, w.y0);
      const centreDist = Math.abs(cy - (l.y0 + l.y1) / 2);
      if (overlap >= 0.5 * Math.min(h, lh) && centreDist <= 0.45 * Math.max(h, lh)) {
        // A word overlapping another horizontally cannot be on the same line (stacked cell text).
        if (overlapsAny(l.words, w)) continue;
        target = l;
        break;
      }
    }
    if (target) {
      target.words.push(w);
      // Keep the band of the first words (a tall glyph must not swallow the next line).
      target.y0 = Math.min(target.y0, w.y0 + 0.25 * h);
      target.y1 = Math.max(target.y1, w.y1 - 0.25 * h);
    } else {
      const line = { words: [w], y0: w.y0 + 0.1 * h, y1: w.y1 - 0.1 * h };
      open.push(line);
      if (open.length > 8) done.push(open.shift()!);
    }
  }
  done.push(...open);
  const lines = done.map((l) => makeLine(l.words, opts, withChunks));
  if (lines.length > 1) lines.sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0);
  return lines;
}

function overlapsAny(words: Word[], w: Word): boolean {
  for (const o of words) {
    if (Math.min(o.x1, w.x1) - Math.max(o.x0, w.x0) > 0.3 * Math.min(o.x1 - o.x0, w.x1 - w.x0)) return true;
  }
  return false;
}

/** Builds a line (with its chunks unless `withChunks` is false) from words. */
export function makeLine(words: Word[], opts: LineOptions = {}, withChunks = true): TextLine {
  if (words.length > 1) words.sort((a, b) => a.x0 - b.x0);
  const { x0, y0, x1, y1 } = bbox(words);
  return { words, chunks: withChunks ? makeChunks(words, opts) : [], x0, y0, x1, y1, fontSize: medianSize(words) };
}

/** The median font size of words (the upper one of an even count), 10 when it is 0. */
function medianSize(words: Word[]): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const w of words) {
    if (w.fontSize < lo) lo = w.fontSize;
    if (w.fontSize > hi) hi = w.fontSize;
  }
  // One size throughout (most lines): no sort.
  if (lo === hi) return lo || 10;
  const sizes = words.map((w) => w.fontSize).sort((a, b) => a - b);
  return sizes[sizes.length >> 1] || 10;
}

/** The content groups of a line's words (sorted left to right). */
export function makeChunks(words: Word[], opts: LineOptions): Chunk[] {
  const ratio = opts.spaceRatio ?? 1.2;
  const chunks: Chunk[] = [];
  let cur: Word[] = [];
  let curX1 = -Infinity;
  for (const w of words) {
    if (cur.length > 0) {
      const prev = cur[cur.length - 1];
      const size = Math.max(prev.fontSize, w.fontSize, 1);
      const limit = ratio * spaceEm(w) * size;
      const gap = w.x0 - curX1;
      const colourBreak = opts.considerFontColors === true && prev.color !== w.color;
      const sizeBreak =
        opts.considerFontSizes === true && Math.abs(prev.fontSize - w.fontSize) > 0.15 * Math.max(prev.fontSize, w.fontSize);
      if (gap > limit || colourBreak || sizeBreak) {
        chunks.push({ words: cur, ...bbox(cur) });
        cur = [];
        curX1 = -Infinity;
      }
    }
    cur.push(w);
    curX1 = Math.max(curX1, w.x1);
  }
  if (cur.length > 0) chunks.push({ words: cur, ...bbox(cur) });
  return chunks;
}

export function bbox(words: { x0: number; y0: number; x1: number; y1: number }[]) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const w of words) {
    if (w.x0 < x0) x0 = w.x0;
    if (w.y0 < y0) y0 = w.y0;
    if (w.x1 > x1) x1 = w.x1;
    if (w.y1 > y1) y1 = w.y1;
  }
  return { x0, y0, x1, y1 };
}

/** True when most letters of the text are right-to-left (Hebrew, Arabic...). */
export function isRtl(text: string): boolean {
  // Most text has no character at or past U+0590, where right-to-left scripts start: no regex then.
  let high = false;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x0590) {
      high = true;
      break;
    }
  }
  if (!high) return false;
  let rtl = 0;
  let ltr = 0;
  for (const ch of text) {
    if (RTL_RE.test(ch)) rtl++;
    else if (/\p{L}/u.test(ch)) ltr++;
  }
  return rtl > ltr;
}

/**
 * Text of words on one line: left to right, or right to left when the words are mostly RTL.
 * Spaces are kept between words except between two CJK characters set without a gap.
 */
export function joinWords(words: Word[]): string {
  if (words.length === 1) return words[0].text;
  const ordered = [...words].sort((a, b) => a.x0 - b.x0);
  const rtl = ordered.filter((w) => isRtl(w.text)).length * 2 > ordered.length;
  if (rtl) ordered.reverse();
  let out = ordered[0].text;
  for (let i = 1; i < ordered.length; i++) out += " " + ordered[i].text;
  return out;
}

/**
 * Text of words that may span several lines (a cell): lines top to bottom joined by `sep`.
 */
export function cellText(words: Word[], sep: string): string {
  if (words.length === 0) return "";
  if (words.length === 1) return words[0].text;
  const lines = groupLines(words, {}, false);
  return lines.length === 1 ? joinWords(lines[0].words) : lines.map((l) => joinWords(l.words)).join(sep);
}
