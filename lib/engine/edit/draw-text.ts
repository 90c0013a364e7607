import "server-only";
import { fmt, type Rgba } from "./color";
import type { Face } from "./fonts";
import type { PageCanvas, Rect4 } from "./page-canvas";
import { ASCENT, DEFAULT_LEADING, type Line } from "./text-layout";

export interface TextBlock {
  lines: Line[];
  x: number;
  y: number;
  size: number;
  leading?: number;
  width?: number;
  height?: number;
  alignment: "left" | "center" | "right";
  color: Rgba;
  face: Face;
  underline: boolean;
  strikeout: boolean;
  /** Draw a white box behind the text. */
  background: boolean;
}

/** The display-space box a block occupies: its width/height, or what its lines need. */
function blockBox(b: TextBlock, canvas: PageCanvas): Rect4 {
  const [x, y] = canvas.point(b.x, b.y);
  const leading = b.leading ?? b.size * DEFAULT_LEADING;
  const w = b.width ?? Math.max(0, ...b.lines.map((l) => l.width));
  const h = b.height ?? Math.max(0, b.lines.length - 1) * leading + b.size * DEFAULT_LEADING;
  return [x, y, x + w, y + h];
}

/**
 * Draws laid-out lines: optional white background, clip to the box when a height is given,
 * colour with opacity, one BT block, then underline/strikeout bars. Fonts that have no bold
 * face (CJK and system fallbacks) are emboldened by also stroking the glyph outlines.
 */
export function drawTextBlock(canvas: PageCanvas, b: TextBlock): Rect4 {
  const box = blockBox(b, canvas);
  const [x0, y0, x1, y1] = box;
  const leading = b.leading ?? b.size * DEFAULT_LEADING;
  const ops: string[] = ["q"];
  if (b.background) ops.push(`1 g ${fmt(x0)} ${fmt(y0)} ${fmt(x1 - x0)} ${fmt(y1 - y0)} re f`);
  if (b.height !== undefined) ops.push(`${fmt(x0)} ${fmt(y0)} ${fmt(x1 - x0)} ${fmt(y1 - y0)} re W n`);
  if (b.color.alpha < 1) ops.push(`/${canvas.opacity(b.color.alpha)} gs`);
  const rgb = `${fmt(b.color.r)} ${fmt(b.color.g)} ${fmt(b.color.b)}`;
  ops.push(`${rgb} rg ${rgb} RG`);

  const bars: string[] = [];
  ops.push("BT");
  b.lines.forEach((line, i) => {
    const baseline = y0 + b.size * ASCENT + i * leading;
    const slack = x1 - x0 - line.width;
    const lx = x0 + (b.alignment === "center" ? slack / 2 : b.alignment === "right" ? slack : 0);
    // Display space has y pointing down: flip the text matrix so glyphs stand upright.
    ops.push(`1 0 0 -1 ${fmt(lx)} ${fmt(baseline)} Tm`);
    let stroking = false;
    for (const run of line.runs) {
      if (!run.font.ref) continue;
      const name = canvas.resource("Font", run.font.ref, "QuireF");
      const fake = b.face.bold && !run.font.styled;
      if (fake !== stroking) {
        ops.push(fake ? `2 Tr ${fmt(b.size * 0.03)} w` : "0 Tr");
        stroking = fake;
      }
      ops.push(
        `/${name} ${fmt(b.size)} Tf ${run.font.kind === "simple" ? `(${run.code})` : `<${run.code}>`} Tj`,
      );
    }
    if (stroking) ops.push("0 Tr");
    if (line.width > 0) {
      const thick = Math.max(0.5, b.size * 0.05);
      if (b.underline)
        bars.push(`${fmt(lx)} ${fmt(baseline + b.size * 0.1)} ${fmt(line.width)} ${fmt(thick)} re f`);
      if (b.strikeout)
        bars.push(`${fmt(lx)} ${fmt(baseline - b.size * 0.3)} ${fmt(line.width)} ${fmt(thick)} re f`);
    }
  });
  ops.push("ET", ...bars, "Q");
  canvas.draw(...ops);
  return box;
}
