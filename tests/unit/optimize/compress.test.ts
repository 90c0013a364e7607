import { beforeAll, describe, expect, it } from "vitest";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { optimizePdf } from "@/lib/engine/optimize/optimize-pdf";
import { defaultOptimizeOptions, type OptimizeOptions } from "@/lib/engine/optimize/options";
import { ssim } from "@/lib/engine/optimize/ssim";
import { encryptPdf, makePdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import {
  addImage,
  grayToBits,
  listImages,
  makeImagePdf,
  photoJpeg,
  photoPixels,
  renderGray,
  scanPixels,
} from "@/tests/helpers/optimize-fixtures";

let photo: Buffer; // 1200×900 JPEG q92
let scan: { data: Buffer; width: number; height: number }; // 300 dpi gray Letter page

beforeAll(async () => {
  photo = await photoJpeg(1200, 900, 3);
  scan = await scanPixels(300, 5);
});

function options(patch: (o: OptimizeOptions) => void = () => {}): OptimizeOptions {
  const o = defaultOptimizeOptions();
  patch(o);
  return o;
}

/** Mean SSIM of every page rendered at 100 dpi. */
function pagesSsim(a: Uint8Array, b: Uint8Array): number {
  const n = new mupdf.PDFDocument(Buffer.from(a)).countPages();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += ssim(renderGray(a, i), renderGray(b, i));
  return sum / n;
}

describe("optimizePdf: downsampling by placed resolution", () => {
  it("reduces a colour photo drawn at 300 ppi to 150 ppi JPEG, keeps the page looking the same", async () => {
    // 1200 px across 4 in = 300 ppi ≥ 225 threshold → 150 ppi = 600 px.
    const input = makeImagePdf([
      {
        images: [{ image: { type: "jpeg", data: photo }, x: 72, y: 72, width: 288, height: 216 }],
        text: ["Caption text"],
      },
    ]);
    const { bytes, report } = await optimizePdf(input, options());
    const [img] = listImages(bytes);
    expect(img).toMatchObject({ filter: "/DCTDecode", width: 600, height: 450 });
    expect(report).toMatchObject({
      pageCount: 1,
      keptOriginal: false,
      inputSize: input.length,
      outputSize: bytes.length,
    });
    expect(report.images).toMatchObject({ found: 1, rewritten: 1, downsampled: 1 });
    expect(bytes.length).toBeLessThan(input.length * 0.5);
    expect(pagesSsim(input, bytes)).toBeGreaterThan(0.95);
    expect(pageTexts(bytes)[0]).toContain("Caption text");
  });

  it("does not downsample below the threshold (200 ppi < 225) but still recompresses", async () => {
    // 1200 px across 6 in = 200 ppi.
    const input = makeImagePdf([
      { images: [{ image: { type: "jpeg", data: photo }, x: 36, y: 36, width: 432, height: 324 }] },
    ]);
    const { bytes, report } = await optimizePdf(input, options());
    const [img] = listImages(bytes);
    expect(img).toMatchObject({ filter: "/DCTDecode", width: 1200, height: 900 });
    expect(report.images.downsampled).toBe(0);
    expect(bytes.length).toBeLessThan(input.length);
  });

  it("downsamples an image exactly at the threshold ('at or above')", async () => {
    // 900 px across 4 in = 225 ppi → 150 ppi = 600 px.
    const small = await sharp(photo).resize(900, 675).jpeg({ quality: 95 }).toBuffer();
    const input = makeImagePdf([
      { images: [{ image: { type: "jpeg", data: small }, x: 36, y: 36, width: 288, height: 216 }] },
    ]);
    const { bytes } = await optimizePdf(input, options());
    expect(listImages(bytes)[0]).toMatchObject({ width: 600, height: 450 });
  });

  it("uses the largest placement of an image drawn twice", async () => {
    const doc = new mupdf.PDFDocument();
    const ref = addImage(doc, { type: "jpeg", data: photo });
    const res = doc.addObject(doc.newDictionary());
    res.put("XObject", doc.newDictionary()).put("Im0", ref);
    // Thumbnail 1 in wide (1200 ppi) and 6 in wide (200 ppi): 200 < 225, nothing to reduce.
    doc.insertPage(
      -1,
      doc.addPage(
        [0, 0, 612, 792],
        0,
        res,
        "q 72 0 0 54 36 700 cm /Im0 Do Q q 432 0 0 324 36 36 cm /Im0 Do Q",
      ),
    );
    const input = Buffer.from(doc.saveToBuffer("compress").asUint8Array());
    const { bytes } = await optimizePdf(input, options());
    expect(listImages(bytes)[0]).toMatchObject({ width: 1200, height: 900 });
  });

  it("follows form XObjects and their /Matrix to the placed size", async () => {
    const doc = new mupdf.PDFDocument();
    const ref = addImage(doc, { type: "jpeg", data: photo });
    const formRes = doc.newDictionary();
    formRes.put("XObject", doc.newDictionary()).put("Im0", ref);
    // The form draws the image on its unit square scaled by its /Matrix (2 in × 1.5 in) → 600 ppi.
    const form = doc.addStream("/Im0 Do", {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, 1, 1],
      Matrix: [144, 0, 0, 108, 0, 0],
    });
    form.put("Resources", formRes);
    const res = doc.addObject(doc.newDictionary());
    res.put("XObject", doc.newDictionary()).put("Fm0", form);
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, res, "q 1 0 0 1 100 100 cm /Fm0 Do Q"));
    const input = Buffer.from(doc.saveToBuffer("compress").asUint8Array());
    const { bytes } = await optimizePdf(input, options());
    expect(listImages(bytes)[0]).toMatchObject({ width: 300, height: 225 });
  });

  it("measures rotated placements along the image's own axes", async () => {
    const doc = new mupdf.PDFDocument();
    const ref = addImage(doc, { type: "jpeg", data: photo });
    const res = doc.addObject(doc.newDictionary());
    res.put("XObject", doc.newDictionary()).put("Im0", ref);
    // Rotated 90°: the image's width (1200 px) runs along the page's y axis over 4 in → 300 ppi.
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, res, "q 0 288 -216 0 300 100 cm /Im0 Do Q"));
    const input = Buffer.from(doc.saveToBuffer("compress").asUint8Array());
    const { bytes } = await optimizePdf(input, options());
    expect(listImages(bytes)[0]).toMatchObject({ width: 600, height: 450 });
  });
});

