import "server-only";
import { compose, rotationAbout, unturnMatrix } from "@/lib/engine/text/page-frame";
import type { Matrix, Word } from "@/lib/engine/text/types";
import { detectSkew, levelBox, RESAMPLE_SKEW, rotateRaster } from "@/lib/engine/ocr/deskew";
import { detectOrientation, OSD_TRUSTED, type Orientation } from "@/lib/engine/ocr/detect-orientation";
import { ocrEngine, recognizeNative, type EngineName } from "@/lib/engine/ocr/native";
import { poolSize, withWorker } from "@/lib/engine/ocr/pool";
import { preprocessRaster, rotateQuarter, toGray, toPnm, toTesseractImage, type PreprocessOptions, type Raster } from "@/lib/engine/ocr/preprocess";

/**
 * OCR of one raster, by the native Tesseract (a process per page) or tesseract.js (the worker
 * pool) — see native.ts for OCR_ENGINE. Both give the same result shape.
 *
 * Steps: the profile's preprocessing (grayscale, gamma, RotationAngle quarter turns) and
 * conversion to gray; skew detection (projection profiles, deskew.ts); recognition; and, when
 * the reading looks turned (few confident words, or words standing on end) and no
 * RotationAngle was given, orientation detection (Tesseract OSD) and a second reading of the
 * page turned upright. A page skewed by RESAMPLE_SKEW (1.5°) or more is turned level before
 * recognition (Tesseract loses whole lines of dense text at 2°); below that the page is read
 * as it is (resampling softens glyphs) and the recognised boxes are mapped onto the page
 * turned level about its centre. Either way text lines are horizontal when rows and columns
 * are built.
 *
 * Words come back in points (72 / dpi per pixel) with a top-left origin, in the frame of the
 * raster after these corrections (quarter turns change the size; deskew keeps the canvas),
 * one lineId per OCR line in Tesseract's reading order (blocks — columns — then lines);
 * `frame` maps that frame back onto the raster as given (positions on the original page).
 */
export interface OcrOptions extends PreprocessOptions {
  /** Validated language codes (see parseLanguages), default ["eng"]. */
  langs?: string[];
  /** Drop words below this confidence (0–100) that hold no letter or digit; default 50. */
  junkConfidence?: number;
  /** Detect and correct small skew (default true). */
  deskew?: boolean;
  /** Detect 90/180/270° turns when the reading looks wrong (default false; callers without RotationAngle turn it on). */
  autoOrient?: boolean;
}

export interface OcrResult {
  words: Word[];
  /** Size of the (preprocessed) raster in points. */
  width: number;
  height: number;
  /** Skew corrected, degrees counter-clockwise (0 when level). */
  skew: number;
  /** Clockwise quarter turns found by orientation detection and applied (0–3). */
  orientation: number;
  engine: EngineName;
  /**
   * With a skew or orientation: the map (points) from the words' level, upright frame onto the
   * raster as given (after the profile's RotationAngle), see lib/engine/text/page-frame.ts.
   */
  frame?: Matrix;
}

/** Native runs in flight in this process: one per pool slot (per core, within the memory budget). */
let running = 0;
const queue: (() => void)[] = [];
async function nativeSlot<T>(fn: () => Promise<T>): Promise<T> {
  while (running >= poolSize()) await new Promise<void>((r) => queue.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    queue.shift()?.();
  }
}

/** Recognised words in pixels of `r`, in reading order, with line numbers and row heights. */
interface RawWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  conf: number;
  line: number;
}

async function recognize(r: Raster, langs: string[], engine: EngineName): Promise<RawWord[]> {
  const out: RawWord[] = [];
  if (engine === "native") {
    const rows = await nativeSlot(() => recognizeNative(toTesseractImage(r), langs, r.dpi));
    let line = -1;
    let key = "";
    for (const row of rows) {
      if (row.level === 4) {
        key = `${row.block}.${row.par}.${row.line}`;
        line++;
      } else if (row.level === 5) {
        const k = `${row.block}.${row.par}.${row.line}`;
        if (k !== key) {
          key = k;
          line++;
        }
        out.push({ text: row.text, x0: row.left, y0: row.top, x1: row.left + row.width, y1: row.top + row.height, conf: row.conf, line });
      }
    }
    return out;
  }
  const data = await withWorker(langs, async (w) => {
    await w.setParameters({ user_defined_dpi: String(Math.round(r.dpi)) });
    const res = await w.recognize(toPnm(r), {}, { text: false, blocks: true });
    return res.data;
  });
  let line = 0;
  for (const block of data.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const l of para.lines) {
        for (const w of l.words) out.push({ text: w.text, x0: w.bbox.x0, y0: w.bbox.y0, x1: w.bbox.x1, y1: w.bbox.y1, conf: w.confidence, line });
        line++;
      }
    }
  }
  return out;
}

/** What a right-way-up reading yields. */
function readingScore(words: RawWord[]): { good: number; total: number } {
  let good = 0;
  // Confident words of two or more letters or digits, lying (not standing on end).
  for (const w of words) if (w.conf >= 60 && /[\p{L}\p{N}]{2,}/u.test(w.text) && (w.text.length < 3 || w.x1 - w.x0 >= w.y1 - w.y0)) good++;
  return { good, total: words.length };
}

/**
 * A reading that looks like a turned page: mostly unconfident fragments (upside down), or words
 * standing on end (Tesseract reads lines running up or down the page, boxes taller than wide).
 */
