/** The raster formats images → PDF accepts. */
export type ImageFormat = "jpeg" | "png" | "gif" | "webp" | "tiff" | "bmp";

export const supportedImageFormats = "PNG, JPEG, GIF, WebP, TIFF or BMP";

/**
 * Tells the format from the file's first bytes; the name and Content-Type of a download are
 * too often wrong to trust. Null for anything else.
 */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  const b = bytes;
  if (b.length < 12) return null;
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a)
    return "png";
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "gif";
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  if (
    (b[0] === 0x49 && b[1] === 0x49 && (b[2] === 0x2a || b[2] === 0x2b) && b[3] === 0) ||
    (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && (b[3] === 0x2a || b[3] === 0x2b))
  ) {
    return "tiff";
  }
  if (b[0] === 0x42 && b[1] === 0x4d) return "bmp";
  return null;
}

/** A short name for a format we do not take, for the 415 message. */
export function describeOtherFormat(bytes: Uint8Array): string {
  const head = ascii(bytes, 0, Math.min(bytes.length, 64)).toLowerCase();
  if (head.includes("%pdf")) return "a PDF";
  if (head.includes("<svg") || head.includes("<?xml")) return "SVG/XML";
  if (head.includes("<html") || head.includes("<!doctype")) return "HTML";
  if (ascii(bytes, 4, 4) === "ftyp") return "HEIF/AVIF";
  if (bytes.length === 0) return "an empty file";
  return "not a supported image";
}

function ascii(b: Uint8Array, start: number, length: number): string {
  let s = "";
  for (let i = start; i < start + length && i < b.length; i++) s += String.fromCharCode(b[i]);
  return s;
}
