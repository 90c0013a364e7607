import "server-only";
import type * as mupdf from "mupdf";
import { OSD_TRUSTED } from "@/lib/engine/ocr/detect-orientation";
import { pageOrientation } from "@/lib/engine/ocr/ocr-image";
import { poolSize } from "@/lib/engine/ocr/pool";
import { renderForOcr } from "@/lib/engine/text/page-texts";
import { extractPageText, uprightTurns } from "@/lib/engine/text/words";
import { rotatePages } from "./edit-pages";

/**
 * Sets every page upright (POST /v1/pdf/edit/rotate/auto). A page with a text layer is judged by
 * the direction its characters run as displayed (MuPDF gives each line's direction): most of the
 * text running down, left or up means the page is turned. A page without enough text (a scan) is
 * rendered and judged by orientation detection (Tesseract OSD, else OCR in four orientations).
 * The page's /Rotate is then changed; its content is not touched.
 */
export interface PageVerdict {
  /** 0-based page. */
  index: number;
  /** Clockwise degrees added to the page's rotation (0: already upright, or undecided). */
  turned: 0 | 90 | 180 | 270;
  by: "text" | "osd" | "ocr" | "undecided";
}

/** Characters of text layer from which the text's direction decides (fewer: treated as a scan). */
const MIN_TEXT_CHARS = 20;
/** Resolution of the render that orientation detection looks at: enough for letter shapes. */
const DETECT_DPI = 150;

export async function autoRotate(
  doc: mupdf.PDFDocument,
  opts: { langs?: string[]; onPage?: (v: PageVerdict) => void } = {},
): Promise<PageVerdict[]> {
  const count = doc.countPages();
  const verdicts: PageVerdict[] = new Array(count);
  const scans: number[] = [];
  for (let i = 0; i < count; i++) {
    const layer = extractPageText(doc, i, { autoUpright: true });
    const chars = layer.words.reduce((s, w) => s + w.text.length, 0);
    if (chars < MIN_TEXT_CHARS) {
      scans.push(i);
      continue;
    }
    const turns = uprightTurns.get(layer) ?? 0;
    verdicts[i] = { index: i, turned: ((turns * 90) % 360) as PageVerdict["turned"], by: "text" };
  }
  // Scans: renders one at a time per lane, detection in parallel up to the OCR pool's size.
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(poolSize(), scans.length)) }, async () => {
    while (next < scans.length) {
      const i = scans[next++];
      const raster = renderForOcr(doc, i, DETECT_DPI, true, false);
      const found = await pageOrientation(raster, opts.langs);
      verdicts[i] =
        found && found.confidence >= OSD_TRUSTED
          ? { index: i, turned: found.rotate, by: found.method }
          : { index: i, turned: 0, by: "undecided" };
    }
  });
  await Promise.all(lanes);
  for (const v of verdicts) {
    if (v.turned) rotatePages(doc, [v.index], v.turned);
    opts.onPage?.(v);
  }
  return verdicts;
}
