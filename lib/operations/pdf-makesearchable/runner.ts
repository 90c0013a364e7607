import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { parsePages } from "@/lib/engine/pages";
import { savePdf } from "@/lib/engine/pdf/edit-pages";
import { parseLanguages } from "@/lib/engine/ocr/languages";
import { addOcrTextLayer, type OcrPage } from "@/lib/engine/pdf/ocr-text-layer";
import { readTurnedPage } from "@/lib/engine/pdf/ocr-turned-page";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { parseArea } from "@/lib/engine/tables/extraction-options";
import { centreInArea, compose, unturnMatrix } from "@/lib/engine/text/page-frame";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { pdfOutputName } from "@/lib/operations/output-name";
import type { Runner } from "@/lib/operations/runner-types";
import type { operation } from "./contract";

type Params = z.infer<typeof operation.params>;

/**
 * An OCRed page read with little text or low confidence may lie sideways (read that way, its
 * lines come out as short fragments Tesseract is unsure of): it is checked with orientation
 * detection. A page read well upright is not (the check costs a render and a detection).
 */
const SUSPECT_CHARS = 20;
const SUSPECT_CONFIDENCE = 75;

const chars = (words: { text: string }[]) => words.reduce((s, w) => s + w.text.length, 0);

/** Confidence-weighted characters: how much was read, and how surely. */
const readingScore = (words: { text: string; confidence?: number }[]) =>
  words.reduce((s, w) => s + w.text.length * (w.confidence ?? 0), 0);

type Box = { text: string; confidence?: number; x0: number; y0: number; x1: number; y1: number };

/**
 * Words standing on end: the native engine reads the lines of a sideways page as columns of
 * confident words with boxes taller than wide (tesseract.js returns fragments instead).
 */
function standing(words: Box[]): boolean {
  const long = words.filter((w) => w.text.length >= 3);
  return long.length >= 2 && long.filter((w) => w.y1 - w.y0 > w.x1 - w.x0).length > long.length / 2;
}

function isSuspect(words: Box[]): boolean {
  const n = chars(words);
  return n < SUSPECT_CHARS || readingScore(words) / n < SUSPECT_CONFIDENCE || standing(words);
}

/** OCRs the selected pages without text (or all with OCRMode Always) and writes the invisible layer over them. */
export const run: Runner<Params> = async (ctx) => {
  const p = ctx.params;
  const source = ctx.sources[0];
  if (!source) throw new QuireError(400, "url: give the URL of a PDF document.");
  const area = parseArea(p.rect, undefined);
  const bytes = await readFile(source.path);
  const doc = openPdf(bytes, p.password);
  try {
    if (!doc.hasPermission("edit")) {
      throw new QuireError(443, "this PDF's permissions forbid changing its content (modify): send the owner password in `password`.");
    }
    const pageCount = doc.countPages();
    const indices = parsePages(p.pages, pageCount, 0);
    // rotation 0: words stay in the frame of the page as displayed, where the layer is drawn.
    const texts = await getPageTexts(bytes, {
      password: p.password,
      pageIndices: indices,
      lang: p.lang,
      ocrMode: p.profiles?.OCRMode === "Always" ? "Always" : "Auto",
      ocrResolution: p.profiles?.OCRResolution,
      rotation: 0,
      // Tesseract reads gray anyway: rendering gray saves two thirds of the pixels it is handed.
      grayscale: true,
      onProgress: (done, total) => ctx.log(`makesearchable: ${done}/${total} page(s)`),
    });
    const ocred = new Set(texts.ocrPages);
    const langs = parseLanguages(p.lang);
    const layers: OcrPage[] = [];
    let turned = 0;
    for (const pg of texts.pages) {
      if (!ocred.has(pg.index)) continue;
      // OCR may already have found the page turned and read it upright, and deskewed it: its
      // words are then in that level, upright frame, placed on the page by pg.ocrFrame.
      let layer: OcrPage = { index: pg.index, words: pg.words, ...(pg.ocrFrame ? { frame: pg.ocrFrame } : {}) };
      if (pg.ocrOrientation) turned++;
      // Little read upright: the scan may lie sideways; read it the way up detection says.
      else if (isSuspect(pg.words)) {
        const t = await readTurnedPage(doc, pg.index, { langs, dpi: p.profiles?.OCRResolution ?? 300 });
        const better = t && readingScore(t.words) > readingScore(pg.words);
        // A page read standing on end is taken turned when the turned reading lies and is nearly as sure.
        const upright = t && standing(pg.words) && !standing(t.words) && readingScore(t.words) >= 0.8 * readingScore(pg.words);
        if (t && (better || upright)) {
          const unturn = unturnMatrix(t.turn, pg.width, pg.height);
          layer = { index: pg.index, words: t.words, frame: t.frame ? compose(unturn, t.frame) : unturn };
          turned++;
        }
      }
      layers.push({ ...layer, words: layer.words.filter((w) => centreInArea({ ocrFrame: layer.frame }, w, area)) });
    }
    if (turned) ctx.log(`makesearchable: ${turned} page(s) read turned upright`);
    const words = addOcrTextLayer(doc, layers);
    const file = path.join(ctx.workDir, "result.pdf");
    await writeFile(file, savePdf(doc, false));
    const skipped = indices.length - layers.length;
    ctx.log(`makesearchable: ${words} word(s) on ${layers.length} page(s), ${skipped} page(s) already had text`);
    const message =
      `${words} word(s) recognised on ${layers.length} page(s)` +
      (skipped ? `; ${skipped} page(s) already had a text layer and were left as they are (profiles OCRMode: Always to OCR them too)` : "") +
      ".";
    return { outputs: [{ path: file, name: pdfOutputName(p.name), contentType: "application/pdf" }], pageCount, pagesProcessed: indices.length, message };
  } finally {
    doc.destroy();
  }
};
