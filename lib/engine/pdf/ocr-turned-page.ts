import "server-only";
import type * as mupdf from "mupdf";
import { detectOrientation } from "@/lib/engine/ocr/detect-orientation";
import { ocrImage } from "@/lib/engine/ocr/ocr-image";
import { renderForOcr } from "@/lib/engine/text/page-texts";
import type { Matrix, Word } from "@/lib/engine/text/types";

/** Resolution of the render orientation detection looks at (as /v1/pdf/edit/rotate/auto). */
const DETECT_DPI = 150;

/**
 * A scan lying sideways or upside down (POST /v1/pdf/makesearchable): when orientation
 * detection says the page is turned, it is OCRed turned upright. The words come back in that
 * turned frame (`turn` clockwise quarter turns from the page as displayed; `frame`, when the
 * turned page was also deskewed, maps the level frame onto the turned one); null when the page is
 * upright or the detection cannot tell. Even an unsure verdict is tried (a page with two lines
 * gives one): the caller keeps the reading only if it is better than the upright one.
 */
export async function readTurnedPage(
  doc: mupdf.PDFDocument,
  index: number,
  opts: { langs: string[]; dpi: number },
): Promise<{ turn: number; words: Word[]; frame?: Matrix } | null> {
  const found = await detectOrientation(renderForOcr(doc, index, DETECT_DPI, true, false), { langs: opts.langs });
  if (!found || found.rotate === 0) return null;
  const turn = found.rotate / 90;
  const raster = renderForOcr(doc, index, opts.dpi, true, false);
  const result = await ocrImage(raster, { langs: opts.langs, rotate: turn, autoOrient: false });
  // Orientation detectors disagree on which way a quarter turn goes (Tesseract's OSD says how far
  // to turn, not always in the direction the reader turns): a sideways page whose reading is
  // poor is read the other way round too, and the better reading wins.
  if (turn % 2 === 1 && readingQuality(result.words) < 0.6) {
    const other = 4 - turn;
    const again = await ocrImage(raster, { langs: opts.langs, rotate: other, autoOrient: false });
    if (readingQuality(again.words) > readingQuality(result.words)) return { turn: other, words: again.words, frame: again.frame };
  }
  return { turn, words: result.words, frame: result.frame };
}

/** Share of the words that look read the right way up: confident, two or more letters or digits. */
function readingQuality(words: Word[]): number {
  if (words.length === 0) return 0;
  return words.filter((w) => (w.confidence ?? 0) >= 60 && /[\p{L}\p{N}]{2,}/u.test(w.text)).length / words.length;
}