describe("optimizePdf: image classes and formats", () => {
  it("grayscale scan → 150 ppi gray JPEG; 1-bit scan → CCITT G4 at full resolution", async () => {
    const bits = grayToBits(scan.data, scan.width, scan.height);
    const input = makeImagePdf([
      {
        images: [
          {
            image: { type: "raw", ...scan, colorSpace: "DeviceGray", bpc: 8 },
            x: 0,
            y: 0,
            width: 612,
            height: 792,
          },
        ],
      },
      {
        images: [
          {
            image: {
              type: "raw",
              data: bits,
              width: scan.width,
              height: scan.height,
              colorSpace: "DeviceGray",
              bpc: 1,
            },
            x: 0,
            y: 0,
            width: 612,
            height: 792,
          },
        ],
      },
    ]);
    const { bytes } = await optimizePdf(input, options());
    const imgs = listImages(bytes);
    expect(imgs[0]).toMatchObject({
      filter: "/DCTDecode",
      colorSpace: "/DeviceGray",
      width: 1275,
      height: 1650,
      bpc: 8,
    });
    expect(imgs[1]).toMatchObject({ filter: "/CCITTFaxDecode", width: 2550, height: 3300, bpc: 1 });
    expect(imgs[1].decodeParms).toContain("/K -1");
    expect(pagesSsim(input, bytes)).toBeGreaterThan(0.95);
    // The 1-bit page is lossless: its pixels render identically.
    const a = renderGray(input, 1, 72);
    const b = renderGray(bytes, 1, 72);
    expect(Buffer.from(b.data).equals(Buffer.from(a.data))).toBe(true);
  });

  it("downsamples a 600 ppi 1-bit scan to 300 ppi", async () => {
    const big = await sharp(scan.data, { raw: { width: scan.width, height: scan.height, channels: 1 } })
      .resize(5100, 6600)
      .toColourspace("b-w")
      .raw()
      .toBuffer();
    const bits = grayToBits(big, 5100, 6600);
    const input = makeImagePdf([
      {
        images: [
          {
            image: { type: "raw", data: bits, width: 5100, height: 6600, colorSpace: "DeviceGray", bpc: 1 },
            x: 0,
            y: 0,
            width: 612,
            height: 792,
          },
        ],
      },
    ]);
    const { bytes } = await optimizePdf(input, options());
    expect(listImages(bytes)[0]).toMatchObject({ filter: "/CCITTFaxDecode", width: 2550, height: 3300 });
    expect(pagesSsim(input, bytes)).toBeGreaterThan(0.9);
  });

  it("CCITTGroup3 writes K 0; zip keeps 1-bit images 1-bit in Flate", async () => {
    const bits = grayToBits(scan.data, scan.width, scan.height);
    const input = makeImagePdf([
      {
        images: [
          {
            image: {
              type: "raw",
              data: bits,
              width: scan.width,
              height: scan.height,
              colorSpace: "DeviceGray",
              bpc: 1,
              uncompressed: true,
            },
            x: 0,
            y: 0,
            width: 612,
            height: 792,
          },
        ],
      },
    ]);
    const g3 = await optimizePdf(
      input,
      options((o) => (o.images.monochrome.compression.format = "ccitt-g3")),
    );
    expect(listImages(g3.bytes)[0].decodeParms).toContain("/K 0");
    const zip = await optimizePdf(
      input,
      options((o) => (o.images.monochrome.compression.format = "zip")),
    );
    expect(listImages(zip.bytes)[0]).toMatchObject({ filter: "/FlateDecode", bpc: 1 });
    for (const out of [g3.bytes, zip.bytes]) {
      expect(
        Buffer.from(renderGray(out, 0, 72).data).equals(Buffer.from(renderGray(input, 0, 72).data)),
      ).toBe(true);
    }
  });

  it("zip is lossless: Flate with PNG predictors, same pixels", async () => {
    const raw = photoPixels(400, 300, 9);
    const input = makeImagePdf([
      {
        images: [
          {
            image: {
              type: "raw",
              data: raw,
              width: 400,
              height: 300,
              colorSpace: "DeviceRGB",
              bpc: 8,
              uncompressed: true,
            },
            x: 72,
            y: 72,
            width: 400,
            height: 300,
          },
        ],
      },
    ]);
    const { bytes } = await optimizePdf(
      input,
      options((o) => (o.images.color.compression.format = "zip")),
    );
    const [img] = listImages(bytes);
    expect(img).toMatchObject({ filter: "/FlateDecode", width: 400, height: 300 });
    expect(img.decodeParms).toContain("/Predictor 15");
    const a = renderGray(input, 0, 72);
    const b = renderGray(bytes, 0, 72);
    expect(Buffer.from(b.data).equals(Buffer.from(a.data))).toBe(true);
  });

  it("jpeg2000 is written as JPEG and says so", async () => {
    const input = makeImagePdf([
      { images: [{ image: { type: "jpeg", data: photo }, x: 72, y: 72, width: 288, height: 216 }] },
    ]);
    const { bytes, report } = await optimizePdf(
      input,
      options((o) => (o.images.color.compression.format = "jpeg2000")),
    );
    expect(listImages(bytes)[0].filter).toBe("/DCTDecode");
    expect(report.notes.join(" ")).toMatch(/JPEG 2000/);
  });

  it("CCITT for colour images thresholds them to 1 bit", async () => {
    const rgbScan = await sharp(scan.data, { raw: { width: scan.width, height: scan.height, channels: 1 } })
      .toColourspace("srgb")
      .jpeg({ quality: 90 })
      .toBuffer();
    const input = makeImagePdf([
      { images: [{ image: { type: "jpeg", data: rgbScan }, x: 0, y: 0, width: 612, height: 792 }] },
    ]);
    const { bytes } = await optimizePdf(
      input,
      options((o) => (o.images.color.compression.format = "ccitt-g4")),
    );
    expect(listImages(bytes)[0]).toMatchObject({
      filter: "/CCITTFaxDecode",
      bpc: 1,
      colorSpace: "/DeviceGray",
    });
    expect(pageTexts(bytes)[0]).toBe(""); // still an image
    expect(pagesSsim(input, bytes)).toBeGreaterThan(0.7);
  });

  it("stores an RGB image without colour as one gray channel", async () => {
    const rgbScan = await sharp(scan.data, { raw: { width: scan.width, height: scan.height, channels: 1 } })
      .toColourspace("srgb")
      .jpeg({ quality: 92 })
      .toBuffer();
    const input = makeImagePdf([
      { images: [{ image: { type: "jpeg", data: rgbScan }, x: 0, y: 0, width: 612, height: 792 }] },
    ]);
    const { bytes } = await optimizePdf(input, options());
    expect(listImages(bytes)[0]).toMatchObject({ filter: "/DCTDecode", colorSpace: "/DeviceGray" });
  });

  it("converts CMYK images to RGB JPEG", async () => {
    const w = 600;
    const h = 450;
    const rgb = photoPixels(w, h, 4);
    const cmyk = Buffer.alloc(w * h * 4);
    for (let i = 0, j = 0; i < w * h * 3; i += 3, j += 4) {
      const k = 255 - Math.max(rgb[i], rgb[i + 1], rgb[i + 2]);
      cmyk[j] = 255 - rgb[i] - k;
      cmyk[j + 1] = 255 - rgb[i + 1] - k;
      cmyk[j + 2] = 255 - rgb[i + 2] - k;
      cmyk[j + 3] = k;
    }
    const input = makeImagePdf([
      {
        images: [
          {
            image: { type: "raw", data: cmyk, width: w, height: h, colorSpace: "DeviceCMYK", bpc: 8 },
            x: 72,
            y: 72,
            width: 144,
            height: 108,
          },
        ],
      },
    ]);
    const { bytes } = await optimizePdf(input, options());
    expect(listImages(bytes)[0]).toMatchObject({
      filter: "/DCTDecode",
      colorSpace: "/DeviceRGB",
      width: 300,
      height: 225,
    });
    expect(pagesSsim(input, bytes)).toBeGreaterThan(0.95);
  });

  it("keeps soft masks lossless and the transparency intact", async () => {
    const w = 800;
    const h = 600;
    const alpha = Buffer.alloc(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) alpha[y * w + x] = Math.hypot(x - w / 2, y - h / 2) < 250 ? 255 : 0;
    const input = makeImagePdf([
      {
        images: [
          {
            image: {
              type: "raw",
              data: photoPixels(w, h, 2),
              width: w,
              height: h,
              colorSpace: "DeviceRGB",
              bpc: 8,
              smask: { type: "raw", data: alpha, width: w, height: h, colorSpace: "DeviceGray", bpc: 8 },
            },
            x: 72,
            y: 72,
            width: 192,
            height: 144,
          },
        ],
      },
    ]);
    const { bytes } = await optimizePdf(input, options());
    const imgs = listImages(bytes);
    const mask = imgs.find((i) => i.colorSpace === "/DeviceGray")!;
    const base = imgs.find((i) => i.colorSpace === "/DeviceRGB")!;
    expect(base).toMatchObject({ filter: "/DCTDecode", width: 400, height: 300 });
    // The mask may keep its size (a smaller Flate stream was not smaller here): it must stay lossless.
    expect(mask.filter).toBe("/FlateDecode");
    // Outside the circle the page stays white.
    const g = renderGray(bytes, 0, 72);
    expect(g.data[80 * g.width + 80]).toBe(255);
    expect(pagesSsim(input, bytes)).toBeGreaterThan(0.95);
  });

  it("re-encodes stencil masks (ImageMask) with CCITT and they still paint", async () => {
    const bits = grayToBits(scan.data, scan.width, scan.height);
    // A stencil paints where the sample is 0 (ink): the page should look the same.
    const input = makeImagePdf([
      {
        images: [
          {
            image: {
              type: "raw",
              data: bits,
              width: scan.width,
              height: scan.height,
              colorSpace: "DeviceGray",
              bpc: 1,
              imageMask: true,
            },
            x: 0,
            y: 0,
            width: 612,
            height: 792,
          },
        ],
      },
    ]);
    const { bytes } = await optimizePdf(input, options());
    expect(listImages(bytes)[0].filter).toBe("/CCITTFaxDecode");
    expect(
      Buffer.from(renderGray(bytes, 0, 72).data).equals(Buffer.from(renderGray(input, 0, 72).data)),
    ).toBe(true);
  });
});

