import "server-only";
import { renderWithoutText } from "@/lib/engine/pdf/render-without-text";
/**
 * getPageTexts(bytes, opts) — positioned words of a PDF, a scan or an image, from the text
 * layer and/or OCR. The one entry point for everything that reads text (CSV, HTML, invoices,
 * classifier):
 *
 *   const { pages, pageCount, kind } = await getPageTexts(bytes, { lang: "eng", ocrMode: "Auto" });
 *   // pages: PageText[] (lib/engine/text/types.ts), in points, top-left origin, one per selected page.
 *
 * Input: PDF bytes, or an image (PNG, JPEG, TIFF incl. multi-page, WebP, GIF, BMP): an image
 * page is OCRed (unless ocrMode is "Never", which then yields no words).
 * Options (all optional): password; pages ("0-2,5", 0-based seed syntax) or pageIndices;
 * ocrMode (Auto default: OCR pages with fewer than minTextLength (8) characters of text,
 * keeping the words of that short text layer;
 * Never; Always; TextFromImagesOnly; TextFromVectors — see docs/extraction.md); lang ("eng",
 * "eng+fra"; unknown → 400); ocrResolution (dpi, 72–1200, default 300); rotation (clockwise
 * quarter turns applied to the page before analysis); grayscale, gamma (OCR preprocessing);
 * withRules (ruling lines for tables); includeInvisible (default true); onProgress.
 * Errors: 441 password, 442 damaged/unsupported file, 449/450 pages, 400 lang, 454 resolution.
 * OCR pages are processed in parallel on the worker pool and rendered one at a time per
 * worker, so memory stays bounded whatever the page count.
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
import { QuireError } from "@/lib/core/errors";
import { assertImagePixels, imageLimitsFromEnv } from "@/lib/engine/images/probe-image";
import { parsePages } from "@/lib/engine/pages";
import { openPdf, loadPdfPage } from "@/lib/engine/pdf/open-pdf";
import { parseLanguages } from "@/lib/engine/ocr/languages";
import { ocrImage } from "@/lib/engine/ocr/ocr-image";
import { ocrPlan, poolSize } from "@/lib/engine/ocr/pool";
import type { Raster } from "@/lib/engine/ocr/preprocess";
import { extractPageText, uprightTurns } from "@/lib/engine/text/words";
import { mapBox } from "@/lib/engine/text/page-frame";
import { rotatePageText } from "@/lib/engine/text/rotate";
import type { PageText, Word } from "@/lib/engine/text/types";

export type OcrMode = "Auto" | "Never" | "Always" | "TextFromImagesOnly" | "TextFromVectors";

export interface PageTextsOptions {
  password?: string;
  /** 0-based page selection in the seed's syntax; default every page. */
  pages?: string;
  /** Explicit 0-based page indices (wins over `pages`). */
  pageIndices?: number[];
  ocrMode?: OcrMode;
  lang?: string;
  ocrResolution?: number;
  /** Auto mode: pages with fewer characters than this are OCRed (default 8). */
  minTextLength?: number;
  /** Clockwise quarter turns (RotationAngle). */
  rotation?: number;
  grayscale?: boolean;
  gamma?: number[];
  withRules?: boolean;
  includeInvisible?: boolean;
  /** Called after each page is done (in completion order), e.g. for job logs. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Leave the pages that would be OCRed undone: they come back as read from the text layer and
   * are listed in `deferredPages`, for the caller to read again without this flag (a helper
   * process reading part of a document leaves OCR to the job's own process and its OCR pool).
   */
  deferOcr?: boolean;
  /**
   * The document of these bytes already open (with the password): read instead of opening and
   * parsing it again. The caller keeps it and destroys it.
   */
  document?: mupdf.Document;
}

export interface PageTextsResult {
  pages: PageText[];
  /** Pages in the document (or image). */
  pageCount: number;
  kind: "pdf" | "image";
  /** Indices of the pages that were OCRed. */
  ocrPages: number[];
  /** With deferOcr: the pages that need OCR and were left undone (their entries are placeholders). */
  deferredPages?: number[];
}



