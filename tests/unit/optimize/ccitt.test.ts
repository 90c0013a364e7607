import { describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import { encodeCcittG3, encodeCcittG4 } from "@/lib/engine/optimize/ccitt";
import { rng } from "@/tests/helpers/optimize-fixtures";

/** Decodes CCITT data with MuPDF's CCITTFaxDecode filter (the reader's point of view). */
function decodeWithMupdf(data: Uint8Array, width: number, height: number, k: number): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const parms = doc.newDictionary();
    parms.put("K", k);
    parms.put("Columns", width);
    parms.put("Rows", height);
    const obj = doc.addRawStream(data, { Filter: "CCITTFaxDecode" });
    obj.put("DecodeParms", parms);
    const buf = obj.readStream();
    const out = buf.asUint8Array().slice();
    buf.destroy();
    return out;
  } finally {
    doc.destroy();
  }
}

type Pattern = (x: number, y: number, rand: () => number) => boolean; // true = black

/** Packed rows, 0 = black; the padding bits at the end of each row are white, as decoders write them. */
function makeBits(width: number, height: number, black: Pattern, seed = 7): Uint8Array {
  const rand = rng(seed);
  const stride = (width + 7) >> 3;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < stride * 8; x++)
      if (x >= width || !black(x, y, rand)) out[y * stride + (x >> 3)] |= 0x80 >> (x & 7);
  }
  return out;
}

const patterns: [string, number, number, Pattern][] = [
  ["all white", 100, 20, () => false],
  ["all black", 100, 20, () => true],
  ["first pixel black", 33, 5, (x) => x === 0],
  ["last pixel black", 33, 5, (x) => x === 32],
  ["vertical stripes", 64, 16, (x) => x % 4 < 2],
  ["checkerboard", 57, 23, (x, y) => (x + y) % 2 === 0],
  ["diagonal", 120, 120, (x, y) => Math.abs(x - y) < 3],
  ["text-like blobs", 300, 80, (x, y) => Math.sin(x / 7) * Math.cos(y / 5) > 0.6],
  ["random noise", 203, 41, (_x, _y, r) => r() < 0.5],
  ["sparse noise", 511, 30, (_x, _y, r) => r() < 0.02],
  ["runs longer than 2560", 6000, 3, (x) => x > 2700 && x < 5900],
  ["width 1", 1, 10, (_x, y) => y % 2 === 0],
];

describe("CCITT encoders round-trip through MuPDF's decoder", () => {
  for (const [name, w, h, p] of patterns) {
    it(`Group 4: ${name}`, () => {
      const bits = makeBits(w, h, p);
      expect(Buffer.from(decodeWithMupdf(encodeCcittG4(bits, w, h), w, h, -1))).toEqual(Buffer.from(bits));
    });
    it(`Group 3 (1-D): ${name}`, () => {
      const bits = makeBits(w, h, p);
      expect(Buffer.from(decodeWithMupdf(encodeCcittG3(bits, w, h), w, h, 0))).toEqual(Buffer.from(bits));
    });
  }

  it("Group 4 beats raw bits by far on text-like content", () => {
    const w = 1000;
    const h = 200;
    const bits = makeBits(w, h, (x, y) => y % 20 < 8 && x % 40 < 25);
    expect(encodeCcittG4(bits, w, h).length).toBeLessThan(bits.length / 10);
  });
});