describe("optimizePdf: options", () => {
  it("skip leaves a class untouched", async () => {
    const input = makeImagePdf([
      { images: [{ image: { type: "jpeg", data: photo }, x: 72, y: 72, width: 288, height: 216 }] },
    ]);
    const { bytes, report } = await optimizePdf(
      input,
      options((o) => (o.images.color.skip = true)),
    );
    expect(listImages(bytes)[0]).toMatchObject({ width: 1200, length: photo.length });
    expect(report.images.rewritten).toBe(0);
  });

  it("downsample.skip keeps the pixel size; compression.skip keeps the encoding unless resized", async () => {
    const input = makeImagePdf([
      { images: [{ image: { type: "jpeg", data: photo }, x: 72, y: 72, width: 288, height: 216 }] },
    ]);
    const a = await optimizePdf(
      input,
      options((o) => (o.images.color.downsample.skip = true)),
    );
    expect(listImages(a.bytes)[0]).toMatchObject({ width: 1200, filter: "/DCTDecode" });
    const b = await optimizePdf(
      input,
      options((o) => (o.images.color.compression.skip = true)),
    );
    expect(listImages(b.bytes)[0]).toMatchObject({ width: 600, filter: "/DCTDecode" });
  });

  it("pages: only images on the selected pages are processed; every page is kept", async () => {
    const input = makeImagePdf([
      { images: [{ image: { type: "jpeg", data: photo }, x: 72, y: 72, width: 288, height: 216 }] },
      { images: [{ image: { type: "jpeg", data: photo }, x: 72, y: 72, width: 288, height: 216 }] },
    ]);
    const { bytes } = await optimizePdf(
      input,
      options((o) => (o.pages = [1])),
    );
    const imgs = listImages(bytes);
    expect(imgs.map((i) => i.width).sort()).toEqual([1200, 600]);
    expect(new mupdf.PDFDocument(Buffer.from(bytes)).countPages()).toBe(2);
  });

  it("never returns a bigger file: an already compact PDF comes back byte for byte", async () => {
    const first = await optimizePdf(makePdf({ pages: 2 }), options());
    const again = await optimizePdf(first.bytes, options());
    expect(again.report.keptOriginal).toBe(true);
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    expect(again.report.notes.join(" ")).toMatch(/original/);
  });

  it("garbage 4 removes unused objects and merges duplicate images", async () => {
    const doc = new mupdf.PDFDocument();
    const res = doc.addObject(doc.newDictionary());
    const xo = res.put("XObject", doc.newDictionary());
    xo.put("A", addImage(doc, { type: "jpeg", data: photo }));
    xo.put("B", addImage(doc, { type: "jpeg", data: photo }));
    addImage(doc, { type: "jpeg", data: photo }); // unreferenced
    doc.insertPage(
      -1,
      doc.addPage([0, 0, 612, 792], 0, res, "q 144 0 0 108 36 36 cm /A Do Q q 144 0 0 108 236 36 cm /B Do Q"),
    );
    const input = Buffer.from(doc.saveToBuffer("").asUint8Array());
    expect(listImages(input)).toHaveLength(3);
    const g4 = await optimizePdf(input, options());
    expect(listImages(g4.bytes)).toHaveLength(1);
    const g0 = await optimizePdf(
      input,
      options((o) => (o.garbage = 0)),
    );
    expect(listImages(g0.bytes).length).toBeGreaterThan(1);
  });

  it("opens encrypted input with its password; a wrong one is 441", async () => {
    const plain = makeImagePdf([
      { images: [{ image: { type: "jpeg", data: photo }, x: 72, y: 72, width: 288, height: 216 }] },
    ]);
    const locked = encryptPdf(plain, { userPassword: "s3cret", ownerPassword: "owner" });
    const { bytes } = await optimizePdf(
      locked,
      options((o) => (o.password = "s3cret")),
    );
    expect(bytes.length).toBeLessThan(locked.length);
    expect(pagesSsim(plain, await optimizeAndDecrypt(bytes))).toBeGreaterThan(0.95);
    await expect(
      optimizePdf(
        locked,
        options((o) => (o.password = "nope")),
      ),
    ).rejects.toMatchObject({ status: 441 });
    await expect(optimizePdf(Buffer.from("not a pdf"), options())).rejects.toMatchObject({ status: 442 });
  });
});

/** Re-saves an encrypted output without encryption so the fixtures' renderer can read it. */
async function optimizeAndDecrypt(bytes: Uint8Array): Promise<Uint8Array> {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  if (doc.needsPassword()) expect(doc.authenticatePassword("s3cret")).toBeGreaterThan(0);
  const out = Buffer.from(doc.saveToBuffer("decrypt").asUint8Array());
  doc.destroy();
  return out;
}
