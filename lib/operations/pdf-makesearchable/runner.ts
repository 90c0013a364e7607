import "server-only";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { parsePages } from "@/lib/engine/pages";
import { savePdf } from "@/lib/engine/pdf/edit-pages";
import { parseLanguages } from "@/lib/engine/ocr/languages";
import { addOcrTextLayer, unturnMatrix, type OcrPage } from "@/lib/engine/pdf/ocr-text-layer";
import { readTurnedPage } from "@/lib/engine/pdf/ocr-turned-page";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { parseArea } from "@/lib/engine/tables/extraction-options";
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

/** Whether a word's centre (mapped from its page frame by `m`) lies in the area; no area: yes. */
function inArea(
  area: { x: number; y: number; width: number; height: number } | undefined,
  w: { x0: number; y0: number; x1: number; y1: number },
  m: [number, number, number, number, number, number],
): boolean {
  if (!area) return true;
  const x = (w.x0 + w.x1) / 2;
  const y = (w.y0 + w.y1) / 2;
  const cx = m[0] * x + m[2] * y + m[4];
  const cy = m[1] * x + m[3] * y + m[5];
  return cx >= area.x && cx <= area.x + area.width && cy >= area.y && cy <= area.y + area.height;
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
      // OCR may already have found the page turned and read it upright (pg.ocrOrientation): its
      // words are then in the turned frame, and the page's size is the turned page's.
      const found = (pg.ocrOrientation ?? 0) / 90;
      const displayed = found % 2 ? { width: pg.height, height: pg.width } : { width: pg.width, height: pg.height };
      let layer: OcrPage = { index: pg.index, words: pg.words, ...(found ? { turn: found } : {}) };
      if (found) turned++;
      // Little read upright: the scan may lie sideways; read it the way up detection says.
      else if (isSuspect(pg.words)) {
        const t = await readTurnedPage(doc, pg.index, { langs, dpi: p.profiles?.OCRResolution ?? 300 });
        const better = t && readingScore(t.words) > readingScore(pg.words);
        // A page read standing on end is taken turned when the turned reading lies and is nearly as sure.
        const upright = t && standing(pg.words) && !standing(t.words) && readingScore(t.words) >= 0.8 * readingScore(pg.words);
        if (t && (better || upright)) {
          layer = { index: pg.index, words: t.words, turn: t.turn };
          turned++;
        }
      }
      const m = unturnMatrix(layer.turn ?? 0, displayed.width, displayed.height);
      layers.push({ ...layer, words: layer.words.filter((w) => inArea(area, w, m)) });
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
