/**
 * Words of text lines placed on a page by hand (Helvetica-like widths), for the layout reader's
 * unit tests: what a PDF's text layer gives, without rendering one.
 */
import type { PageText, Word } from "@/lib/engine/text/types";

/** Words of a line of text at (x, y), Helvetica-like widths (0.5 em a character). */
let lineId = 0;
export function line(x: number, y: number, text: string, size = 10, bold = false): Word[] {
  const id = lineId++;
  const out: Word[] = [];
  let cx = x;
  for (const t of text.split(" ")) {
    if (t === "") {
      cx += size * 0.28;
      continue;
    }
    const w = t.length * size * 0.5;
    out.push({
      text: t,
      x0: cx,
      y0: y,
      x1: cx + w,
      y1: y + size * 1.15,
      fontSize: size,
      fontName: bold ? "Helvetica-Bold" : "Helvetica",
      bold,
      italic: false,
      color: 0,
      lineId: id,
    });
    cx += w + size * 0.28;
  }
  return out;
}
export const page = (words: Word[][], index = 0): PageText => ({
  index,
  width: 595,
  height: 842,
  rotation: 0,
  words: words.flat(),
  rules: [],
});

