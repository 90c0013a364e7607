import type { Word } from "@/lib/engine/text/types";

/**
 * A word read from a PDF's text layer (lib/engine/text/words.ts), carrying the x-extent of each
 * character in a private field: spreads, JSON and structured clone see a plain Word, so a copy
 * made by `{ ...w }` (a turned or re-cut word) has no boxes, as before. One WeakMap entry per
 * word cost a sixth of the time of reading a page; a private field costs nothing. The boxes of
 * a page's words share a few large typed arrays (`buf`, from `at`, `n` characters): one typed
 * array per word was a tenth of the garbage of reading a page, and most words are never cut.
 */
export class LayerWord implements Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  fontSize: number;
  fontName: string;
  bold: boolean;
  italic: boolean;
  color: number;
  lineId: number;
  #buf: Float32Array | undefined;
  #at: number;
  #n: number;

  constructor(
    text: string,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    fontSize: number,
    fontName: string,
    bold: boolean,
    italic: boolean,
    color: number,
    lineId: number,
    buf: Float32Array | undefined,
    at = 0,
    n = 0,
  ) {
    this.text = text;
    this.x0 = x0;
    this.y0 = y0;
    this.x1 = x1;
    this.y1 = y1;
    this.fontSize = fontSize;
    this.fontName = fontName;
    this.bold = bold;
    this.italic = italic;
    this.color = color;
    this.lineId = lineId;
    this.#buf = buf;
    this.#at = at;
    this.#n = n;
  }

  /** A view of the word's boxes (writes go to the shared array). */
  static boxesOf(w: Word): Float32Array | undefined {
    if (!(#buf in w)) return undefined;
    const l = w as LayerWord;
    return l.#buf?.subarray(l.#at, l.#at + 2 * l.#n);
  }
}

const other = new WeakMap<Word, Float32Array>();

/**
 * x-extent of each character of (left-to-right) words, for splitting words at cell borders:
 * [x0, x1] of character i at [2i, 2i+1]. One typed array per word keeps it cheap.
 */
export const charBoxes = {
  get(w: Word): Float32Array | undefined {
    return LayerWord.boxesOf(w) ?? other.get(w);
  },
  set(w: Word, boxes: Float32Array): void {
    other.set(w, boxes);
  },
};

/**
 * Splits a word at x: the characters whose centre is left of x, and the rest. Null when the
 * word has no character boxes or x does not fall inside it.
 */
export function splitWordAt(w: Word, x: number): [Word, Word] | null {
  const b = charBoxes.get(w);
  if (!b) return null;
  const n = b.length / 2;
  let k = 0;
  while (k < n && (b[2 * k] + b[2 * k + 1]) / 2 <= x) k++;
  if (k <= 0 || k >= n) return null;
  const left: Word = { ...w, text: w.text.slice(0, k), x1: b[2 * k - 1] };
  const right: Word = { ...w, text: w.text.slice(k), x0: b[2 * k] };
  charBoxes.set(left, b.slice(0, 2 * k));
  charBoxes.set(right, b.slice(2 * k));
  return [left, right];
}

/** Moves a word's character boxes by dx (page box not at 0,0). */
export function shiftCharBoxes(w: Word, dx: number): void {
  const b = charBoxes.get(w);
  if (b) for (let i = 0; i < b.length; i++) b[i] -= dx;
}
