import "server-only";
import * as mupdf from "mupdf";
import sharp, { type Metadata } from "sharp";
import { QuireError } from "@/lib/core/errors";
import type { ImageLoader } from "./types";
import { assertImagePixels, imageLimitsFromEnv } from "@/lib/engine/images/probe-image";

const MAX_STAMP_BYTES = 50 * 1024 * 1024;

export interface StampImage {
  image: mupdf.Image;
  /** Natural size in points: pixels at the resolution the file declares (72 dpi if none). */
  naturalWidth: number;
  naturalHeight: number;
}

/** Bytes of a `data:` URI (base64 or percent-encoded). */
function decodeDataUri(uri: string, field: string): Buffer {
  const m = /^data:([^,]*?)(;base64)?,(.*)$/is.exec(uri.trim());
  if (!m) throw new QuireError(454, `${field}: not a valid data: URI; use data:image/png;base64,....`);
  try {
    return m[2]
      ? Buffer.from(m[3].replace(/\s+/g, ""), "base64")
      : Buffer.from(decodeURIComponent(m[3]), "latin1");
  } catch {
    throw new QuireError(454, `${field}: the data: URI could not be decoded.`);
  }
}

/**
 * Fetches (through the egress-guarded loader) or decodes an image and prepares it for MuPDF.
 * JPEG and PNG go in as they are (a JPEG is embedded without recompression); other formats
 * sharp reads (WebP, GIF, TIFF, AVIF, SVG...) are converted to PNG. EXIF rotation is applied.
 */
export async function loadStampImage(url: string, field: string, load: ImageLoader): Promise<StampImage> {
  let bytes: Uint8Array;
  const u = url.trim();
  if (/^data:/i.test(u)) bytes = decodeDataUri(u, field);
  else if (/^https?:\/\//i.test(u)) {
    try {
      bytes = (await load(u, field)).bytes;
    } catch (e) {
      if (e && typeof e === "object" && "status" in e) throw e; // the egress guard's own QuireError
      throw new QuireError(
        400,
        `${field}: could not download the image: ${e instanceof Error ? e.message : String(e)}.`,
      );
    }
  } else
    throw new QuireError(454, `${field}: use an https URL or a base64 data: URI (data:image/png;base64,...).`);
  if (bytes.byteLength === 0) throw new QuireError(400, `${field}: the image is empty.`);
  if (bytes.byteLength > MAX_STAMP_BYTES)
    throw new QuireError(413, `${field}: the image is larger than ${MAX_STAMP_BYTES / 1024 / 1024} MB.`);

  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false, density: 144 }).metadata();
  } catch {
    throw new QuireError(
      415,
      `${field}: not an image Quire can read (PNG, JPEG, GIF, WebP, TIFF, AVIF or SVG).`,
    );
  }
  if (!meta.width || !meta.height) throw new QuireError(415, `${field}: not an image Quire can read.`);
  const maxPixels = imageLimitsFromEnv().maxPixels;
  assertImagePixels(meta.width, meta.height, field, maxPixels);

  let data = Buffer.from(bytes);
  const rotated = (meta.orientation ?? 1) > 1;
  if (meta.format === "jpeg" && rotated) {
    data = await sharp(data).rotate().jpeg({ quality: 92 }).toBuffer();
  } else if (meta.format !== "jpeg" && meta.format !== "png") {
    data = await sharp(data, { limitInputPixels: maxPixels, density: 144 }).rotate().png().toBuffer();
  } else if (rotated) data = await sharp(data).rotate().png().toBuffer();

  let image: mupdf.Image;
  try {
    image = new mupdf.Image(data);
  } catch {
    throw new QuireError(415, `${field}: the image could not be decoded.`);
  }
  const w = image.getWidth();
  const h = image.getHeight();
  const declared = meta.format === "svg" ? 144 : meta.density;
  const dpi = declared && declared >= 50 && declared <= 2400 ? declared : 72;
  return { image, naturalWidth: (w * 72) / dpi, naturalHeight: (h * 72) / dpi };
}

/** The placed size: both given → as given; one given → the other keeps the aspect ratio; none → natural size. */
export function placedSize(
  img: StampImage,
  width?: number,
  height?: number,
): { width: number; height: number } {
  const ratio = img.naturalHeight / img.naturalWidth;
  if (width && height) return { width, height };
  if (width) return { width, height: width * ratio };
  if (height) return { width: height / ratio, height };
  return { width: img.naturalWidth, height: img.naturalHeight };
}