function looksTurned(words: RawWord[]): boolean {
  const { good, total } = readingScore(words);
  if (total >= 4 && good < total * 0.5) return true;
  const long = words.filter((w) => w.text.length >= 4);
  return long.length >= 3 && long.filter((w) => w.y1 - w.y0 > w.x1 - w.x0).length > long.length / 2;
}

/**
 * The orientation of a page image (Tesseract OSD; without the native engine, the page read in
 * four orientations), or null when there is too little text to tell.
 */
export function pageOrientation(raster: Raster, langs: string[] = ["eng"]): Promise<Orientation | null> {
  return detectOrientation(raster, { langs, read: (r, q) => ocrImage(r, { langs, rotate: q }).then((res) => res.words) });
}

/** OCRs a raster; see OcrOptions. */
/**
 * A table rule read as part of the word beside it ("|5", "Ligne|", "60,00}", "28,00)"): the
 * bars at either end go (with any punctuation beyond them), and so does a closing bracket after a figure that opens none. A word
 * that is only bars is a rule ("").
 */
export function withoutRuleGlyphs(text: string): string {
  // A bar at either end, with any punctuation beyond it ("P.U.HT(EUR)|-", "|#ligne").
  let t = text.replace(/^[^\p{L}\p{N}]*[|¦]+|[|¦]+[^\p{L}\p{N}]*$/gu, "");
  if (/\d[)}\]]$/.test(t)) {
    const close = t[t.length - 1];
    const open = close === ")" ? "(" : close === "}" ? "{" : "[";
    if (!t.includes(open)) t = t.slice(0, -1);
  }
  return t;
}

export async function ocrImage(raster: Raster, opts: OcrOptions = {}): Promise<OcrResult> {
  const engine = ocrEngine();
  const langs = opts.langs?.length ? opts.langs : ["eng"];
  // Gray for recognition: what Tesseract thresholds anyway, a third of the bytes to pass.
  const base = toGray(preprocessRaster(raster, opts));
  let page = base;
  let skew = opts.deskew === false ? 0 : detectSkew(page);
  // Large skews: the pixels are turned level first (Tesseract loses lines of dense text).
  let resampled = Math.abs(skew) >= RESAMPLE_SKEW;
  if (resampled) page = rotateRaster(page, skew);
  let raw = await recognize(page, langs, engine);
  let orientation = 0;
  if (opts.autoOrient && looksTurned(raw)) {
    const found = await pageOrientation(page, langs);
    if (found && found.rotate && found.confidence >= OSD_TRUSTED) {
      // The page as given, turned (not the level copy): one skew, one turn to map back.
      let turned = rotateQuarter(base, found.rotate / 90);
      const turnedSkew = opts.deskew === false ? 0 : detectSkew(turned);
      const turnedResampled = Math.abs(turnedSkew) >= RESAMPLE_SKEW;
      if (turnedResampled) turned = rotateRaster(turned, turnedSkew);
      const again = await recognize(turned, langs, engine);
      if (readingScore(again).good > readingScore(raw).good) {
        raw = again;
        page = turned;
        skew = turnedSkew;
        resampled = turnedResampled;
        orientation = found.rotate / 90;
      }
    }
  }
  const scale = 72 / page.dpi;
  const junk = opts.junkConfidence ?? 50;
  const words: Word[] = [];
  // Read on the skewed page; placed on the page turned level.
  const boxes = raw.map((w) => levelBox(w, page.width, page.height, resampled ? 0 : skew));
  // A line's font size from its tallest word (ascender to descender, about 0.87 em in Tesseract's boxes).
  const lineHeight = new Map<number, number>();
  for (let i = 0; i < raw.length; i++) lineHeight.set(raw[i].line, Math.max(lineHeight.get(raw[i].line) ?? 0, boxes[i].y1 - boxes[i].y0));
  for (let i = 0; i < raw.length; i++) {
    const w = raw[i];
    const text = withoutRuleGlyphs(w.text.trim());
    if (!text) continue;
    if (w.conf < junk && !/[\p{L}\p{N}]/u.test(text)) continue;
    // Near-zero confidence alone is no verdict: Tesseract gives 0 to real words (a code in
    // brackets, "Date:" after a rule) that it read right. Only a short fragment is dropped.
    if (w.conf < 15 && !/[\p{L}\p{N}]{2}/u.test(text)) continue;
    const b = boxes[i];
    const fontSize = Math.max(1, Math.round((((lineHeight.get(w.line) ?? 0) * scale) / 0.87) * 10) / 10);
    words.push({
      text,
      x0: b.x0 * scale,
      y0: b.y0 * scale,
      x1: b.x1 * scale,
      y1: b.y1 * scale,
      fontSize,
      fontName: "OCR",
      bold: false,
      italic: false,
      color: 0,
      lineId: w.line,
      ocr: true,
      confidence: Math.round(w.conf),
    });
  }
  const width = page.width * scale;
  const height = page.height * scale;
  // Level, upright frame → the page as given: turned back by the skew about the centre, then the quarter turns undone.
  const frame =
    skew || orientation
      ? compose(unturnMatrix(orientation, base.width * scale, base.height * scale), rotationAbout(skew, width / 2, height / 2))
      : undefined;
  return { words, width, height, skew, orientation, engine, ...(frame ? { frame } : {}) };
}
