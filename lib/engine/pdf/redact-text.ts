import "server-only";
import * as mupdf from "mupdf";
import { fmt } from "@/lib/engine/edit/color";
import { FontBook, resolveFace } from "@/lib/engine/edit/fonts";
import { PageCanvas } from "@/lib/engine/edit/page-canvas";
import { findOnPage, type Box, type TextMatch } from "@/lib/engine/text/find-text";
import { extractPageText } from "@/lib/engine/text/words";

/**
 * True removal of text (POST /v1/pdf/edit/delete-text, replace-text, replace-text-with-image):
 * each match becomes a MuPDF redaction, which rewrites the page's content stream without the
 * glyphs under it (nothing is painted over them; images and drawings stay). The replacement,
 * if any, is then drawn where the match was, in a standard font of the same size, style and colour.
 */
export interface TextEdit {
  /** From compileSearch. */
  re: RegExp;
  /** Text drawn in place of each match (replace-text). */
  replace?: string;
  /** An image (already added to the document) drawn in the box of each match. */
  image?: { ref: mupdf.PDFObject; width: number; height: number };
  /** Most matches to act on across the document (0 or undefined: all). */
  limit?: number;
}

export interface RedactResult {
  /** Matches acted on, per edit. */
  counts: number[];
  /** Characters no standard font could draw in a replacement. */
  missing: string[];
}

/**
 * The part of a line box the redaction covers: a little inside it, so that only glyphs of the
 * match (not the neighbours that touch it, nor the lines above and below, whose boxes may
 * overlap it) fall under it. Across the line 20% of its thickness is left out on each side,
 * along it a few percent (the line runs across the page, or down it on a rotated page).
 */
function redactionRect(b: Box, bx: number, by: number): mupdf.Rect {
  const w = b.x1 - b.x0;
  const h = b.y1 - b.y0;
  const [ix, iy] = w >= h ? [Math.min(0.075 * h, w / 8), 0.2 * h] : [0.2 * w, Math.min(0.075 * w, h / 8)];
  return [bx + b.x0 + ix, by + b.y0 + iy, bx + b.x1 - ix, by + b.y1 - iy];
}

/** Applies the edits to the 0-based `pages` of an open document (edits in order; a later edit does not see text an earlier one removed). */
export function redactText(doc: mupdf.PDFDocument, pages: number[], edits: TextEdit[]): RedactResult {
  const counts = edits.map(() => 0);
  const book = new FontBook(doc);
  const drawn: { page: number; match: TextMatch; edit: TextEdit }[] = [];
  const baselines = new Map<TextMatch, Origin>();
  for (const index of pages) {
    const text = extractPageText(doc, index, {});
    const taken: Box[] = [];
    const found: { match: TextMatch; edit: TextEdit }[] = [];
    edits.forEach((edit, e) => {
      const left = edit.limit ? edit.limit - counts[e] : Infinity;
      if (left <= 0) return;
      const matches = findOnPage(text, edit.re).filter((m) => !m.lines.some((l) => taken.some((t) => overlaps(l, t))));
      for (const m of matches.slice(0, left)) {
        taken.push(...m.lines);
        found.push({ match: m, edit });
        counts[e]++;
      }
    });
    if (found.length === 0) continue;
    const page = doc.loadPage(index);
    try {
      const [bx, by] = page.getBounds();
      const wanted = found.filter((f) => f.edit.replace);
      if (wanted.length) {
        const origins = baselinesAt(page, wanted.map((f) => f.match.lines[0]), bx, by);
        wanted.forEach((f, i) => {
          if (origins[i] !== null) baselines.set(f.match, origins[i]!);
        });
      }
      for (const { match } of found) {
        for (const line of match.lines) {
          const annot = page.createAnnotation("Redact");
          annot.setRect(redactionRect(line, bx, by));
        }
      }
      page.applyRedactions(false, mupdf.PDFPage.REDACT_IMAGE_NONE, mupdf.PDFPage.REDACT_LINE_ART_NONE, mupdf.PDFPage.REDACT_TEXT_REMOVE);
    } finally {
      page.destroy();
    }
    for (const f of found) if (f.edit.replace !== undefined || f.edit.image) drawn.push({ page: index, ...f });
  }
  if (drawn.length) drawReplacements(doc, drawn, book, baselines);
  return { counts, missing: [...book.missing] };
}

/** Two matches overlap when they share a good part of their area (line boxes of neighbouring lines may touch). */
function overlaps(a: Box, b: Box): boolean {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  if (w <= 0 || h <= 0) return false;
  const area = (x: Box) => (x.x1 - x.x0) * (x.y1 - x.y0);
  return w * h > 0.3 * Math.min(area(a), area(b));
}

