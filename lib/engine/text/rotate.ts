import type { PageText, Rule } from "@/lib/engine/text/types";

/**
 * Turns a page's words and rules clockwise by q quarter turns (RotationAngle), so text set
 * sideways reads left to right; width and height swap for odd turns. Pure.
 */
export function rotatePageText(page: PageText, q: number): PageText {
  const t = (((q % 4) + 4) % 4) as 0 | 1 | 2 | 3;
  if (t === 0) return page;
  const W = page.width;
  const H = page.height;
  const box = <B extends Rule>(b: B): B => {
    switch (t) {
      case 1:
        return { ...b, x0: H - b.y1, x1: H - b.y0, y0: b.x0, y1: b.x1 };
      case 2:
        return { ...b, x0: W - b.x1, x1: W - b.x0, y0: H - b.y1, y1: H - b.y0 };
      default:
        return { ...b, x0: b.y0, x1: b.y1, y0: W - b.x1, y1: W - b.x0 };
    }
  };
  return {
    ...page,
    width: t % 2 ? H : W,
    height: t % 2 ? W : H,
    words: page.words.map(box),
    rules: page.rules.map(box),
  };
}
