import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { BARCODE_TYPES, findBarcodeType, publicTypeName } from "@/lib/engine/barcode/barcode-types";
import { generateBarcode } from "@/lib/engine/barcode/generate-barcode";
import { barcodeFormats, readImageBarcodes } from "@/lib/engine/barcode/read-barcodes";
import { BARCODE_SAMPLES } from "@/tests/helpers/barcode-samples";

/**
 * barcode-generate and barcode-read-from-url at the engine level: every type the generator makes
 * is read back by ZXing where ZXing reads it (the others are checked as valid PNGs of the right
 * shape), and scans that are rotated, faint or noisy still read.
 */

const generated = BARCODE_TYPES.filter((t) => t.bcid);

/** Types that are other names of a symbology, and the TypeName the reader answers for them. */
const READ_AS: Record<string, string> = {
  GTIN8: "EAN8",
  GTIN12: "UPCA",
  GTIN13: "EAN13",
  GTIN14: "ITF14",
  Code39Mod43: "Code39",
  Code39Mod43Extended: "Code39Extended",
  DPMDataMatrix: "DataMatrix",
};

describe("barcode-generate: every type", () => {
  test("the seed's type list is covered: each type is generated or refused by name", () => {
    expect(BARCODE_TYPES).toHaveLength(45);
    expect(generated.length).toBeGreaterThanOrEqual(41);
    for (const t of generated) expect(BARCODE_SAMPLES[t.name], `no sample value for ${t.name}`).toBeDefined();
  });

  test.each(generated.map((t) => t.name))("%s: generated, and read back where ZXing reads it", async (name) => {
    const t = findBarcodeType(name)!;
    const sample = BARCODE_SAMPLES[name];
    const png = await generateBarcode({ type: name, value: sample.value });
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBeGreaterThan(20);
    expect(meta.height).toBeGreaterThan(5);
    if (!t.read) return;
    const [found] = await readImageBarcodes(png, barcodeFormats([name], "types"));
    expect(found.map((f) => f.text)).toEqual([sample.reads ?? sample.value]);
    // The name read back is the type's own name, or the symbology it is another name for.
    expect(publicTypeName(found[0].format, found[0].text)).toBe(READ_AS[name] ?? name);
  });

  test("type names are case-insensitive; unknown and ungeneratable types → 400 naming them", async () => {
    const png = await generateBarcode({ type: "qrcode", value: "x" });
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    await expect(generateBarcode({ type: "QRCodeX", value: "x" })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/unknown barcode type "QRCodeX"/) });
    await expect(generateBarcode({ type: "MICR", value: "x" })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/MICR barcodes cannot be generated/) });
  });

  test("a value the symbology cannot hold → 400 with the rule", async () => {
    await expect(generateBarcode({ type: "EAN13", value: "ABC" })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/value: cannot encode "ABC" as EAN13 \(12 digits/) });
  });

  test("Angle turns the image; NarrowBarWidth scales it", async () => {
    const flat = await sharp(await generateBarcode({ type: "Code128", value: "ROT-1" })).metadata();
    const turned = await sharp(await generateBarcode({ type: "Code128", value: "ROT-1", angle: 90 })).metadata();
    expect([turned.width, turned.height]).toEqual([flat.height, flat.width]);
    const big = await sharp(await generateBarcode({ type: "QRCode", value: "S", scale: 6 })).metadata();
    const small = await sharp(await generateBarcode({ type: "QRCode", value: "S", scale: 3 })).metadata();
    expect(big.width!).toBeGreaterThan(small.width! * 1.8);
  });

  test("decorationImage: a logo in the middle of a QR code, which still reads", async () => {
    const logo = await sharp({ create: { width: 120, height: 120, channels: 3, background: "#d0312d" } }).png().toBuffer();
    const value = "https://example.org/with-logo";
    const plain = await generateBarcode({ type: "QRCode", value });
    const withLogo = await generateBarcode({ type: "QRCode", value, logo });
    const { data, info } = await sharp(withLogo).raw().toBuffer({ resolveWithObject: true });
    const mid = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
    expect([data[mid], data[mid + 1], data[mid + 2]]).toEqual([0xd0, 0x31, 0x2d]); // the logo's red
    expect(withLogo.equals(plain)).toBe(false);
    const [found] = await readImageBarcodes(withLogo, barcodeFormats(["QRCode"], "types"));
    expect(found.map((f) => f.text)).toEqual([value]);
  });
});