/** What the bytes are: a PDF, an image sharp can read, or neither. */
export function sniffKind(bytes: Uint8Array): "pdf" | "image" | null {
  const b = bytes;
  const head = Buffer.from(b.buffer, b.byteOffset, Math.min(b.byteLength, 1024));
  if (head.includes("%PDF-")) return "pdf";
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "image"; // PNG
  if (b[0] === 0xff && b[1] === 0xd8) return "image"; // JPEG
  if ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a) || (b[0] === 0x4d && b[1] === 0x4d && b[3] === 0x2a)) return "image"; // TIFF
  if (head.subarray(0, 4).toString("latin1") === "RIFF" && head.subarray(8, 12).toString("latin1") === "WEBP") return "image";
  if (head.subarray(0, 3).toString("latin1") === "GIF") return "image";
  if (b[0] === 0x42 && b[1] === 0x4d) return "image"; // BMP
  if (b[0] === 0x50 && b[1] >= 0x31 && b[1] <= 0x36 && (b[2] === 0x0a || b[2] === 0x20 || b[2] === 0x0d)) return "image"; // PBM/PGM/PPM
  return null;
}

/** See the top of this file. */
export async function getPageTexts(bytes: Uint8Array, opts: PageTextsOptions = {}): Promise<PageTextsResult> {
  const kind = sniffKind(bytes);
  if (kind === null) {
    throw new QuireError(442, "the file is neither a PDF nor a supported image (PNG, JPEG, TIFF, WebP, GIF, BMP, PNM).");
  }
  const res = opts.ocrResolution ?? 300;
  if (!Number.isFinite(res) || res < 72 || res > 1200) {
    throw new QuireError(454, `OCRResolution: use 72 to 1200 dpi, got ${res}.`);
  }
  const mode = opts.ocrMode ?? "Auto";
  // Validate the language up front even when no page ends up OCRed: a typo should not pass silently.
  const langs = parseLanguages(opts.lang);
  return kind === "pdf" ? pdfPageTexts(bytes, opts, mode, langs, res) : imagePageTexts(bytes, opts, mode, langs);
}

/** Runs `tasks` with at most `limit` in flight, keeping results in order. */
async function runLimited<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(count);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, count)) }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  });
  await Promise.all(lanes);
  return out;
}

async function pdfPageTexts(
  bytes: Uint8Array,
  opts: PageTextsOptions,
  mode: OcrMode,
  langs: string[],
  dpi: number,
): Promise<PageTextsResult> {
  const doc = opts.document ?? openPdf(bytes, opts.password);
  try {
    const count = doc.countPages();
    const indices = opts.pageIndices ?? parsePages(opts.pages, count, 0);
    for (const i of indices) {
      if (!Number.isInteger(i) || i < 0 || i >= count) {
        throw new QuireError(449, `pages: page ${i} is past the last page (${count - 1}); the document has ${count} page(s).`);
      }
    }
    const minLen = opts.minTextLength ?? 8;
    const q = (((opts.rotation ?? 0) % 4) + 4) % 4;
    const ocrPages: number[] = [];
    const deferredPages: number[] = [];
    let done = 0;
    // Size the parallelism to the render size (the first selected page stands for the rest).
    const first = loadPdfPage(doc, indices[0] ?? 0);
    const [fx0, fy0, fx1, fy1] = first.getBounds();
    first.destroy();
    const megapixels = ((fx1 - fx0) * (fy1 - fy0) * (dpi / 72) ** 2) / 1e6;
    // Rendered gray: both engines recognise a gray image (ocr-image.ts), a third of the memory.
    const plan = ocrPlan(megapixels, true);
    const pages = await runLimited(indices.length, mode === "Never" ? 1 : plan.concurrency, async (n) => {
      const index = indices[n];
      // Without RotationAngle, a page whose text runs sideways is turned upright automatically.
      const layer = extractPageText(doc, index, {
        withRules: opts.withRules,
        includeInvisible: opts.includeInvisible,
        autoUpright: opts.rotation === undefined,
      });
      const auto = uprightTurns.get(layer) ?? 0;
      const chars = layer.words.reduce((s, w) => s + w.text.length, 0);
      const ocr = mode === "Always" || mode === "TextFromImagesOnly" || mode === "TextFromVectors" || (mode === "Auto" && chars < minLen);
      let page = rotatePageText(layer, q);
      const turn = (q + auto) % 4;
      if (ocr && opts.deferOcr) {
        deferredPages.push(index);
      } else if (ocr) {
        ocrPages.push(index);
        // Auto with a short text layer (a picture with a caption, a scan with a page number): the
        // layer's words are exact, so they stay, and the page is OCRed without them for the rest.
        const short = mode === "Auto" && layer.words.length > 0;
        const raster = renderForOcr(doc, index, dpi, plan.gray, mode === "TextFromImagesOnly" || short);
        const keep = mode === "TextFromImagesOnly" || mode === "TextFromVectors" || short;
        // A scan's orientation is checked when no RotationAngle was given and no text layer decides it.
        const autoOrient = (!keep || short) && opts.rotation === undefined && auto === 0;
        const result = await ocrImage(raster, { langs, grayscale: opts.grayscale, gamma: opts.gamma, rotate: turn, autoOrient });
        // Beside the text layer, OCR words are placed on the page as it is (one frame for both).
        const frame = result.frame;
        const ocrWords = keep && frame ? result.words.map((w) => mapBox(frame, w)) : result.words;
        page = keep
          ? { ...page, words: [...page.words, ...withoutOverlaps(ocrWords, page.words, page)] }
          : { ...page, words: ocrWords, ...(result.orientation % 2 ? { width: page.height, height: page.width } : {}) };
        if (frame && !keep) {
          if (result.skew) page.ocrSkew = result.skew;
          if (result.orientation) page.ocrOrientation = result.orientation * 90;
          page.ocrFrame = frame;
        }
      }
      opts.onProgress?.(++done, indices.length);
      return page;
    });
    ocrPages.sort((a, b) => a - b);
    deferredPages.sort((a, b) => a - b);
    return { pages, pageCount: count, kind: "pdf", ocrPages, ...(opts.deferOcr ? { deferredPages } : {}) };
  } finally {
    if (!opts.document) doc.destroy();
  }
}