/** Draws replacement text and images after every redaction is applied (the redactions must not see them). */
function drawReplacements(
  doc: mupdf.PDFDocument,
  drawn: { page: number; match: TextMatch; edit: TextEdit }[],
  book: FontBook,
  baselines: Map<TextMatch, Origin>,
): void {
  const canvases = new Map<number, PageCanvas>();
  const canvas = (i: number) => {
    let c = canvases.get(i);
    if (!c) canvases.set(i, (c = new PageCanvas(doc, i)));
    return c;
  };
  const blocks: { c: PageCanvas; draw: () => void }[] = [];
  for (const { page, match, edit } of drawn) {
    const c = canvas(page);
    const first = match.lines[0];
    if (edit.image) {
      const img = edit.image;
      // Fit the image into the match's box, keeping its proportions, left-aligned and centred vertically.
      const box = match.box;
      const scale = Math.min((box.x1 - box.x0) / img.width, (box.y1 - box.y0) / img.height);
      const w = img.width * scale;
      const h = img.height * scale;
      const [x, y] = c.point(box.x0, box.y0 + (box.y1 - box.y0 - h) / 2);
      const name = c.resource("XObject", img.ref, "QuireIm");
      blocks.push({ c, draw: () => c.draw(`q ${fmt(w)} 0 0 ${fmt(-h)} ${fmt(x)} ${fmt(y + h)} cm /${name} Do Q`) });
    }
    if (edit.replace !== undefined && edit.replace !== "") {
      const size = match.fontSize > 0 ? match.fontSize : first.y1 - first.y0;
      const face = resolveFace(match.fontName, match.bold, match.italic);
      const runs = book.runs(edit.replace.replace(/\s+/g, " "), face);
      // Where the first matched glyph started, on its baseline, in its direction; without it
      // (no glyph found), left on the line box with the baseline about 0.78 of the way down
      // (ascender to descender of the standard fonts).
      const o = baselines.get(match) ?? { x: first.x0, y: first.y0 + (first.y1 - first.y0) * BASELINE_RATIO, dx: 1, dy: 0 };
      const [x, y] = c.point(o.x, o.y);
      const rgb = [(match.color >> 16) & 255, (match.color >> 8) & 255, match.color & 255].map((v) => fmt(v / 255)).join(" ");
      blocks.push({
        c,
        draw: () => {
          // Display space has y down: the glyphs' up is the reading direction turned a quarter anticlockwise.
          const ops = ["q", `${rgb} rg`, "BT", `${fmt(o.dx)} ${fmt(o.dy)} ${fmt(o.dy)} ${fmt(-o.dx)} ${fmt(x)} ${fmt(y)} Tm`];
          for (const run of runs) {
            if (!run.font.ref) continue;
            const name = c.resource("Font", run.font.ref, "QuireF");
            ops.push(`/${name} ${fmt(size)} Tf ${run.font.kind === "simple" ? `(${run.code})` : `<${run.code}>`} Tj`);
          }
          ops.push("ET", "Q");
          c.draw(...ops);
        },
      });
    }
  }
  book.finalize();
  for (const b of blocks) b.draw();
  for (const c of canvases.values()) c.commit();
}

const BASELINE_RATIO = 0.78;

interface Origin {
  /** Glyph origin (on the baseline), 0-based display space. */
  x: number;
  y: number;
  /** Unit reading direction in display space (1, 0 for ordinary text). */
  dx: number;
  dy: number;
}

/**
 * The origin and direction of the glyph that starts each box, read from MuPDF's structured text
 * before the redaction removes it.
 */
function baselinesAt(page: mupdf.PDFPage, boxes: Box[], bx: number, by: number): (Origin | null)[] {
  const out: (Origin | null)[] = boxes.map(() => null);
  const best = boxes.map(() => Infinity);
  const stext = page.toStructuredText("preserve-whitespace");
  let dir: [number, number] = [1, 0];
  try {
    stext.walk({
      beginLine(_bbox, _wmode, direction) {
        const len = Math.hypot(direction[0], direction[1]) || 1;
        dir = [direction[0] / len, direction[1] / len];
      },
      onChar(_c, origin, _font, _size, quad) {
        const cx = (quad[0] + quad[2] + quad[4] + quad[6]) / 4 - bx;
        const cy = (quad[1] + quad[3] + quad[5] + quad[7]) / 4 - by;
        boxes.forEach((b, i) => {
          if (cy < b.y0 || cy > b.y1 || cx < b.x0 || cx > b.x1) return;
          // The first glyph is the one whose origin lies furthest back along the reading direction.
          const along = (origin[0] - bx) * dir[0] + (origin[1] - by) * dir[1];
          if (along < best[i]) {
            best[i] = along;
            out[i] = { x: origin[0] - bx, y: origin[1] - by, dx: dir[0], dy: dir[1] };
          }
        });
      },
    });
  } finally {
    stext.destroy();
  }
  return out;
}
