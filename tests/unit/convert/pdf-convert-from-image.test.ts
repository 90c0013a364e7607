import { describe, expect, it } from "vitest";
import fs from "node:fs";
import zlib from "node:zlib";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { orientationMatrix, pageSizeFor } from "@/lib/engine/images/build-pdf";
import { imagesToPdf } from "@/lib/engine/images/images-to-pdf";
import { readBmpHeader } from "@/lib/engine/images/bmp-header";
import { sniffImageFormat } from "@/lib/engine/images/sniff-image";
import { run } from "@/lib/operations/pdf-convert-from-image/runner";
import {
  makeBmp,
  makeTempDir,
  makeTiff,
  near,
  readPdf,
  renderPdfPage,
  sourceFile,
} from "@/tests/helpers/convert-fixtures";

/** pdf-convert-from-image: every format, page sizes from DPI, EXIF orientation, lossless/passthrough embedding, limits. */

type RGB = [number, number, number];
const RED: RGB = [255, 0, 0];
const BLUE: RGB = [0, 0, 255];

/** w×h image: top half red, bottom half blue (so orientation is visible). */
const halves = (w: number, h: number) => {
  const top = Buffer.alloc(w * Math.floor(h / 2) * 3);
  for (let i = 0; i < top.length; i += 3) top.set(RED, i);
  const bottom = Buffer.alloc(w * (h - Math.floor(h / 2)) * 3);
  for (let i = 0; i < bottom.length; i += 3) bottom.set(BLUE, i);
  return sharp(Buffer.concat([top, bottom]), { raw: { width: w, height: h, channels: 3 } });
};
const solid = (w: number, h: number, background: string) =>
  sharp({ create: { width: w, height: h, channels: 3, background } });

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A PNG whose header claims w×h but whose data is tiny: reading it must not allocate w×h pixels. */
function hugePngHeader(w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", zlib.deflateSync(Buffer.alloc(4096))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The pixels of the first image XObject on page `index`, decoded by MuPDF from the PDF itself. */
function embeddedImage(pdf: Uint8Array, index = 0) {
  const doc = new mupdf.PDFDocument(pdf);
  try {
    const xobjects = doc.loadPage(index).getObject().get("Resources").get("XObject");
    let ref: mupdf.PDFObject | undefined;
    xobjects.forEach((v: mupdf.PDFObject) => (ref ??= v));
    const dict = ref!.resolve();
    const image = doc.loadImage(ref!);
    const pix = image.toPixmap();
    return {
      filter: dict.get("Filter").toString(),
      hasSMask: dict.get("SMask").isIndirect(),
      raw: Buffer.from(ref!.readRawStream().asUint8Array()),
      width: pix.getWidth(),
      height: pix.getHeight(),
      samples: Buffer.from(pix.getPixels()),
      channels: pix.getNumberOfComponents() + (pix.getAlpha() ? 1 : 0),
    };
  } finally {
    doc.destroy();
  }
}

describe("pdf-convert-from-image", () => {
  it("recognises each format from its bytes", async () => {
    expect(sniffImageFormat(await solid(4, 4, "#fff").jpeg().toBuffer())).toBe("jpeg");
    expect(sniffImageFormat(await solid(4, 4, "#fff").png().toBuffer())).toBe("png");
    expect(sniffImageFormat(await solid(4, 4, "#fff").gif().toBuffer())).toBe("gif");
    expect(sniffImageFormat(await solid(4, 4, "#fff").webp().toBuffer())).toBe("webp");
    expect(sniffImageFormat(await solid(4, 4, "#fff").tiff().toBuffer())).toBe("tiff");
    expect(sniffImageFormat(makeBmp(4, 4, () => [0, 0, 0]))).toBe("bmp");
    expect(sniffImageFormat(Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj"))).toBeNull();
  });

  it("makes one page per image, each the size of the image at its DPI (72 when unknown)", async () => {
    const images = [
      { name: "a.png", bytes: await solid(144, 72, "#f00").png().toBuffer() }, // no pHYs → 72 dpi
      { name: "b.png", bytes: await solid(300, 600, "#0f0").withMetadata({ density: 300 }).png().toBuffer() },
      {
        name: "c.jpg",
        bytes: await solid(200, 100, "#00f").withMetadata({ density: 144 }).jpeg().toBuffer(),
      },
      { name: "d.gif", bytes: await solid(50, 40, "#808080").gif().toBuffer() },
      { name: "e.webp", bytes: await solid(30, 60, "#ff8000").webp({ lossless: true }).toBuffer() },
      { name: "f.bmp", bytes: makeBmp(96, 48, () => [255, 0, 255], { dpi: 96 }) },
      { name: "g.bmp", bytes: makeBmp(20, 10, () => [0, 255, 255, 255], { bits: 32 }) },
    ];
    const { pdf, pageCount } = await imagesToPdf(images);
    const info = readPdf(pdf);
    expect(pageCount).toBe(7);
    expect(info.pageCount).toBe(7);
    expect(info.sizes).toEqual([
      [144, 72],
      [72, 144],
      [100, 50],
      [50, 40],
      [30, 60],
      [72, 36],
      [20, 10],
    ]);
    const colours: RGB[] = [
      RED,
      [0, 255, 0],
      BLUE,
      [128, 128, 128],
      [255, 128, 0],
      [255, 0, 255],
      [0, 255, 255],
    ];
    colours.forEach((c, i) => {
      const r = renderPdfPage(pdf, i, 72);
      expect(near(r.pixel(r.width / 2, r.height / 2), c, 12), `page ${i + 1}`).toBe(true);
    });
  });

  it("puts every page of a multi-page TIFF on its own page, with each page's size and resolution", async () => {
    const tiff = makeTiff([
      { width: 100, height: 50, rgb: [255, 255, 0] },
      { width: 150, height: 300, rgb: [0, 255, 255], dpi: 150 },
      { width: 20, height: 20, rgb: [255, 0, 255], dpi: 36 },
    ]);
    const { pdf } = await imagesToPdf([{ name: "scan.tif", bytes: tiff }]);
    const info = readPdf(pdf);
    expect(info.sizes).toEqual([
      [100, 50],
      [72, 144],
      [40, 40],
    ]);
    expect(near(renderPdfPage(pdf, 1, 72).pixel(30, 60), [0, 255, 255])).toBe(true);
  });

  it("honours EXIF orientation (6 = turned 90° clockwise) without re-encoding the JPEG", async () => {
    const jpeg = await halves(200, 100).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
    const { pdf } = await imagesToPdf([{ name: "phone.jpg", bytes: jpeg }]);
    expect(readPdf(pdf).sizes[0]).toEqual([100, 200]); // portrait after turning
    const r = renderPdfPage(pdf, 0, 72);
    // The stored image's top (red) is on the right once turned clockwise.
    expect(near(r.pixel(r.width - 10, r.height / 2), RED, 40)).toBe(true);
    expect(near(r.pixel(10, r.height / 2), BLUE, 40)).toBe(true);
    // DCT passthrough: the JPEG's bytes are in the PDF unchanged.
    const img = embeddedImage(pdf);
    expect(img.filter).toBe("/DCTDecode");
    expect(img.raw.equals(jpeg)).toBe(true);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "orientation %i puts the stored top-left pixel where a viewer shows it",
    async (o) => {
      // 40×20, top-left quarter red, rest blue.
      const raw = Buffer.alloc(40 * 20 * 3);
      for (let y = 0; y < 20; y++)
        for (let x = 0; x < 40; x++) raw.set(x < 20 && y < 10 ? RED : BLUE, (y * 40 + x) * 3);
      const jpeg = await sharp(raw, { raw: { width: 40, height: 20, channels: 3 } })
        .withMetadata({ orientation: o })
        .jpeg({ quality: 100 })
        .toBuffer();
      const upright = await sharp(jpeg).autoOrient().raw().toBuffer({ resolveWithObject: true });
      const { pdf } = await imagesToPdf([{ name: `o${o}.jpg`, bytes: jpeg }]);
      const r = renderPdfPage(pdf, 0, 72);
      expect([r.width, r.height]).toEqual([upright.info.width, upright.info.height]);
      for (const [x, y] of [
        [3, 3],
        [r.width - 3, 3],
        [3, r.height - 3],
        [r.width - 3, r.height - 3],
      ]) {
        const o3 = (y * upright.info.width + x) * 3;
        const want: RGB = [upright.data[o3], upright.data[o3 + 1], upright.data[o3 + 2]];
        expect(near(r.pixel(x, y), want, 60), `orientation ${o} at ${x},${y}`).toBe(true);
      }
    },
  );

  it("embeds a CMYK JPEG as is, with colours right", async () => {
    const cmyk = await solid(20, 20, "#ff0000").toColourspace("cmyk").jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe("cmyk");
    const { pdf } = await imagesToPdf([{ name: "print.jpg", bytes: cmyk }]);
    const img = embeddedImage(pdf);
    expect(img.filter).toBe("/DCTDecode");
    expect(img.raw.equals(cmyk)).toBe(true);
    const [r, g, b] = renderPdfPage(pdf, 0, 72).pixel(10, 10);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(90);
    expect(b).toBeLessThan(90);
  });

  it("stores PNG pixels losslessly, with an SMask only for real transparency", async () => {
    const w = 64;
    const h = 48;
    const raw = Buffer.alloc(w * h * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 37 + (i >> 7)) & 255; // noisy, incompressible-ish
    const png = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
      .png()
      .toBuffer();
    const { pdf } = await imagesToPdf([{ name: "noise.png", bytes: png }]);
    const img = embeddedImage(pdf);
    expect(img.filter).toBe("/FlateDecode");
    expect(img.hasSMask).toBe(false);
    expect([img.width, img.height, img.channels]).toEqual([w, h, 3]);
    expect(img.samples.equals(raw)).toBe(true);

    const opaqueAlpha = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
      .ensureAlpha()
      .png()
      .toBuffer();
    expect(
      embeddedImage((await imagesToPdf([{ name: "opaque.png", bytes: opaqueAlpha }])).pdf).hasSMask,
    ).toBe(false);

    const halfGreen = await sharp({
      create: { width: 20, height: 20, channels: 4, background: { r: 0, g: 255, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const t = await imagesToPdf([{ name: "alpha.png", bytes: halfGreen }]);
    expect(embeddedImage(t.pdf).hasSMask).toBe(true);
    expect(near(renderPdfPage(t.pdf, 0, 72).pixel(10, 10), [128, 255, 128], 6)).toBe(true);
  });

  it("keeps 16-bit and greyscale images in their own depth and colour space", async () => {
    const grey = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#404040" } })
      .toColourspace("b-w")
      .png()
      .toBuffer();
    const g = embeddedImage((await imagesToPdf([{ name: "grey.png", bytes: grey }])).pdf);
    expect(g.channels).toBe(1);
    expect(g.samples[0]).toBe(0x40);
    const deep = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#8040c0" } })
      .toColourspace("rgb16")
      .png()
      .toBuffer();
    const { pdf } = await imagesToPdf([{ name: "deep.png", bytes: deep }]);
    const doc = new mupdf.PDFDocument(pdf);
    const bpc = doc
      .loadPage(0)
      .getObject()
      .get("Resources")
      .get("XObject")
      .get("Im0")
      .get("BitsPerComponent")
      .asNumber();
    doc.destroy();
    expect(bpc).toBe(16);
    expect(near(renderPdfPage(pdf, 0, 72).pixel(5, 5), [0x80, 0x40, 0xc0], 3)).toBe(true);
  });

  it("caps a page side at 14 400 pt, keeping the aspect ratio", async () => {
    const wide = await solid(20000, 10, "#fff").png().toBuffer();
    const { pdf } = await imagesToPdf([{ name: "wide.png", bytes: wide }]);
    expect(readPdf(pdf).sizes[0]).toEqual([14400, 7.2]);
    expect(pageSizeFor({ page: 0, width: 100, height: 50, dpiX: 72, dpiY: 72, orientation: 8 })).toEqual({
      width: 50,
      height: 100,
    });
    expect(orientationMatrix(1, 10, 20)).toEqual([10, 0, 0, 20, 0, 0]);
  });

  it("selects pages with the 0-based pages syntax over all images in order", async () => {
    const images = await Promise.all(
      ["#f00", "#0f0", "#00f"].map(async (c, i) => ({
        name: `${i}.png`,
        bytes: await solid(10 + i, 10, c)
          .png()
          .toBuffer(),
      })),
    );
    const { pdf, pageCount } = await imagesToPdf(images, { pages: "!0,0" });
    expect(pageCount).toBe(2);
    expect(readPdf(pdf).sizes).toEqual([
      [12, 10],
      [10, 10],
    ]);
    await expect(imagesToPdf(images, { pages: "5" })).rejects.toMatchObject({ status: 449 });
  });

  it("refuses a 20000×20000 image from its header, with the limit in the message, without decoding it", async () => {
    const before = process.memoryUsage().rss;
    const png = hugePngHeader(20000, 20000);
    await expect(imagesToPdf([{ name: "huge.png", bytes: png }])).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/20000×20000 pixels is more than the limit of 100,000,000 pixels/),
    });
    const bmp = Buffer.alloc(54);
    bmp.write("BM", 0, "ascii");
    bmp.writeUInt32LE(40, 14);
    bmp.writeInt32LE(20000, 18);
    bmp.writeInt32LE(20000, 22);
    bmp.writeUInt16LE(24, 28);
    expect(readBmpHeader(bmp)).toMatchObject({ width: 20000, height: 20000 });
    await expect(imagesToPdf([{ name: "huge.bmp", bytes: bmp }])).rejects.toMatchObject({ status: 413 });
    // A JPEG whose frame header claims 20000×20000.
    const jpeg = Buffer.from(await solid(8, 8, "#fff").jpeg().toBuffer());
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    jpeg.writeUInt16BE(20000, sof + 5);
    jpeg.writeUInt16BE(20000, sof + 7);
    await expect(imagesToPdf([{ name: "huge.jpg", bytes: jpeg }])).rejects.toMatchObject({ status: 413 });
    // 1.2 GB of RGB was never allocated.
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
    // The limit is configurable per call (IMAGE_MAX_PIXELS for the service).
    await expect(
      imagesToPdf([{ name: "small.png", bytes: await solid(100, 100, "#fff").png().toBuffer() }], {
        limits: { maxPixels: 5000 },
      }),
    ).rejects.toMatchObject({ status: 413 });
  });

  it("unsupported formats are 415, damaged images 442", async () => {
    await expect(
      imagesToPdf([{ name: "doc.pdf", bytes: Buffer.from("%PDF-1.7\n1 0 obj<<>>endobj\n") }]),
    ).rejects.toMatchObject({
      status: 415,
      message: expect.stringContaining("PDF"),
    });
    await expect(
      imagesToPdf([
        {
          name: "x.svg",
          bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
        },
      ]),
    ).rejects.toMatchObject({
      status: 415,
    });
    const jpeg = await halves(64, 64).jpeg().toBuffer();
    await expect(
      imagesToPdf([{ name: "cut.jpg", bytes: jpeg.subarray(0, Math.floor(jpeg.length / 2)) }]),
    ).rejects.toMatchObject({ status: 442 });
    const png = await halves(64, 64).png().toBuffer();
    await expect(
      imagesToPdf([
        { name: "ok.png", bytes: png },
        { name: "cut.png", bytes: png.subarray(0, png.length - 40) },
      ]),
    ).rejects.toMatchObject({
      status: 442,
      message: expect.stringContaining("image 2 (cut.png)"),
    });
  });

  it("the pdf-convert-from-image runner reads ctx.sources in order and names the output", async () => {
    const tmp = makeTempDir();
    try {
      const sources = [
        sourceFile(tmp.dir, "one.png", await solid(30, 10, "#f00").png().toBuffer(), "image/png"),
        sourceFile(tmp.dir, "two.jpg", await solid(10, 30, "#00f").jpeg().toBuffer(), "image/jpeg"),
      ];
      const result = await run({
        params: { url: "x", name: "album" },
        sources,
        workDir: tmp.dir,
        fetchUrl: async () => ({ bytes: Buffer.alloc(0), contentType: "", name: "" }),
        log: () => {},
      });
      expect(result.pageCount).toBe(2);
      expect(result.outputs?.[0]).toMatchObject({ name: "album.pdf", contentType: "application/pdf" });
      expect(readPdf(fs.readFileSync(result.outputs![0].path)).sizes).toEqual([
        [30, 10],
        [10, 30],
      ]);
    } finally {
      tmp.cleanup();
    }
  });
});
