import { readFileSync } from "node:fs";
import sharp from "sharp";
import { afterEach, describe, expect, test } from "vitest";
import { QuireError } from "@/lib/core/errors";
import { joinTiffPages } from "@/lib/engine/pdf/render-images";
import { operation as jpgOp } from "@/lib/operations/pdf-convert-to-jpg/contract";
import { run as runJpg } from "@/lib/operations/pdf-convert-to-jpg/runner";
import { operation as pngOp } from "@/lib/operations/pdf-convert-to-png/contract";
import { run as runPng } from "@/lib/operations/pdf-convert-to-png/runner";
import { operation as tiffOp } from "@/lib/operations/pdf-convert-to-tiff/contract";
import { run as runTiff } from "@/lib/operations/pdf-convert-to-tiff/runner";
import { operation as webpOp } from "@/lib/operations/pdf-convert-to-webp/contract";
import { run as runWebp } from "@/lib/operations/pdf-convert-to-webp/runner";
import { cleanupContexts, contextFor, makeTablesPdf } from "@/tests/helpers/extract-fixtures";
import { encryptPdf } from "@/tests/helpers/pdf-fixtures";

afterEach(cleanupContexts);

/** Three Letter pages and one A4 landscape page, each saying "Page N". */
function mixedPdf() {
  return makeTablesPdf([
    { texts: [{ x: 72, y: 72, text: "Page 1" }] },
    { texts: [{ x: 72, y: 72, text: "Page 2" }] },
    { texts: [{ x: 72, y: 72, text: "Page 3" }] },
    { size: [842, 595], texts: [{ x: 72, y: 72, text: "Page 4" }] },
  ]);
}

describe("pdf-convert-to-png/jpg/webp", () => {
  test("one PNG per page at 150 dpi by default, named after the source and page", async () => {
    const ctx = await contextFor(pngOp.params, mixedPdf());
    const r = await runPng(ctx);
    expect(r.pageCount).toBe(4);
    expect(r.multiple).toBe(true);
    expect(r.outputs?.map((o) => o.name)).toEqual([1, 2, 3, 4].map((n) => `source-page${n}.png`));
    const metas = await Promise.all(r.outputs!.map((o) => sharp(readFileSync(o.path)).metadata()));
    expect(metas.map((m) => m.format)).toEqual(["png", "png", "png", "png"]);
    expect([metas[0].width, metas[0].height]).toEqual([1275, 1650]);
    expect([metas[3].width, metas[3].height]).toEqual([1755, 1240]);
    // The page's text is drawn: the top-left area is not blank.
    const stats = await sharp(readFileSync(r.outputs![0].path)).extract({ left: 140, top: 130, width: 200, height: 30 }).stats();
    expect(stats.channels[0].min).toBeLessThan(100);
  });

  test("pages, RenderingResolution and rect: 72 dpi crop of 200×100 pt", async () => {
    const ctx = await contextFor(jpgOp.params, mixedPdf(), { pages: "1-2", rect: "50 50 200 100", profiles: { RenderingResolution: 72, JPEGQuality: 50 } });
    const r = await runJpg(ctx);
    expect(r.outputs?.map((o) => o.name)).toEqual(["source-page2.jpg", "source-page3.jpg"]);
    const m = await sharp(readFileSync(r.outputs![0].path)).metadata();
    expect([m.format, m.width, m.height]).toEqual(["jpeg", 200, 100]);
  });

  test("inline: base64 in body (a string for one page, a list for several), files still linked", async () => {
    const one = await runWebp(await contextFor(webpOp.params, mixedPdf(), { inline: true, pages: "0", name: "thumb" }));
    expect(one.outputs?.map((o) => o.name)).toEqual(["thumb-page1.webp"]);
    const body = one.fields?.body as string;
    expect(typeof body).toBe("string");
    const m = await sharp(Buffer.from(body, "base64")).metadata();
    expect([m.format, m.width]).toEqual(["webp", 1275]);
    expect(Buffer.from(body, "base64").equals(readFileSync(one.outputs![0].path))).toBe(true);
    const two = await runWebp(await contextFor(webpOp.params, mixedPdf(), { inline: true, pages: "2-3" }));
    const list = two.fields?.body as string[];
    expect(list).toHaveLength(2);
    expect((await sharp(Buffer.from(list[1], "base64")).metadata()).width).toBe(1755);
  });

  test("encrypted PDF: wrong password → 441; pages past the end → 449", async () => {
    const locked = encryptPdf(mixedPdf(), { userPassword: "pw" });
    const err = await runPng(await contextFor(pngOp.params, locked, { password: "nope" })).catch((e) => e);
    expect(err).toBeInstanceOf(QuireError);
    expect((err as QuireError).status).toBe(441);
    const ok = await runPng(await contextFor(pngOp.params, locked, { password: "pw", pages: "0" }));
    expect(ok.outputs).toHaveLength(1);
    const past = await runPng(await contextFor(pngOp.params, mixedPdf(), { pages: "7" })).catch((e) => e);
    expect((past as QuireError).status).toBe(449);
  });
});

describe("pdf-convert-to-tiff", () => {
  test("one multi-page TIFF with a page per PDF page, sizes kept", async () => {
    const ctx = await contextFor(tiffOp.params, mixedPdf(), { profiles: { RenderingResolution: 100 } });
    const r = await runTiff(ctx);
    expect(r.outputs).toHaveLength(1);
    expect(r.outputs![0].name).toBe("source.tiff");
    const bytes = readFileSync(r.outputs![0].path);
    const m = await sharp(bytes).metadata();
    expect(m.format).toBe("tiff");
    expect(m.pages).toBe(4);
    const p4 = await sharp(bytes, { page: 3 }).metadata();
    expect([p4.width, p4.height]).toEqual([1170, 827]);
    const p1 = await sharp(bytes, { page: 0 }).metadata();
    expect([p1.width, p1.height]).toEqual([850, 1100]);
    // Each page decodes to its own pixels.
    const { data } = await sharp(bytes, { page: 2 }).raw().toBuffer({ resolveWithObject: true });
    expect(data.length).toBe(850 * 1100 * 3);
  });

  test("CCITT compression gives a bilevel TIFF", async () => {
    const r = await runTiff(await contextFor(tiffOp.params, mixedPdf(), { pages: "0-1", profiles: { TIFFCompression: "CCITT", RenderingResolution: 200 } }));
    const m = await sharp(readFileSync(r.outputs![0].path)).metadata();
    expect(m.pages).toBe(2);
    expect(m.channels).toBe(1);
    expect(readFileSync(r.outputs![0].path).length).toBeLessThan(20_000);
  });

  test("joinTiffPages links big-endian files too", async () => {
    const a = await sharp({ create: { width: 10, height: 20, channels: 3, background: "#f00" } }).tiff().toBuffer();
    const b = await sharp({ create: { width: 30, height: 5, channels: 3, background: "#0f0" } }).tiff().toBuffer();
    const joined = joinTiffPages([a, b, a]);
    expect((await sharp(joined).metadata()).pages).toBe(3);
    expect((await sharp(joined, { page: 1 }).metadata()).width).toBe(30);
  });
});

describe("limits", () => {
  test("a render above IMAGE_MAX_PIXELS → 413 naming the setting", async () => {
    const err = await runPng(await contextFor(pngOp.params, mixedPdf(), { pages: "0", profiles: { RenderingResolution: 1200 } })).catch((e) => e);
    expect((err as QuireError).status).toBe(413);
    expect((err as QuireError).message).toContain("IMAGE_MAX_PIXELS");
  });
});