/**
 * A page-sized grey "scan" with the barcode pasted in, then turned, faded or blurred; `tilt` looks
 * at it from below like a phone held at an angle (a keystone: the top edge `tilt` narrower than
 * the bottom), `shade` lights it unevenly (darker by up to `shade` grey levels towards one corner).
 */
async function scan(png: Buffer, o: { angle?: number; fg?: number; bg?: number; blur?: number; noise?: boolean; tilt?: number; shade?: number }) {
  const code = await sharp(png).grayscale().raw().toBuffer({ resolveWithObject: true });
  const fg = o.fg ?? 0;
  const bg = o.bg ?? 255;
  const px = Buffer.from(code.data.map((v) => Math.round(fg + ((bg - fg) * v) / 255)));
  let img = sharp(px, { raw: { width: code.info.width, height: code.info.height, channels: 1 } })
    .extend({ top: 150, bottom: 150, left: 150, right: 150, background: { r: bg, g: bg, b: bg } });
  if (o.angle) img = sharp(await img.png().toBuffer()).rotate(o.angle, { background: { r: bg, g: bg, b: bg } });
  if (o.blur) img = sharp(await img.png().toBuffer()).blur(o.blur);
  let out = await img.grayscale().raw().toBuffer({ resolveWithObject: true });
  if (o.tilt || o.shade) {
    const { width: w, height: h } = out.info;
    const d = Buffer.alloc(out.data.length, bg);
    for (let y = 0; y < h; y++) {
      // Row y of the photo shows the page's row at the same height, squeezed about the centre:
      // from `tilt` at the top of the pasted code (150 px in) to none at its bottom.
      const t = Math.min(1, Math.max(0, (y - 150) / (h - 300)));
      const squeeze = 1 - (o.tilt ?? 0) * (1 - t);
      for (let x = 0; x < w; x++) {
        const sx = Math.round(w / 2 + (x - w / 2) / squeeze);
        let v = sx >= 0 && sx < w ? out.data[y * w + sx] : bg;
        if (o.shade) v = Math.max(0, v - Math.round((o.shade * (x + y)) / (w + h)));
        d[y * w + x] = v;
      }
    }
    out = { ...out, data: d };
  }
  if (o.noise) {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const d = Buffer.from(out.data);
    for (let i = 0; i < d.length; i++) d[i] = Math.max(0, Math.min(255, d[i] + Math.round((rnd() - 0.5) * 24)));
    out = { ...out, data: d };
  }
  return sharp(out.data, { raw: { width: out.info.width, height: out.info.height, channels: 1 } }).jpeg({ quality: 70 }).toBuffer();
}

