import "server-only";
import type { Word } from "@/lib/engine/text/types";
import { withWorker } from "@/lib/engine/ocr/pool";
import { preprocessRaster, toPnm, type PreprocessOptions, type Raster } from "@/lib/engine/ocr/preprocess";

/**
 * OCR of one raster with the worker pool. Words come back in points (72 / dpi per pixel) with
 * a top-left origin, in the frame of the raster *after* preprocessing (so a RotationAngle turn
 * gives the coordinates of the turned page), one lineId per OCR line.
 */
export interface OcrOptions extends PreprocessOptions {
  /** Validated language codes (see parseLanguages), default ["eng"]. */
  langs?: string[];
  /** Drop words below this confidence (0–100) that hold no letter or digit; default 50. */
  junkConfidence?: number;
}

export interface OcrResult {
  words: Word[];
  /** Size of the (preprocessed) raster in points. */
  width: number;
  height: number;
}

/** OCRs a raster; see OcrOptions. */
export async function ocrImage(raster: Raster, opts: OcrOptions = {}): Promise<OcrResult> {
  const prepared = preprocessRaster(raster, opts);
  const scale = 72 / prepared.dpi;
  const pnm = toPnm(prepared);
  const langs = opts.langs?.length ? opts.langs : ["eng"];
  const data = await withWorker(langs, async (w) => {
    await w.setParameters({ user_defined_dpi: String(Math.round(prepared.dpi)) });
    const res = await w.recognize(pnm, {}, { text: false, blocks: true });
    return res.data;
  });
  const words: Word[] = [];
  let lineId = 0;
  const junk = opts.junkConfidence ?? 50;
  for (const block of data.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        const rowH = line.rowAttributes?.rowHeight || line.bbox.y1 - line.bbox.y0;
        // Tesseract's row height spans ascender to descender, about 0.87 em.
        const fontSize = Math.max(1, Math.round(((rowH * scale) / 0.87) * 10) / 10);
        for (const w of line.words) {
          const text = w.text.trim();
          if (!text) continue;
          if (w.confidence < junk && !/[\p{L}\p{N}]/u.test(text)) continue;
          if (w.confidence < 15) continue;
          words.push({
            text,
            x0: w.bbox.x0 * scale,
            y0: w.bbox.y0 * scale,
            x1: w.bbox.x1 * scale,
            y1: w.bbox.y1 * scale,
            fontSize,
            fontName: "OCR",
            bold: false,
            italic: false,
            color: 0,
            lineId,
            ocr: true,
            confidence: Math.round(w.confidence),
          });
        }
        lineId++;
      }
    }
  }
  return { words, width: prepared.width * scale, height: prepared.height * scale };
}