/** OCR line ids start after the text layer's, so merged pages keep ids unique. */
function withoutOverlaps(ocr: Word[], layer: Word[], page: PageText): Word[] {
  const base = layer.reduce((m, w) => Math.max(m, w.lineId), -1) + 1;
  const sorted = [...layer].sort((a, b) => a.y0 - b.y0);
  const out: Word[] = [];
  for (const w of ocr) {
    const hit = sorted.some(
      (l) =>
        l.y0 < w.y1 &&
        l.y1 > w.y0 &&
        l.x0 < w.x1 &&
        l.x1 > w.x0 &&
        (Math.min(l.x1, w.x1) - Math.max(l.x0, w.x0)) * (Math.min(l.y1, w.y1) - Math.max(l.y0, w.y0)) >
          0.3 * Math.min((w.x1 - w.x0) * (w.y1 - w.y0), (l.x1 - l.x0) * (l.y1 - l.y0)),
    );
    if (!hit && w.x1 <= page.width + 1 && w.y1 <= page.height + 1) out.push({ ...w, lineId: w.lineId + base });
  }
  return out;
}

/**
 * Renders a page for OCR: gray when grayscale preprocessing is on, else RGB; without the text
 * layer for TextFromImagesOnly (and Auto on a page with a short text layer). The pixels are
 * copied out of WASM memory at once (a later render may grow it and detach any view).
 */
export function renderForOcr(doc: mupdf.Document, index: number, dpi: number, gray: boolean, withoutText: boolean): Raster {
  const page = loadPdfPage(doc, index);
  try {
    const scale = dpi / 72;
    const matrix = mupdf.Matrix.scale(scale, scale);
    const cs = gray ? mupdf.ColorSpace.DeviceGray : mupdf.ColorSpace.DeviceRGB;
    const pix = withoutText ? renderWithoutText(page, matrix, cs) : page.toPixmap(matrix, cs, false, true);
    try {
      return rasterFromPixmap(pix, dpi);
    } finally {
      pix.destroy();
    }
  } finally {
    page.destroy();
  }
}

/** Copies a pixmap (gray or RGB, no alpha) into a packed raster. */
export function rasterFromPixmap(pix: mupdf.Pixmap, dpi: number): Raster {
  const w = pix.getWidth();
  const h = pix.getHeight();
  const n = pix.getNumberOfComponents(); // MuPDF counts the alpha channel in n
  const stride = pix.getStride();
  const src = pix.getPixels();
  const channels = (n - (pix.getAlpha() ? 1 : 0) >= 3 ? 3 : 1) as 1 | 3;
  const data = new Uint8Array(w * h * channels);
  const alpha = pix.getAlpha() !== 0;
  if (n === channels && stride === w * n) data.set(src.subarray(0, data.length));
  else {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const at = y * stride + x * n;
        // Premultiplied alpha: composite over white.
        const cover = alpha ? 255 - src[at + n - 1] : 0;
        for (let k = 0; k < channels; k++) data[(y * w + x) * channels + k] = Math.min(255, src[at + k] + cover);
      }
    }
  }
  return { data, width: w, height: h, channels, dpi };
}


