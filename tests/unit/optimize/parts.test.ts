import { describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { optimizePdf } from "@/lib/engine/optimize/optimize-pdf";
import { defaultOptimizeOptions } from "@/lib/engine/optimize/options";
import { findImagePlacements } from "@/lib/engine/optimize/placements";
import { describeOptimize } from "@/lib/engine/optimize/report";
import { ssim } from "@/lib/engine/optimize/ssim";
import { addImage, listImages, photoJpeg, photoPixels } from "@/tests/helpers/optimize-fixtures";

describe("ssim", () => {
  it("is 1 for identical images and drops with blur and noise", async () => {
    const w = 200;
    const h = 150;
    const gray = await sharp(photoPixels(w, h, 5), { raw: { width: w, height: h, channels: 3 } })
      .toColourspace("b-w")
      .raw()
      .toBuffer();
    const a = { data: gray, width: w, height: h };
    expect(ssim(a, a)).toBeCloseTo(1, 10);
    const blurred = await sharp(gray, { raw: { width: w, height: h, channels: 1 } })
      .blur(2)
      .toColourspace("b-w")
      .raw()
      .toBuffer();
    const noisy = Buffer.from(gray.map((v, i) => Math.max(0, Math.min(255, v + ((i * 7919) % 61) - 30))));
    const sBlur = ssim(a, { data: blurred, width: w, height: h });
    const sNoise = ssim(a, { data: noisy, width: w, height: h });
    expect(sBlur).toBeLessThan(0.99);
    expect(sNoise).toBeLessThan(0.9);
    expect(() => ssim(a, { data: gray, width: w - 1, height: h })).toThrow(/sizes differ/);
  });
});

describe("placements", () => {
  it("measures images inside annotation appearance streams by the annotation's Rect", async () => {
    const doc = new mupdf.PDFDocument();
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, {}, ""));
    const img = addImage(doc, { type: "jpeg", data: await photoJpeg(600, 450, 1) });
    const res = doc.newDictionary();
    res.put("XObject", doc.newDictionary()).put("Im", img);
    // The appearance draws the image on a 100×75 box; the Rect is 2 in × 1.5 in → 300 ppi.
    const ap = doc.addStream("q 100 0 0 75 0 0 cm /Im Do Q", {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, 100, 75],
    });
    ap.put("Resources", res);
    const annot = doc.addObject(doc.newDictionary());
    annot.put("Type", doc.newName("Annot"));
    annot.put("Subtype", doc.newName("Stamp"));
    annot.put("Rect", [100, 100, 244, 208]);
    const n = doc.newDictionary();
    n.put("N", ap);
    annot.put("AP", n);
    const annots = doc.newArray();
    annots.push(annot);
    doc.findPage(0).put("Annots", annots);
    const p = findImagePlacements(doc).get(img.asIndirect())!;
    expect(p.ppiX).toBeCloseTo(300, 1);
    expect(p.ppiY).toBeCloseTo(300, 1);
    expect([...p.pages]).toEqual([0]);
  });

  it("skips inline images and strings that look like operators", () => {
    const doc = new mupdf.PDFDocument();
    const img = addImage(doc, {
      type: "raw",
      data: new Uint8Array(64 * 64),
      width: 64,
      height: 64,
      colorSpace: "DeviceGray",
      bpc: 8,
    });
    const res = doc.addObject(doc.newDictionary());
    res.put("XObject", doc.newDictionary()).put("Im", img);
    const content = [
      "BT (q 9 0 0 9 0 0 cm /Im Do Q) Tj ET",
      "BI /W 2 /H 1 /BPC 8 /CS /G ID \x00Q EI",
      "q 64 0 0 64 0 0 cm /Im Do Q",
    ].join("\n");
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, res, content));
    const p = findImagePlacements(doc).get(img.asIndirect())!;
    expect(p.ppiX).toBeCloseTo(72, 5);
  });
});

describe("images left alone", () => {
  it("colour-key masked and 16-bit images: the first untouched, the second re-encoded at 8 bits", async () => {
    const doc = new mupdf.PDFDocument();
    const w = 400;
    const h = 300;
    const rgb = photoPixels(w, h, 8);
    const keyed = addImage(doc, {
      type: "raw",
      data: rgb,
      width: w,
      height: h,
      colorSpace: "DeviceRGB",
      bpc: 8,
    });
    keyed.put("Mask", [0, 10, 0, 10, 0, 10]);
    const deep = Buffer.alloc(w * h * 2);
    for (let i = 0; i < w * h; i++) deep.writeUInt16BE(rgb[i * 3] * 257, i * 2);
    const sixteen = addImage(doc, {
      type: "raw",
      data: deep,
      width: w,
      height: h,
      colorSpace: "DeviceGray",
      bpc: 8,
    });
    sixteen.put("BitsPerComponent", 16);
    const res = doc.addObject(doc.newDictionary());
    const xo = res.put("XObject", doc.newDictionary());
    xo.put("K", keyed);
    xo.put("S", sixteen);
    doc.insertPage(
      -1,
      doc.addPage([0, 0, 612, 792], 0, res, "q 400 0 0 300 0 0 cm /K Do Q q 100 0 0 75 0 400 cm /S Do Q"),
    );
    const input = Buffer.from(doc.saveToBuffer("compress").asUint8Array());
    const { bytes, report } = await optimizePdf(input, defaultOptimizeOptions());
    const imgs = listImages(bytes);
    expect(imgs.find((i) => i.colorSpace === "/DeviceRGB")).toMatchObject({
      filter: "/FlateDecode",
      width: 400,
    });
    expect(imgs.find((i) => i.colorSpace === "/DeviceGray")).toMatchObject({ filter: "/DCTDecode", bpc: 8 });
    expect(describeOptimize(report)).toMatch(
      /bytes \([\d.]+% smaller\); 1 image\(s\) recompressed, 1 downsampled\.$/,
    );
  });
});