describe("barcode-read-from-url: scanned and photographed codes", () => {
  test.each([
    ["QRCode", { angle: 23 }],
    ["QRCode", { angle: 90, fg: 110, bg: 150, noise: true }],
    ["DataMatrix", { angle: 37, blur: 0.8 }],
    ["Code128", { angle: 90 }],
    ["Code128", { angle: 6, noise: true }],
    ["Code128", { angle: 17 }],
    ["Interleaved2of5", { angle: -24, fg: 70, bg: 190 }],
    ["Codabar", { angle: 102, fg: 110, bg: 170 }],
    ["Code128", { fg: 120, bg: 165, blur: 0.6 }],
    ["EAN13", { angle: 180, fg: 90, bg: 140 }],
    ["PDF417", { angle: 4, fg: 60, bg: 200, noise: true }],
    ["Aztec", { angle: 45, fg: 100, bg: 160 }],
    // Photographed: seen at an angle (keystone), lit unevenly, turned a little.
    ["QRCode", { tilt: 0.15, shade: 90, noise: true }],
    ["QRCode", { angle: 12, tilt: 0.15, fg: 60, bg: 200 }],
    ["DataMatrix", { angle: 8, tilt: 0.2, shade: 60 }],
    ["Code128", { tilt: 0.3, shade: 80 }],
    ["EAN13", { angle: 5, tilt: 0.2, shade: 70, blur: 0.5 }],
  ] as const)("%s %j", async (name, o) => {
    const sample = BARCODE_SAMPLES[name];
    const img = await scan(await generateBarcode({ type: name, value: sample.value }), o);
    const [found] = await readImageBarcodes(img, []);
    expect(found.map((f) => f.text)).toContain(sample.reads ?? sample.value);
  });

  test("an image without a barcode (or one too damaged to decode) → an empty list, not an error", async () => {
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#eeeeee" } }).png().toBuffer();
    expect(await readImageBarcodes(blank, [])).toEqual([[]]);
    const qr = await generateBarcode({ type: "QRCode", value: "cut in half" });
    const meta = await sharp(qr).metadata();
    const half = await sharp(qr).extract({ left: 0, top: 0, width: meta.width!, height: Math.floor(meta.height! / 2) }).png().toBuffer();
    expect(await readImageBarcodes(half, barcodeFormats(["QRCode"], "types"))).toEqual([[]]);
  });

  test("a skewed linear code: its box is mapped back onto the image, around where it was pasted", async () => {
    const png = await generateBarcode({ type: "Code128", value: "SKEWED-1" });
    const meta = await sharp(png).metadata();
    const img = await scan(png, { angle: 20 });
    const full = await sharp(img).metadata();
    const [[b]] = await readImageBarcodes(img, []);
    expect(b.text).toBe("SKEWED-1");
    // The code sits in the middle of the turned page; its box is about as wide as the code.
    const cx = b.box.x + b.box.width / 2;
    const cy = b.box.y + b.box.height / 2;
    expect(Math.abs(cx - full.width! / 2)).toBeLessThan(30);
    expect(Math.abs(cy - full.height! / 2)).toBeLessThan(30);
    expect(b.box.width).toBeGreaterThan(meta.width! * 0.6);
  });

  test("bytes that are no image → 415", async () => {
    await expect(readImageBarcodes(Buffer.from("hello, not an image"), [])).rejects.toMatchObject({ status: 415 });
  });

  test("boxes are in image pixels, around the symbol", async () => {
    const png = await generateBarcode({ type: "QRCode", value: "box" });
    const padded = await sharp(png).extend({ top: 100, left: 200, bottom: 0, right: 0, background: "#ffffff" }).png().toBuffer();
    const [[b]] = await readImageBarcodes(padded, []);
    const meta = await sharp(png).metadata();
    // Inside the pasted code (which has a white margin), and most of its width.
    expect(b.box.x).toBeGreaterThanOrEqual(200);
    expect(b.box.y).toBeGreaterThanOrEqual(100);
    expect(b.box.x + b.box.width).toBeLessThanOrEqual(200 + meta.width!);
    expect(b.box.y + b.box.height).toBeLessThanOrEqual(100 + meta.height!);
    expect(b.box.width).toBeGreaterThan(meta.width! * 0.6);
  });

  test("types: names of the public API, unknown or unreadable → 400 naming the field", () => {
    expect(barcodeFormats(["Code128", "Interleaved2of5", "EAN13"], "types")).toEqual(["Code128", "ITF", "EAN13"]);
    expect(() => barcodeFormats(["PostNet"], "types")).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/^types: unknown barcode type "PostNet"/) }));
  });
});
