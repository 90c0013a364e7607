import zlib from "node:zlib";
import sharp from "sharp";

/**
 * A tiny PNG (a few hundred bytes) whose header declares `width`×`height` pixels: what a
 * 20000×20000 image looks like to any code that reads the header first. Decoding it fails, so an
 * operation that answers 413 quickly proves it checked the header before decoding.
 */
export async function oversizedPng(width = 20_000, height = 20_000): Promise<Buffer> {
  const png = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: "#fff" } }).png().toBuffer());
  // IHDR is the first chunk: length(4) "IHDR"(4) width(4) height(4) ... crc(4) at offset 8.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  const crc = zlib.crc32(png.subarray(12, 29));
  png.writeUInt32BE(crc >>> 0, 29);
  return png;
}
