/**
 * Reads a BMP's headers (BITMAPFILEHEADER + the DIB header of any version) without touching the
 * pixels, so its size can be checked before anything decodes it. Sharp has no BMP loader; MuPDF
 * decodes the pixels once the size is known to be acceptable.
 */
export interface BmpHeader {
  width: number;
  height: number;
  bitsPerPixel: number;
  /** From the pixels-per-metre fields; undefined when absent or zero. */
  dpiX?: number;
  dpiY?: number;
}

/** Parses the header or returns null when the bytes are not a readable BMP. */
export function readBmpHeader(bytes: Uint8Array): BmpHeader | null {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dibSize = view.getUint32(14, true);
  if (dibSize === 12) {
    // BITMAPCOREHEADER (OS/2 1.x): 16-bit sizes, no resolution.
    return {
      width: view.getUint16(18, true),
      height: view.getUint16(20, true),
      bitsPerPixel: view.getUint16(24, true),
    };
  }
  if (dibSize < 16 || bytes.length < 14 + Math.min(dibSize, 40)) return null;
  const width = view.getInt32(18, true);
  const height = Math.abs(view.getInt32(22, true)); // negative = top-down rows
  const bitsPerPixel = view.getUint16(28, true);
  let dpiX: number | undefined;
  let dpiY: number | undefined;
  if (dibSize >= 40) {
    const ppmX = view.getInt32(38, true);
    const ppmY = view.getInt32(42, true);
    // Pixels per metre are whole numbers, so 72 dpi is stored as 2835 (72.009): round to 0.1 dpi.
    if (ppmX > 0) dpiX = Math.round(ppmX * 0.254) / 10;
    if (ppmY > 0) dpiY = Math.round(ppmY * 0.254) / 10;
  }
  if (width <= 0 || height <= 0) return null;
  return { width, height, bitsPerPixel, dpiX, dpiY };
}
