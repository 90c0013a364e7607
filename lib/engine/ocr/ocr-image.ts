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
  /** Read the words Tesseract was unsure of a second time, each cut out on its own (native engine; default true). See rereadUnsure. */
  reread?: boolean;
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
  if (engine === "native" && opts.reread !== false) raw = await rereadUnsure(page, raw, langs);
  const scale = 72 / page.dpi;
  const junk = opts.junkConfidence ?? 50;
  const words: Word[] = [];
  // Read on the skewed page; placed on the page turned level.
  const boxes = raw.map((w) => levelBox(w, page.width, page.height, resampled ? 0 : skew));
  const heights = segmentHeights(raw, boxes);
  const bold = boldWords(page, raw, heights);
  for (let i = 0; i < raw.length; i++) {
    const w = raw[i];
    const text = withoutRuleGlyphs(w.text.trim());
    if (!text) continue;
    if (w.conf < junk && !/[\p{L}\p{N}]/u.test(text)) continue;
    // Near-zero confidence alone is no verdict: Tesseract gives 0 to real words (a code in
    // brackets, "Date:" after a rule) that it read right. Only a short fragment is dropped.
    if (w.conf < 15 && !/[\p{L}\p{N}]{2}/u.test(text)) continue;
    const b = boxes[i];
    const fontSize = Math.max(1, Math.round(((heights[i] * scale) / 0.87) * 10) / 10);
    words.push({
      text,
      x0: b.x0 * scale,
      y0: b.y0 * scale,
      x1: b.x1 * scale,
      y1: b.y1 * scale,
      fontSize,
      fontName: "OCR",
      bold: bold[i],
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

/**
 * Font size of each word (as the height of the tallest word, in pixels): the tallest word of its
 * segment, a run of the OCR line without a wide gap. Tesseract's lines run across columns
 * ("Avenida Paulista, 1 … 0-ENTRADA … 3520 0159" is one line beside a barcode); the whole
 * line's tallest word would make every word in it as large as the largest. A gap wider than
 * twice the line's typical word height starts a new segment. Only words of two letters or digits
 * read with confidence 30 or more count (not a barcode or a rule read as letters, not a lone "."
 * or "i"); a segment without one takes the line's typical (median) height.
 */
export function segmentHeights(raw: { conf: number; line: number; text: string }[], boxes: { x0: number; y0: number; x1: number; y1: number }[]): number[] {
  const out = new Array<number>(raw.length).fill(0);
  const byLine = new Map<number, number[]>();
  raw.forEach((w, i) => {
    const l = byLine.get(w.line);
    if (l) l.push(i);
    else byLine.set(w.line, [i]);
  });
  for (const idx of byLine.values()) {
    const h = (i: number) => boxes[i].y1 - boxes[i].y0;
    const sure = idx.filter((i) => raw[i].conf >= 30).map(h).sort((a, b) => a - b);
    const typical = sure.length ? sure[sure.length >> 1] : Math.max(...idx.map(h));
    const order = [...idx].sort((a, b) => boxes[a].x0 - boxes[b].x0);
    let seg: number[] = [];
    const close = () => {
      const pick = seg.filter((i) => raw[i].conf >= 30 && /[\p{L}\p{N}]{2}/u.test(raw[i].text));
      const tallest = pick.length ? Math.max(...pick.map(h)) : typical;
      for (const i of seg) out[i] = tallest;
      seg = [];
    };
    for (const i of order) {
      if (seg.length && boxes[i].x0 - boxes[seg[seg.length - 1]].x1 > 2 * typical) close();
      seg.push(i);
    }
    if (seg.length) close();
  }
  return out;
}

/** Below this confidence (0–100) a word with a letter or digit is read again on its own. */
export const REREAD_BELOW = 70;
/** At most this many words per page are read again (one small extra image either way). */
const REREAD_MAX = 400;
/** Margin of the stacked image, pixels. */
const STACK_MARGIN = 20;

/**
 * Reads again, each cut out of the page on its own, the words Tesseract was unsure of. In the
 * page reading a word sits in a line that Tesseract normalised as a whole: beside a barcode, a
 * large logo or a rule the line's height is wrong and the word comes out garbled ("Lanero" for
 * "Lucro", conf 5); cut out with a small margin it is read right (conf 93). The cut-outs go into
 * one image, one under the other with white space between (one extra Tesseract run per page,
 * "single column of text of variable sizes"); each new reading replaces the old one only when it
 * is surer (by 15 points, and at least REREAD_BELOW, no part of it below 50), so a word read as
 * well as before stays; only what was read on the old word's box counts (not a piece of the
 * line above caught in the margin).
 * A cut-out read as several words (a caption Tesseract had run together into junk) gives
 * several words, placed where they were read in the cut-out.
 */
export async function rereadUnsure<W extends RawWord>(page: Raster, raw: W[], langs: string[]): Promise<W[]> {
  if (page.channels !== 1) return raw;
  const picks: { i: number; left: number; top: number; w: number; h: number; y: number }[] = [];
  for (let i = 0; i < raw.length && picks.length < REREAD_MAX; i++) {
    const r = raw[i];
    const bw = r.x1 - r.x0;
    const bh = r.y1 - r.y0;
    if (r.conf >= REREAD_BELOW || !/[\p{L}\p{N}]/u.test(r.text) || bh < 6 || bw < 4 || bh > page.height / 12) continue;
    const padX = Math.max(3, Math.round(bh * 0.2));
    const padY = Math.max(3, Math.round(bh * 0.15));
    const left = Math.max(0, r.x0 - padX);
    const top = Math.max(0, r.y0 - padY);
    const w = Math.min(page.width, r.x1 + padX) - left;
    const h = Math.min(page.height, r.y1 + padY) - top;
    if (w > 0 && h > 0) picks.push({ i, left, top, w, h, y: 0 });
  }
  if (!picks.length) return raw;
  let y = STACK_MARGIN;
  let width = 0;
  for (const p of picks) {
    p.y = y;
    y += p.h + Math.max(16, Math.round(p.h * 0.8));
    width = Math.max(width, p.w + 2 * STACK_MARGIN);
  }
  const height = y + STACK_MARGIN;
  const data = new Uint8Array(width * height).fill(255);
  for (const p of picks) {
    for (let row = 0; row < p.h; row++) {
      const from = (p.top + row) * page.width + p.left;
      data.set(page.data.subarray(from, from + p.w), (p.y + row) * width + STACK_MARGIN);
    }
  }
  const stack: Raster = { data, width, height, channels: 1, dpi: page.dpi };
  const rows = await nativeSlot(() => recognizeNative(toTesseractImage(stack), langs, page.dpi, 4));
  const found = new Map<number, RawWord[]>();
  for (const row of rows) {
    const text = row.text.trim();
    if (row.level !== 5 || !text) continue;
    const cy = row.top + row.height / 2;
    const k = picks.findIndex((p) => cy >= p.y && cy < p.y + p.h);
    if (k < 0) continue;
    const p = picks[k];
    const old = raw[p.i];
    const dx = p.left - STACK_MARGIN;
    const dy = p.top - p.y;
    const w: RawWord = { text, x0: row.left + dx, y0: row.top + dy, x1: row.left + row.width + dx, y1: row.top + row.height + dy, conf: row.conf, line: old.line };
    // Only what lies on the old word: a piece of the line above or of the next word, caught in
    // the margin, is not part of it.
    const mid = (w.y0 + w.y1) / 2;
    const overlap = Math.min(w.x1, old.x1) - Math.max(w.x0, old.x0);
    if (mid < old.y0 || mid > old.y1 || overlap < (w.x1 - w.x0) * 0.5) continue;
    const list = found.get(k) ?? [];
    list.push(w);
    found.set(k, list);
  }
  const replaced = new Map<number, W[]>();
  for (const [k, list] of found) {
    const old = raw[picks[k].i];
    const conf = list.reduce((s, w) => s + w.conf, 0) / list.length;
    // Surer as a whole, and no part of it a guess ("2UMENTO" at 14 beside "AUXILIAR" at 90).
    if (conf < REREAD_BELOW || conf < old.conf + 15 || list.some((w) => w.conf < 50)) continue;
    list.sort((a, b) => a.x0 - b.x0);
    replaced.set(picks[k].i, list.map((w) => ({ ...old, ...w })));
  }
  if (!replaced.size) return raw;
  return raw.flatMap((w, i) => replaced.get(i) ?? [w]);
}

/** Fewer words than this on a page: too few to tell bold from regular. */
const BOLD_MIN_WORDS = 12;
/** A word whose stems are this much thicker than a regular word of its height on the page is bold. */
const BOLD_RATIO = 1.45;

/**
 * Stem width of a word in pixels: the mean length of the dark runs across its rows (runs longer
 * than half its height, a bar or a rule, left out). Pixels darker than the middle gray are ink.
 * NaN for a word with too little ink to tell.
 */
export function stemWidth(page: Raster, box: { x0: number; y0: number; x1: number; y1: number }): number {
  const x0 = Math.max(0, Math.round(box.x0));
  const x1 = Math.min(page.width, Math.round(box.x1));
  const y0 = Math.max(0, Math.round(box.y0));
  const y1 = Math.min(page.height, Math.round(box.y1));
  const longest = Math.max(2, (y1 - y0) * 0.5);
  let sum = 0;
  let runs = 0;
  for (let y = y0; y < y1; y++) {
    let run = 0;
    const row = y * page.width;
    for (let x = x0; x <= x1; x++) {
      if (x < x1 && page.data[row + x] < 128) run++;
      else if (run) {
        if (run <= longest) {
          sum += run;
          runs++;
        }
        run = 0;
      }
    }
  }
  return runs < 8 ? NaN : sum / runs;
}

/**
 * Which OCR words are bold. Tesseract gives no font; the text layer's bold is what tells a
 * letterhead's name from the captions around it, so OCR words get it back from the pixels. A
 * regular stem's width on this page is fitted as a line over the words' heights (their segment's
 * height, segmentHeights: stems grow with the font size, and a scan's blur adds about a pixel to
 * every stem, which matters most for small print); the fit is repeated without the words well
 * above it (the bold ones). A word of three or more letters or digits (fewer are too few stems
 * to tell) read with confidence 50 or more whose stems are BOLD_RATIO times as wide as the fit says for its height is bold. A page
 * with fewer than BOLD_MIN_WORDS such words gets none.
 */
export function boldWords(page: Raster, raw: { text: string; conf: number; x0: number; y0: number; x1: number; y1: number }[], heights: number[]): boolean[] {
  const out = raw.map(() => false);
  if (page.channels !== 1) return out;
  const stems = raw.map((w, i) => (w.conf >= 50 && /(?:[\p{L}\p{N}][^\p{L}\p{N}]?){3}/u.test(w.text) && heights[i] > 0 ? stemWidth(page, w) : NaN));
  let pts = stems.flatMap((s, i) => (Number.isFinite(s) ? [{ h: heights[i], s }] : []));
  if (pts.length < BOLD_MIN_WORDS) return out;
  let fit = (h: number) => h * 0;
  for (let round = 0; round < 3; round++) {
    const n = pts.length;
    const mh = pts.reduce((a, p) => a + p.h, 0) / n;
    const ms = pts.reduce((a, p) => a + p.s, 0) / n;
    const vh = pts.reduce((a, p) => a + (p.h - mh) ** 2, 0) / n;
    const cov = pts.reduce((a, p) => a + (p.h - mh) * (p.s - ms), 0) / n;
    // One size of print (no spread of heights) or a fit that falls: the stems are one width.
    const slope = vh > 4 && cov > 0 ? cov / vh : 0;
    const sorted = pts.map((p) => p.s).sort((a, b) => a - b);
    const base = slope ? ms - slope * mh : sorted[sorted.length >> 1];
    fit = (h: number) => base + slope * h;
    const regular = pts.filter((p) => p.s < fit(p.h) * 1.2);
    if (regular.length < BOLD_MIN_WORDS || regular.length === pts.length) break;
    pts = regular;
  }
  return stems.map((s, i) => Number.isFinite(s) && s >= fit(heights[i]) * BOLD_RATIO);
}
