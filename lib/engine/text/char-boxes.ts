import type { Word } from "@/lib/engine/text/types";

/**
 * x-extent of each character of (left-to-right) words, for splitting words at cell borders:
 * [x0, x1] of character i at [2i, 2i+1]. One typed array per word keeps it cheap.
 */
export const charBoxes = new WeakMap<Word, Float32Array>();

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
