import type { Word } from "@/lib/engine/text/types";

/** x-extent of each character of (left-to-right) words, for splitting words at cell borders. */
export const charBoxes = new WeakMap<Word, [number, number][]>();

/**
 * Splits a word at x: the characters whose centre is left of x, and the rest. Null when the
 * word has no character boxes or x does not fall inside it.
 */
export function splitWordAt(w: Word, x: number): [Word, Word] | null {
  const boxes = charBoxes.get(w);
  if (!boxes) return null;
  const k = boxes.findIndex((b) => (b[0] + b[1]) / 2 > x);
  if (k <= 0) return null;
  const left: Word = { ...w, text: w.text.slice(0, k), x1: boxes[k - 1][1] };
  const right: Word = { ...w, text: w.text.slice(k), x0: boxes[k][0] };
  charBoxes.set(left, boxes.slice(0, k));
  charBoxes.set(right, boxes.slice(k));
  return [left, right];
}
