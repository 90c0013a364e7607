import "server-only";
import { nativeTessdataDir } from "@/lib/engine/ocr/languages";
import { ocrEngine, runTesseract } from "@/lib/engine/ocr/native";
import { toGray, toTesseractImage, type Raster } from "@/lib/engine/ocr/preprocess";

/**
 * Which way up a scanned page is. Tesseract's orientation detection (`--psm 0`, the `osd` model
 * of Debian's tesseract-ocr) when the native command is installed: fast and script-aware. Without
 * it, the page is read by OCR (tesseract.js) in each of the four orientations and the one with
 * the most confidently read words wins.
 */
export interface Orientation {
  /** Clockwise degrees the page must be turned to be upright. */
  rotate: 0 | 90 | 180 | 270;
  /** Tesseract's orientation confidence (native), or how much better the best reading was (fallback). */
  confidence: number;
  method: "osd" | "ocr";
}

/** Tesseract's own threshold for trusting an orientation verdict is about this. */
export const OSD_TRUSTED = 1.5;
const NATIVE_TIMEOUT_MS = 60_000;

/** Reads a raster turned by q clockwise quarter turns: the fallback's way of judging orientation. */
export type QuarterReader = (raster: Raster, q: number) => Promise<{ text: string; confidence?: number }[]>;

/**
 * The orientation of a page image, or null when there is too little text to tell. Without the
 * native engine, `read` (ocr-image.ts passes the OCR itself) reads the page four times.
 */
export async function detectOrientation(raster: Raster, opts: { langs?: string[]; read?: QuarterReader } = {}): Promise<Orientation | null> {
  const native = await detectNative(raster);
  if (native !== "unavailable") return native;
  return opts.read ? detectByReading(raster, opts.read) : null;
}

/** `tesseract <image> stdout --psm 0`: "Rotate: 270" and "Orientation confidence: 8.5"; null for too little text. */
async function detectNative(raster: Raster): Promise<Orientation | null | "unavailable"> {
  if (ocrEngine() !== "native") return "unavailable";
  const gray = raster.channels === 1 ? raster : toGray(raster);
  let res;
  try {
    const dir = nativeTessdataDir([]);
    res = await runTesseract(toTesseractImage(gray), ["--tessdata-dir", dir, "--psm", "0", "--dpi", String(Math.round(gray.dpi))], NATIVE_TIMEOUT_MS);
  } catch {
    return "unavailable";
  }
  const text = res.out + res.err;
  const rotate = /Rotate:\s*(\d+)/.exec(text);
  const conf = /Orientation confidence:\s*([\d.]+)/.exec(text);
  if (rotate && conf) {
    const r = Number(rotate[1]) % 360;
    if (r === 0 || r === 90 || r === 180 || r === 270) return { rotate: r, confidence: Number(conf[1]), method: "osd" };
  }
  // No osd model installed: the fallback reads the page instead.
  if (/Failed loading language|osd\.traineddata/i.test(text)) return "unavailable";
  return null; // "Too few characters": no verdict
}

/** Words with two or more letters or digits, weighted by confidence: what a right-way-up reading yields. */
function readingScore(words: { text: string; confidence?: number }[]): number {
  return words.reduce((s, w) => (/[\p{L}\p{N}]{2,}/u.test(w.text) ? s + (w.confidence ?? 0) : s), 0);
}

async function detectByReading(raster: Raster, read: QuarterReader): Promise<Orientation | null> {
  const scores: number[] = [];
  for (let q = 0; q < 4; q++) scores.push(readingScore(await read(raster, q)));
  const best = scores.indexOf(Math.max(...scores));
  if (scores[best] < 200) return null; // a handful of words cannot tell
  const runnerUp = Math.max(...scores.filter((_, i) => i !== best), 1);
  return { rotate: (best * 90) as Orientation["rotate"], confidence: scores[best] / runnerUp, method: "ocr" };
}
