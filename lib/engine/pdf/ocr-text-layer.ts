import "server-only";
import type * as mupdf from "mupdf";
import { fmt } from "@/lib/engine/edit/color";
import { FontBook, type Face } from "@/lib/engine/edit/fonts";
import { PageCanvas } from "@/lib/engine/edit/page-canvas";
import { IDENTITY } from "@/lib/engine/text/page-frame";
import type { Matrix, Word } from "@/lib/engine/text/types";

/**
 * The invisible text layer of a searchable PDF (POST /v1/pdf/makesearchable): each OCR word is
 * written in text render mode 3 (neither filled nor stroked, ISO 32000-1 §9.3.6) over the page
 * as it is, in Helvetica (or a fallback for other scripts), sized and horizontally scaled so its
 * box covers the printed word: selecting text in a viewer highlights the printed words, and
 * copying or extracting yields the OCR text. The page's own content is not touched.
 */

const FACE: Face = { family: "Helvetica", bold: false, italic: false };
/** Characters that reach below the baseline: their words' boxes do not end on it. */
const DESCENDS = /[gjpqyQ,;()[\]{}|@$§µ]/u;

/**
 * The baseline of each OCR line: the median bottom of its words that do not descend (all words
 * of a line share it, so extraction keeps them on one line), else the bottom of its highest word.
 */
function lineBaselines(words: Word[]): Map<number, number> {
  const bottoms = new Map<number, { flat: number[]; all: number[] }>();
  for (const w of words) {
    let b = bottoms.get(w.lineId);
    if (!b) bottoms.set(w.lineId, (b = { flat: [], all: [] }));
    b.all.push(w.y1);
    if (!DESCENDS.test(w.text)) b.flat.push(w.y1);
  }
  const out = new Map<number, number>();
  for (const [id, b] of bottoms) {
    const list = (b.flat.length ? b.flat : b.all).sort((x, y) => x - y);
    out.set(id, b.flat.length ? list[Math.floor(list.length / 2)] : list[0]);
  }
  return out;
}

export interface OcrPage {
  index: number;
  /**
   * OCR words in points, top-left origin of the page as displayed — or, with `frame`, of the
   * frame they were read in (a scan turned upright and/or deskewed before recognition).
   */
  words: Word[];
  /** The map from the words' frame onto the page as displayed (see lib/engine/text/page-frame.ts). */
  frame?: Matrix;
}

/** Adds the invisible words to each page; returns the number of words written. */
export function addOcrTextLayer(doc: mupdf.PDFDocument, pages: OcrPage[]): number {
  const book = new FontBook(doc);
  type Runs = ReturnType<FontBook["runs"]>;
  const planned: { canvas: PageCanvas; frame: Matrix; words: { w: Word; em: number; runs: Runs; gap: number }[] }[] = [];
  const space = book.runs(" ", FACE);
  const spaceEm = space.reduce((s, r) => s + r.width, 0);
  for (const p of pages) {
    if (p.words.length === 0) continue;
    planned.push({
      canvas: new PageCanvas(doc, p.index),
      frame: p.frame ?? IDENTITY,
      words: p.words.map((w, i) => {
        const runs = book.runs(w.text, FACE);
        const next = p.words[i + 1];
        // The gap to the next word of the line gets a space (so extraction keeps words apart),
        // scaled to end exactly where that word starts (an overshoot would read as a new line).
        const gap = next && next.lineId === w.lineId ? Math.max(0.1, next.x0 - w.x1) : 0;
        return { w, em: runs.reduce((s, r) => s + r.width, 0), runs, gap };
      }),
    });
  }
  // Fonts are embedded once every character is known (CID fonts are subset to the glyphs used).
  book.finalize();
  let count = 0;
  for (const { canvas, frame, words } of planned) {
    const baselines = lineBaselines(words.map((x) => x.w));
    // Words read turned or deskewed are written in their level frame, placed on the page by one
    // matrix: each line then follows the printed (skewed) line.
    const [a, b, c, d, e, f] = frame;
    const [ox, oy] = canvas.point(0, 0);
    const ops: string[] = ["q", `${[a, b, c, d, e + ox, f + oy].map(fmt).join(" ")} cm`, "BT", "3 Tr"];
    for (const { w, em, runs, gap } of words) {
      const height = w.y1 - w.y0;
      const width = w.x1 - w.x0;
      if (em <= 0 || height <= 0 || width <= 0) continue;
      const size = Math.max(1, Math.min(w.fontSize || height, height * 1.6));
      const scale = (100 * width) / (em * size);
      const [x, baseline] = [w.x0, baselines.get(w.lineId) ?? w.y1];
      // Display space has y pointing down: the text matrix flips it so glyphs stand upright.
      ops.push(`${fmt(scale)} Tz 1 0 0 -1 ${fmt(x)} ${fmt(baseline)} Tm`);
      for (const run of runs) {
        if (!run.font.ref) continue;
        const name = canvas.resource("Font", run.font.ref, "QuireOcr");
        ops.push(`/${name} ${fmt(size)} Tf ${run.font.kind === "simple" ? `(${run.code})` : `<${run.code}>`} Tj`);
      }
      if (gap > 0 && spaceEm > 0 && space[0]?.font.ref) {
        const name = canvas.resource("Font", space[0].font.ref, "QuireOcr");
        ops.push(`${fmt((100 * gap) / (spaceEm * size))} Tz /${name} ${fmt(size)} Tf (${space[0].code}) Tj`);
      }
      count++;
    }
    ops.push("ET", "Q");
    canvas.draw(...ops);
    canvas.commit();
  }
  return count;
}
