import "server-only";
import type { Face, FontBook, Run } from "./fonts";

/** The first baseline sits this many font sizes below the top of the text box. */
export const ASCENT = 0.8;
/** Default line height, in font sizes, when `leading` is not given. */
export const DEFAULT_LEADING = 1.2;

export interface Line {
  runs: Run[];
  /** Width in points. */
  width: number;
}

/**
 * Splits text into lines at "\n" and, when `maxWidth` is given, wraps each at spaces (or
 * anywhere inside a word longer than the line, and between CJK characters).
 */
export function layoutLines(
  text: string,
  face: Face,
  size: number,
  book: FontBook,
  maxWidth?: number,
): Line[] {
  const lines: Line[] = [];
  for (const paragraph of text.split("\n")) {
    const pieces = maxWidth && maxWidth > 0 ? wrap(paragraph, face, size, book, maxWidth) : [paragraph];
    for (const piece of pieces) {
      const runs = book.runs(visualOrder(piece), face);
      lines.push({ runs, width: runs.reduce((w, r) => w + r.width, 0) * size });
    }
  }
  return lines;
}

const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** Greedy wrapping: break after spaces or between CJK characters; split overlong words. */
function wrap(paragraph: string, face: Face, size: number, book: FontBook, maxWidth: number): string[] {
  const chars = [...paragraph];
  if (chars.length === 0) return [""];
  const widths = new Map<string, number>();
  const w = (c: string) => {
    let v = widths.get(c);
    if (v === undefined) {
      v = book.measure(c, face) * size;
      widths.set(c, v);
    }
    return v;
  };
  const out: string[] = [];
  let start = 0;
  while (start < chars.length) {
    let width = 0;
    let end = start;
    let lastBreak = -1; // index after which we may break
    while (end < chars.length) {
      const cw = w(chars[end]);
      if (width + cw > maxWidth && end > start) break;
      width += cw;
      if (chars[end] === " " || CJK.test(chars[end])) lastBreak = end;
      end++;
    }
    if (end < chars.length && lastBreak >= start && chars[end] !== " ") end = lastBreak + 1;
    out.push(chars.slice(start, end).join("").replace(/ +$/, ""));
    start = end;
    while (start < chars.length && chars[start] === " ") start++; // spaces at a break vanish
  }
  return out;
}

const RTL_RUN =
  /[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb1d-\ufdff\ufe70-\ufeff](?:[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb1d-\ufdff\ufe70-\ufeff ]*[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb1d-\ufdff\ufe70-\ufeff])?/gu;

/**
 * A minimal visual reordering for right-to-left words inside a left-to-right line: each run of
 * Hebrew/Arabic letters is reversed so it reads correctly. Not the full Unicode bidi algorithm
 * and no Arabic shaping (docs/editing.md).
 */
export function visualOrder(line: string): string {
  return line.replace(RTL_RUN, (run) => [...run].reverse().join(""));
}
