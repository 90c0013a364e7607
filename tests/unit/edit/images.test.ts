import { beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { QuireError } from "@/lib/core/errors";
import { makePdf } from "@/tests/helpers/pdf-fixtures";
import { listImages } from "@/tests/helpers/optimize-fixtures";
import type { ImageLoader } from "@/lib/engine/edit/types";
import { edit, links, pixel } from "./helpers";

let redPng: Buffer; // 200×100, declares 72 dpi
let blueJpeg: Buffer; // 300×300
let greenWebp: Buffer;

beforeAll(async () => {
  redPng = await sharp({
    create: { width: 200, height: 100, channels: 3, background: { r: 255, g: 0, b: 0 } },
  })
    .withMetadata({ density: 72 })
    .png()
    .toBuffer();
  blueJpeg = await sharp({
    create: { width: 300, height: 300, channels: 3, background: { r: 0, g: 0, b: 255 } },
  })
    .jpeg({ quality: 95 })
    .toBuffer();
  greenWebp = await sharp({
    create: { width: 100, height: 100, channels: 3, background: { r: 0, g: 255, b: 0 } },
  })
    .webp({ lossless: true })
    .toBuffer();
});

const dataUri = (b: Buffer, type: string) => `data:${type};base64,${b.toString("base64")}`;

describe("edit/add images", () => {
  it("places a data: URI image at x, y with the given size", async () => {
    const { bytes } = await edit(makePdf(), {
      images: [{ url: dataUri(redPng, "image/png"), x: 300, y: 400, width: 100, height: 60 }],
    });
    expect(pixel(bytes, 350, 430)).toEqual([255, 0, 0]);
    expect(pixel(bytes, 302, 402)).toEqual([255, 0, 0]);
    expect(pixel(bytes, 398, 458)).toEqual([255, 0, 0]);
    expect(pixel(bytes, 296, 430)).toEqual([255, 255, 255]);
    expect(pixel(bytes, 404, 430)).toEqual([255, 255, 255]);
    expect(pixel(bytes, 350, 396)).toEqual([255, 255, 255]);
    expect(pixel(bytes, 350, 464)).toEqual([255, 255, 255]);
  });

  it("keeps the aspect ratio when only width or height is given; natural size otherwise", async () => {
    const { bytes } = await edit(makePdf({ pages: 3 }), {
      images: [
        { url: dataUri(redPng, "image/png"), x: 100, y: 100, width: 100, pages: "0" }, // → 100×50
        { url: dataUri(redPng, "image/png"), x: 100, y: 100, height: 100, pages: "1" }, // → 200×100
        { url: dataUri(redPng, "image/png"), x: 100, y: 100, pages: "2" }, // 200×100 px at 72 dpi
      ],
    });
    expect(pixel(bytes, 195, 145, 0)).toEqual([255, 0, 0]);
    expect(pixel(bytes, 195, 155, 0)).toEqual([255, 255, 255]);
    expect(pixel(bytes, 295, 195, 1)).toEqual([255, 0, 0]);
    expect(pixel(bytes, 305, 195, 1)).toEqual([255, 255, 255]);
    expect(pixel(bytes, 295, 195, 2)).toEqual([255, 0, 0]);
  });

  it("fetches https URLs through the loader, embeds JPEG as is, and reuses one XObject on every page", async () => {
    const seen: string[] = [];
    const loader: ImageLoader = async (url) => {
      seen.push(url);
      return { bytes: blueJpeg, contentType: "image/jpeg" };
    };
    const { bytes } = await edit(
      makePdf({ pages: 3 }),
      { images: [{ url: "https://img.example/logo.jpg", x: 50, y: 50, width: 72 }] },
      loader,
    );
    expect(seen).toEqual(["https://img.example/logo.jpg"]);
    for (let p = 0; p < 3; p++) {
      const [r, g, b] = pixel(bytes, 86, 86, p);
      expect(r).toBeLessThan(10);
      expect(g).toBeLessThan(10);
      expect(b).toBeGreaterThan(240);
    }
    const imgs = listImages(bytes);
    expect(imgs).toHaveLength(1);
    expect(imgs[0]).toMatchObject({ filter: "/DCTDecode", width: 300, length: blueJpeg.length });
  });

  it("converts formats MuPDF cannot read (WebP) and adds image links", async () => {
    const { bytes } = await edit(makePdf(), {
      images: [
        { url: dataUri(greenWebp, "image/webp"), x: 10, y: 10, width: 50, link: "https://example.com" },
      ],
    });
    expect(pixel(bytes, 35, 35)).toEqual([0, 255, 0]);
    expect(links(bytes)).toEqual([{ uri: "https://example.com", bounds: [10, 10, 60, 60] }]);
  });

  it("explains what is wrong with an image source", async () => {
    await expect(edit(makePdf(), { images: [{ url: "ftp://x/y.png", x: 0, y: 0 }] })).rejects.toMatchObject({
      status: 454,
      message: /images\[0\]\.url/,
    });
    await expect(
      edit(makePdf(), { images: [{ url: dataUri(Buffer.from("not an image"), "image/png"), x: 0, y: 0 }] }),
    ).rejects.toMatchObject({ status: 415 });
    const failing: ImageLoader = async () => {
      throw new Error("connection refused");
    };
    await expect(
      edit(makePdf(), { images: [{ url: "https://x/a.png", x: 0, y: 0 }] }, failing),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("connection refused"),
    });
    const guarded: ImageLoader = async () => {
      throw new QuireError(403, "url: this address is not allowed");
    };
    await expect(
      edit(makePdf(), { images: [{ url: "https://10.0.0.1/a.png", x: 0, y: 0 }] }, guarded),
    ).rejects.toMatchObject({ status: 403 });
  });
});
