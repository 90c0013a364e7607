/** The image file handed to the native Tesseract: an 8-bit gray BMP, rows bottom-up and padded. */
import { describe, expect, test } from "vitest";
import { toTesseractImage, type Raster } from "@/lib/engine/ocr/preprocess";

describe("toTesseractImage", () => {
  test("a 5×2 gray raster: BMP header, gray palette, rows bottom-up padded to 8 bytes, dpi in pixels per metre", () => {
    const r: Raster = { data: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), width: 5, height: 2, channels: 1, dpi: 300 };
    const b = toTesseractImage(r);
    expect(b.subarray(0, 2).toString("latin1")).toBe("BM");
    const offset = b.readUInt32LE(10);
    expect(offset).toBe(14 + 40 + 1024);
    expect(b.readUInt32LE(2)).toBe(b.length);
    expect([b.readInt32LE(18), b.readInt32LE(22), b.readUInt16LE(28)]).toEqual([5, 2, 8]);
    expect(b.readInt32LE(38)).toBe(11811); // 300 dpi
    expect([...b.subarray(54 + 200 * 4, 54 + 200 * 4 + 4)]).toEqual([200, 200, 200, 0]);
    expect(b.length).toBe(offset + 8 * 2);
    // The last row first.
    expect([...b.subarray(offset, offset + 8)]).toEqual([6, 7, 8, 9, 10, 0, 0, 0]);
    expect([...b.subarray(offset + 8, offset + 16)]).toEqual([1, 2, 3, 4, 5, 0, 0, 0]);
  });

  test("colour stays PNM", () => {
    const r: Raster = { data: new Uint8Array(12), width: 2, height: 2, channels: 3, dpi: 72 };
    expect(toTesseractImage(r).subarray(0, 2).toString("latin1")).toBe("P6");
  });
});
