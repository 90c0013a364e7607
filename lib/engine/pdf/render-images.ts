import "server-only";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { QuireError } from "@/lib/core/errors";
import { imageLimitsFromEnv } from "@/lib/engine/images/probe-image";
import type { Area } from "@/lib/engine/tables/extract-tables";
import { loadPdfPage } from "@/lib/engine/pdf/open-pdf";

/**
 * PDF pages as images: MuPDF renders each page to RGB pixels, sharp encodes them (PNG, JPEG,
 * WebP, TIFF). One page is in memory at a time; a multi-page TIFF is assembled from the
 * encoded single-page TIFFs (joinTiffPages), so memory stays bounded by the largest page.
 */

export type ImageFormat = "png" | "jpg" | "webp" | "tiff";
export type TiffCompression = "LZW" | "Deflate" | "JPEG" | "CCITT" | "None";

export interface EncodeOptions {
  /** JPEG/WebP quality 1–100 (defaults 85 / 80). */
  quality?: number;
  /** TIFF compression (default LZW; CCITT = bilevel Group 4 fax, for black-and-white scans). */
  tiffCompression?: TiffCompression;
  dpi: number;
}

export interface RawPage {
  data: Buffer;
  width: number;
  height: number;
}

/** sharp's own decode cap for the raw page (the render check below comes first). */
const MAX_PAGE_PIXELS = 200_000_000;

/**
 * Renders one page (0-based) at `dpi` to packed RGB, white background, annotations drawn;
 * cropped to `area` (pt, top-left origin of the page as displayed) when given.
 */
export function renderPageRgb(doc: mupdf.Document, index: number, dpi: number, area?: Area): RawPage {
  const page = loadPdfPage(doc, index);
  try {
    const scale = dpi / 72;
    const [bx0, by0, bx1, by1] = page.getBounds();
    const pw = Math.ceil((bx1 - bx0) * scale);
    const ph = Math.ceil((by1 - by0) * scale);
    // The one pixel limit of every image Quire decodes or renders (IMAGE_MAX_PIXELS, 413).
    const limit = imageLimitsFromEnv().maxPixels;
    if (pw * ph > limit) {
      throw new QuireError(
        413,
        `page ${index} at ${dpi} dpi would be ${(pw * ph).toLocaleString("en-US")} pixels, more than the limit of ${limit.toLocaleString("en-US")} (IMAGE_MAX_PIXELS); use a lower resolution.`,
      );
    }
    const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
    try {
      const w = pix.getWidth();
      const h = pix.getHeight();
      const stride = pix.getStride();
      const src = pix.getPixels();
      let data: Buffer;
      if (stride === w * 3) data = Buffer.from(src.buffer.slice(src.byteOffset, src.byteOffset + w * h * 3));
      else {
        data = Buffer.allocUnsafe(w * h * 3);
        for (let y = 0; y < h; y++) data.set(src.subarray(y * stride, y * stride + w * 3), y * w * 3);
      }
      if (!area) return { data, width: w, height: h };
      return cropRaw({ data, width: w, height: h }, area, scale, index);
    } finally {
      pix.destroy();
    }
  } finally {
    page.destroy();
  }
}

function cropRaw(raw: RawPage, area: Area, scale: number, index: number): RawPage {
  const x0 = Math.max(0, Math.floor(area.x * scale));
  const y0 = Math.max(0, Math.floor(area.y * scale));
  const x1 = Math.min(raw.width, Math.ceil((area.x + area.width) * scale));
  const y1 = Math.min(raw.height, Math.ceil((area.y + area.height) * scale));
  if (x1 <= x0 || y1 <= y0) {
    throw new QuireError(454, `rect: the area ${area.x} ${area.y} ${area.width} ${area.height} lies outside page ${index}.`);
  }
  const w = x1 - x0;
  const h = y1 - y0;
  const out = Buffer.allocUnsafe(w * h * 3);
  for (let y = 0; y < h; y++) raw.data.copy(out, y * w * 3, ((y0 + y) * raw.width + x0) * 3, ((y0 + y) * raw.width + x1) * 3);
  return { data: out, width: w, height: h };
}

