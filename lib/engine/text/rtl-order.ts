/**
 * Reading order of the characters of a right-to-left word (Arabic, Hebrew…) from their boxes.
 *
 * PDFs draw right-to-left text in visual order (left to right) or in logical order, so the
 * order is taken from the positions: by decreasing position along the line. Two kinds of
 * characters have no extent of their own and cannot be placed by position:
 *   - the further characters of one glyph that stands for several (a ligature, or a shaped
 *     word whose ToUnicode maps one glyph to the whole word): MuPDF gives the first character
 *     the glyph's box and the others an empty box at the glyph's end. They follow the
 *     character they were drawn with, in the order the PDF gives them (its text is logical);
 *   - combining marks drawn as glyphs of their own with no advance (harakat, niqqud): they
 *     follow the letter whose box holds them.
 * Sorted by position alone, such a character lands before or after the wrong letter (a word
 * mapped to one glyph read "َبيبيح" for "حَبيبي").
 */

const EPS = 0.01;

/**
 * Indices of the n characters in reading order. `boxes` holds x0, y0, x1, y1 per character,
 * in drawing order; `dir` is the line's direction (0 right, 1 down, 2 left, 3 up; see
 * words.ts): positions are measured along it.
 */
export function rtlOrder(boxes: ArrayLike<number>, n: number, dir: number): number[] {
  // Extent of character i along the line's direction.
  const lo = (i: number) => (dir === 0 ? boxes[4 * i] : dir === 1 ? boxes[4 * i + 1] : dir === 2 ? -boxes[4 * i + 2] : -boxes[4 * i + 3]);
  const hi = (i: number) => (dir === 0 ? boxes[4 * i + 2] : dir === 1 ? boxes[4 * i + 3] : dir === 2 ? -boxes[4 * i] : -boxes[4 * i + 1]);
  const empty = (i: number) => hi(i) - lo(i) < EPS;
  // Units: a character with an extent, the empty characters drawn right after it at its end.
  const units: { head: number; chars: number[]; marks: number[] }[] = [];
  const loose: number[] = [];
  for (let i = 0; i < n; i++) {
    const last = units[units.length - 1];
    if (!empty(i)) units.push({ head: i, chars: [i], marks: [] });
    else if (last && last.chars[last.chars.length - 1] === i - 1 && Math.abs(lo(i) - hi(last.head)) < EPS) last.chars.push(i);
    else loose.push(i);
  }
  // An empty character elsewhere (a mark placed over its letter) follows the letter that holds it.
  const alone: number[] = [];
  for (const i of loose) {
    const p = lo(i);
    let best: (typeof units)[number] | null = null;
    for (const u of units) {
      if (p >= lo(u.head) - EPS && p <= hi(u.head) + EPS && (!best || hi(u.head) - lo(u.head) < hi(best.head) - lo(best.head))) best = u;
    }
    if (best) best.marks.push(i);
    else alone.push(i);
  }
  const all = [...units, ...alone.map((i) => ({ head: i, chars: [i], marks: [] as number[] }))];
  // Right to left: by decreasing start along the line; ties keep the drawing order.
  all.sort((p, q) => lo(q.head) - lo(p.head) || p.head - q.head);
  return all.flatMap((u) => [...u.chars, ...u.marks]);
}
