import "server-only";
import zlib from "node:zlib";
import type * as mupdf from "mupdf";
import { envNumber } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { assertImagePixels, imageLimitsFromEnv } from "@/lib/engine/images/probe-image";

/**
 * The work a PDF asks for, measured before any real work starts, so that a decompression bomb
 * or a 100,000-page file is refused in a moment (413 with the reason) instead of holding a
 * worker for minutes: pages, bytes its Flate streams inflate to (content streams, forms, fonts)
 * and the pixels of its largest image.
 */
export interface WorkLimits {
  /** Pages of one document (MAX_PAGES). */
  maxPages: number;
  /** Bytes all Flate streams of one document inflate to (WORK_MAX_INFLATED_MB). */
  maxInflatedBytes: number;
  /** Pixels of one image (IMAGE_MAX_PIXELS). */
  maxImagePixels: number;
}

export interface WorkMeasure {
  pages: number;
  inflatedBytes: number;
  largestImagePixels: number;
}

export function workLimitsFromEnv(): WorkLimits {
  return {
    maxPages: envNumber("MAX_PAGES", 10_000),
    maxInflatedBytes: envNumber("WORK_MAX_INFLATED_MB", 512) * 1024 * 1024,
    maxImagePixels: imageLimitsFromEnv().maxPixels, // the one pixel limit (lib/engine/images/probe-image.ts)
  };
}

/** Objects scanned at most (a file with more is measured by its first objects and pages only). */
const MAX_SCAN_OBJECTS = 2_000_000;

/** Measures `doc` against `limits`; throws 413 naming the limit as soon as one is passed. */
export async function checkPdfWork(
  doc: mupdf.PDFDocument,
  limits: WorkLimits = workLimitsFromEnv(),
  label = "the PDF",
): Promise<WorkMeasure> {
  const pages = doc.countPages();
  if (pages > limits.maxPages) {
    throw new QuireError(
      413,
      `${label} has ${pages} pages; this server processes at most ${limits.maxPages} pages per document (MAX_PAGES).`,
    );
  }
  let inflatedBytes = 0;
  let largestImagePixels = 0;
  const count = Math.min(doc.countObjects(), MAX_SCAN_OBJECTS);
  for (let num = 1; num < count; num++) {
    let obj: mupdf.PDFObject;
    try {
      obj = doc.newIndirect(num);
      if (!obj.isStream()) continue;
    } catch {
      continue; // a damaged object: MuPDF repairs or skips it later
    }
    const dict = obj.resolve();
    const subtype = nameOf(dict.get("Subtype"));
    if (subtype === "Image") {
      const px = numberOf(dict.get("Width")) * numberOf(dict.get("Height"));
      if (px > largestImagePixels) largestImagePixels = px;
      assertImagePixels(numberOf(dict.get("Width")), numberOf(dict.get("Height")), `${label}: an image inside it`, limits.maxImagePixels);
      continue;
    }
    if (!isFlate(dict.get("Filter"))) continue;
    let raw: Uint8Array;
    try {
      raw = obj.readRawStream().asUint8Array();
    } catch {
      continue;
    }
    inflatedBytes += await inflatedSize(raw, limits.maxInflatedBytes - inflatedBytes);
    if (inflatedBytes > limits.maxInflatedBytes) {
      throw new QuireError(
        413,
        `${label} inflates to more than ${Math.round(limits.maxInflatedBytes / 1024 / 1024)} MB of content (a decompression bomb?); the limit is WORK_MAX_INFLATED_MB.`,
      );
    }
  }
  return { pages, inflatedBytes, largestImagePixels };
}

/** Streams up to this size are inflated in one synchronous call (into at most SYNC_MAX_OUT bytes). */
const SYNC_MAX_RAW = 256 * 1024;
const SYNC_MAX_OUT = 16 * 1024 * 1024;

/**
 * Bytes a zlib stream inflates to, stopped past `cap`; a damaged stream counts what came out
 * before the damage. A small stream (the content stream of an ordinary page) is inflated in one
 * synchronous call: a thread-pool round trip for each of a 500-page file's streams cost more
 * than the inflating. Anything larger, or inflating past SYNC_MAX_OUT, or damaged, is counted as
 * it streams, keeping nothing.
 */
function inflatedSize(raw: Uint8Array, cap: number): Promise<number> | number {
  if (raw.length <= SYNC_MAX_RAW) {
    try {
      const limit = Math.min(cap + 1, SYNC_MAX_OUT);
      const out = zlib.inflateSync(raw, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: limit });
      return out.length;
    } catch {
      /* past the limit or damaged: count it as it streams */
    }
  }
  return inflatedSizeStreaming(raw, cap);
}

function inflatedSizeStreaming(raw: Uint8Array, cap: number): Promise<number> {
  return new Promise((resolve) => {
    let total = 0;
    const inflate = zlib.createInflate({ chunkSize: 1024 * 1024, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    inflate.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > cap) {
        inflate.destroy();
        resolve(total);
      }
    });
    inflate.on("end", () => resolve(total));
    inflate.on("error", () => resolve(total));
    inflate.on("close", () => resolve(total));
    inflate.end(raw);
  });
}

function nameOf(o: mupdf.PDFObject): string | undefined {
  return o && o.isName() ? o.asName() : undefined;
}

function numberOf(o: mupdf.PDFObject): number {
  return o && o.isNumber() ? Math.max(0, o.asNumber()) : 0;
}

function isFlate(filter: mupdf.PDFObject): boolean {
  if (!filter || filter.isNull()) return false;
  if (filter.isName()) return filter.asName() === "FlateDecode" || filter.asName() === "Fl";
  if (filter.isArray() && filter.length > 0) {
    const first = filter.get(0);
    return first.isName() && (first.asName() === "FlateDecode" || first.asName() === "Fl");
  }
  return false;
}