/** Encodes packed RGB pixels with sharp, the resolution recorded in the file. */
export async function encodeRaw(raw: RawPage, format: ImageFormat, opts: EncodeOptions): Promise<Buffer> {
  const base = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 3 }, limitInputPixels: MAX_PAGE_PIXELS });
  // TIFF takes its resolution as xres/yres (withMetadata would also break 1-bit output).
  const img = format === "tiff" ? base : base.withMetadata({ density: opts.dpi });
  switch (format) {
    case "png":
      return img.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
    case "jpg":
      return img.jpeg({ quality: opts.quality ?? 85, mozjpeg: false }).toBuffer();
    case "webp":
      return img.webp({ quality: opts.quality ?? 80 }).toBuffer();
    case "tiff": {
      const c = opts.tiffCompression ?? "LZW";
      const res = opts.dpi / 25.4; // sharp takes pixels per millimetre
      if (c === "CCITT") return img.toColourspace("b-w").tiff({ compression: "ccittfax4", bitdepth: 1, xres: res, yres: res }).toBuffer();
      const compression = ({ LZW: "lzw", Deflate: "deflate", JPEG: "jpeg", None: "none" } as const)[c];
      return img.tiff({ compression, predictor: c === "LZW" || c === "Deflate" ? "horizontal" : "none", xres: res, yres: res }).toBuffer();
    }
  }
}

const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };
const OFFSET_TAGS = new Set([273, 324, 288]); // StripOffsets, TileOffsets, FreeOffsets

/**
 * Joins single-page classic TIFF files into one multi-page TIFF: each file's bytes are appended
 * (word-aligned) after the first, every offset inside them (out-of-line values, strip and tile
 * offsets, IFD links) moved by where they land, and the last IFD of each page linked to the
 * first IFD of the next (TIFF 6.0 §2, "Image File Directory").
 */
export function joinTiffPages(files: Buffer[]): Buffer {
  if (files.length === 0) throw new Error("joinTiffPages: no pages");
  if (files.length === 1) return files[0];
  const parts: Buffer[] = [];
  let total = 0;
  let prevLast: { part: Buffer; at: number } | null = null;
  for (const f of files) {
    const le = f.toString("latin1", 0, 2) === "II";
    if (!le && f.toString("latin1", 0, 2) !== "MM") throw new Error("joinTiffPages: not a TIFF");
    const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
    const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
    const w32 = (b: Buffer, v: number, o: number) => (le ? b.writeUInt32LE(v, o) : b.writeUInt32BE(v, o));
    const w16 = (b: Buffer, v: number, o: number) => (le ? b.writeUInt16LE(v, o) : b.writeUInt16BE(v, o));
    if (parts.length > 0 && le !== (parts[0].toString("latin1", 0, 2) === "II")) throw new Error("joinTiffPages: mixed byte orders");
    const pad = total % 4 === 0 ? 0 : 4 - (total % 4);
    if (pad) {
      parts.push(Buffer.alloc(pad));
      total += pad;
    }
    const delta = total;
    const b = Buffer.from(f); // patched copy
    let ifd = u32(f, 4);
    const first = ifd + delta;
    let lastNextAt = -1;
    while (ifd !== 0) {
      const n = u16(f, ifd);
      for (let e = 0; e < n; e++) {
        const at = ifd + 2 + e * 12;
        const tag = u16(f, at);
        const type = u16(f, at + 2);
        const count = u32(f, at + 4);
        const size = (TYPE_SIZE[type] ?? 1) * count;
        const inline = size <= 4;
        if (!inline) w32(b, u32(f, at + 8) + delta, at + 8);
        if (OFFSET_TAGS.has(tag)) {
          const base = inline ? at + 8 : u32(f, at + 8);
          for (let k = 0; k < count; k++) {
            if (type === 3) w16(b, u16(f, base + k * 2) + delta, base + k * 2);
            else w32(b, u32(f, base + k * 4) + delta, base + k * 4);
          }
        }
      }
      lastNextAt = ifd + 2 + n * 12;
      const next = u32(f, lastNextAt);
      if (next !== 0) w32(b, next + delta, lastNextAt);
      ifd = next;
    }
    if (prevLast) {
      // All parts share one byte order (checked above).
      w32(prevLast.part, first, prevLast.at);
    }
    parts.push(b);
    total += b.length;
    prevLast = { part: b, at: lastNextAt };
  }
  return Buffer.concat(parts, total);
}