/** Page count and resolution of an image file: sharp first, MuPDF for what sharp cannot read (BMP, PNM). */
export async function probeImage(bytes: Uint8Array): Promise<{ pages: number; dpi: number; decoder: "sharp" | "mupdf" }> {
  try {
    // Header only (sharp's own limit off so that the one pixel check below answers 413 first).
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (meta.width && meta.height) assertImagePixels(meta.width, (meta.pageHeight ?? meta.height), "the image");
    const dpi = meta.density && meta.density >= 50 && meta.density <= 2400 ? meta.density : 72;
    return { pages: Math.max(1, meta.pages ?? 1), dpi, decoder: "sharp" };
  } catch (e) {
    if (e instanceof QuireError) throw e;
    try {
      const image = new mupdf.Image(Buffer.from(bytes));
      try {
        assertImagePixels(image.getWidth(), image.getHeight(), "the image");
        const r = image.getXResolution();
        return { pages: 1, dpi: r >= 50 && r <= 2400 && r !== 96 ? r : 72, decoder: "mupdf" };
      } finally {
        image.destroy();
      }
    } catch (e2) {
      if (e2 instanceof QuireError) throw e2;
      throw new QuireError(442, `the image could not be read: ${(e as Error).message.slice(0, 200)}.`);
    }
  }
}

async function imagePageTexts(bytes: Uint8Array, opts: PageTextsOptions, mode: OcrMode, langs: string[]): Promise<PageTextsResult> {
  const probe = await probeImage(bytes);
  const count = probe.pages;
  const density = probe.dpi;
  const indices = opts.pageIndices ?? parsePages(opts.pages, count, 0);
  const q = (((opts.rotation ?? 0) % 4) + 4) % 4;
  const ocrPages: number[] = [];
  let done = 0;
  const pages = await runLimited(indices.length, mode === "Never" ? 1 : poolSize(), async (n) => {
    const index = indices[n];
    // Gray when only OCR will see the pixels (it reads gray anyway): a third of the pixels to
    // decode, and the conversion done by libvips instead of a loop here.
    const raster = await decodeImagePage(bytes, index, count, density, probe.decoder, mode !== "Never" && !opts.gamma?.length);
    let page: PageText = { index, width: (raster.width * 72) / density, height: (raster.height * 72) / density, rotation: 0, words: [], rules: [] };
    if (mode !== "Never") {
      ocrPages.push(index);
      const r = await ocrImage(raster, { langs, grayscale: opts.grayscale, gamma: opts.gamma, rotate: q, autoOrient: opts.rotation === undefined });
      page = { ...page, width: r.width, height: r.height, words: r.words };
      if (r.skew) page.ocrSkew = r.skew;
      if (r.orientation) page.ocrOrientation = r.orientation * 90;
      if (r.frame) page.ocrFrame = r.frame;
    } else if (q % 2 === 1) {
      page = { ...page, width: page.height, height: page.width };
    }
    opts.onProgress?.(++done, indices.length);
    return page;
  });
  ocrPages.sort((a, b) => a - b);
  return { pages, pageCount: count, kind: "image", ocrPages };
}

/** One page (frame) of an image, upright per its EXIF orientation, flattened on white; RGB, or gray when asked. */
export async function decodeImagePage(
  bytes: Uint8Array,
  index: number,
  count: number,
  dpi: number,
  decoder: "sharp" | "mupdf" = "sharp",
  gray = false,
): Promise<Raster> {
  if (decoder === "mupdf") {
    const image = new mupdf.Image(Buffer.from(bytes));
    try {
      const pix = image.toPixmap();
      try {
        const rgb = pix.getColorSpace()?.getNumberOfComponents() === 3 ? pix : pix.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, pix.getAlpha() !== 0);
        try {
          return rasterFromPixmap(rgb, dpi);
        } finally {
          if (rgb !== pix) rgb.destroy();
        }
      } finally {
        pix.destroy();
      }
    } catch (e) {
      throw new QuireError(442, `image page ${index} could not be decoded: ${(e as Error).message.slice(0, 200)}.`);
    } finally {
      image.destroy();
    }
  }
  try {
    const img = sharp(bytes, { limitInputPixels: imageLimitsFromEnv().maxPixels, ...(count > 1 ? { page: index } : {}) })
      .rotate()
      .flatten({ background: "#ffffff" })
      .toColourspace(gray ? "b-w" : "srgb");
    const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
    const channels = info.channels;
    if (gray && channels === 1) return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: 1, dpi };
    if (channels === 3) return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: 3, dpi };
    // Anything else (gray+alpha, CMYK...) → RGB via sharp once more.
    const rgb = await sharp(data, { raw: { width: info.width, height: info.height, channels } }).removeAlpha().toColourspace("srgb").raw().toBuffer();
    return { data: new Uint8Array(rgb), width: info.width, height: info.height, channels: 3, dpi };
  } catch (e) {
    throw new QuireError(442, `image page ${index} could not be decoded: ${(e as Error).message.slice(0, 200)}.`);
  }
}
