import "server-only";
import { envNumber } from "@/lib/core/config";
import sharp, { type Metadata } from "sharp";
import { QuireError } from "@/lib/core/errors";
import { readBmpHeader } from "./bmp-header";
import {
  describeOtherFormat,
  sniffImageFormat,
  supportedImageFormats,
  type ImageFormat,
} from "./sniff-image";

/**
 * Reads what images → PDF needs from an image's headers only (format, pages, pixel size,
 * resolution, EXIF orientation) and enforces the pixel limit before anything is decoded, so a
 * 20000×20000 image costs a few kilobytes of memory to refuse.
 */
export interface ImageLimits {
  /** Pixels per image (per page for multi-page TIFF). */
  maxPixels: number;
  /** Pages in the output PDF. */
  maxPages: number;
}

/** IMAGE_MAX_PIXELS (default 100 million, e.g. 10000×10000) and IMAGE_MAX_PAGES (default 1000). */
export function imageLimitsFromEnv(): ImageLimits {
  return { maxPixels: envNumber("IMAGE_MAX_PIXELS", 100_000_000), maxPages: envNumber("IMAGE_MAX_PAGES", 1000) };
}

/**
 * The one pixel check every operation runs before decoding an image (images → PDF, PDF → CSV /
 * HTML / text of an image, the classifier, edit/add's stamps…): 413 with the same message
 * everywhere, naming the setting.
 */
export function assertImagePixels(width: number, height: number, label: string, maxPixels = imageLimitsFromEnv().maxPixels): void {
  if (width * height > maxPixels) {
    throw new QuireError(
      413,
      `${label}: ${width}×${height} pixels is more than the limit of ${maxPixels.toLocaleString("en-US")} pixels per image (IMAGE_MAX_PIXELS); scale it down.`,
    );
  }
}

export interface ImagePage {
  /** Page (frame) index inside the file; 0 except for multi-page TIFF. */
  page: number;
  width: number;
  height: number;
  /** Resolution in pixels per inch; 72 when the file does not say. */
  dpiX: number;
  dpiY: number;
  /** EXIF/TIFF orientation 1–8 (1 = as stored). */
  orientation: number;
}

export interface ImageProbe {
  format: ImageFormat;
  pages: ImagePage[];
}

/** Resolutions outside this range are treated as unknown (some writers store 1 or garbage). */
function sane(dpi: number | undefined): number | undefined {
  return dpi !== undefined && Number.isFinite(dpi) && dpi >= 1 && dpi <= 100_000 ? dpi : undefined;
}

/** Probes image bytes; `label` names the image in messages ("image 2 (scan.tif)"). */
export async function probeImage(bytes: Uint8Array, label: string, limits: ImageLimits): Promise<ImageProbe> {
  const format = sniffImageFormat(bytes);
  if (!format) {
    throw new QuireError(415, `${label}: ${describeOtherFormat(bytes)}; send ${supportedImageFormats} images.`);
  }
  const checkSize = (width: number, height: number, page?: number) => {
    const where = page !== undefined && page > 0 ? ` (page ${page + 1})` : "";
    assertImagePixels(width, height, `${label}${where}`, limits.maxPixels);
  };


  if (format === "bmp") {
    const h = readBmpHeader(bytes);
    if (!h) throw new QuireError(442, `${label}: the BMP file is damaged (unreadable header).`);
    checkSize(h.width, h.height);
    const dpiX = sane(h.dpiX) ?? 72;
    return {
      format,
      pages: [
        { page: 0, width: h.width, height: h.height, dpiX, dpiY: sane(h.dpiY) ?? dpiX, orientation: 1 },
      ],
    };
  }

  // Header-only read: sharp's own limit is off here so that our message (with the limit) wins.
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (e) {
    throw new QuireError(442, `${label}: the ${format.toUpperCase()} file is damaged (${firstLine(e)}).`);
  }
  const pageCount = format === "tiff" ? Math.max(1, meta.pages ?? 1) : 1; // GIF/WebP: first frame only
  if (pageCount > limits.maxPages) {
    throw new QuireError(
      413,
      `${label}: ${pageCount} pages is more than the limit of ${limits.maxPages} pages.`,
    );
  }
  const pages: ImagePage[] = [];
  for (let page = 0; page < pageCount; page++) {
    let m = meta;
    if (page > 0) {
      try {
        m = await sharp(bytes, { limitInputPixels: false, page }).metadata();
      } catch (e) {
        throw new QuireError(442, `${label}: page ${page + 1} of the TIFF file is damaged (${firstLine(e)}).`);
      }
    }
    const width = m.width ?? 0;
    const height = format === "tiff" ? (m.height ?? 0) : (m.pageHeight ?? m.height ?? 0);
    if (!width || !height)
      throw new QuireError(442, `${label}: the ${format.toUpperCase()} file has no pixel size.`);
    checkSize(width, height, page);
    const dpi = sane(m.density) ?? 72;
    pages.push({
      page,
      width,
      height,
      dpiX: dpi,
      dpiY: dpi,
      orientation: m.orientation && m.orientation >= 1 && m.orientation <= 8 ? m.orientation : 1,
    });
  }
  return { format, pages };
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e)
    .split("\n")[0]
    .slice(0, 160);
}
