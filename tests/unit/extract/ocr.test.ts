import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { afterAll, describe, expect, test } from "vitest";
import { installedLanguages, parseLanguages, systemTessdataDir } from "@/lib/engine/ocr/languages";
import { ocrImage, withoutRuleGlyphs } from "@/lib/engine/ocr/ocr-image";
import { ocrPlan, poolSize, shutdownOcr } from "@/lib/engine/ocr/pool";
import { applyGamma, preprocessRaster, rotateQuarter, toGray, toPnm, type Raster } from "@/lib/engine/ocr/preprocess";
import { getPageTexts, renderForOcr, sniffKind } from "@/lib/engine/text/page-texts";
import { imageToPdf, makeMultiPageTiff, makeTablesPdf, renderPageGray, renderPagePng } from "@/tests/helpers/extract-fixtures";

afterAll(shutdownOcr);

const textOf = (words: { text: string }[]) => words.map((w) => w.text).join(" ");

describe("OCR preprocessing", () => {
  const rgb: Raster = { data: new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 128, 128, 128]), width: 2, height: 2, channels: 3, dpi: 300 };

  test("grayscale uses luma weights", () => {
    const g = toGray(rgb);
    expect(g.channels).toBe(1);
    expect([...g.data]).toEqual([76, 150, 29, 128]);
  });

  test("gamma > 1 lightens mid-tones, leaves black and white", () => {
    const r: Raster = { data: new Uint8Array([0, 64, 128, 255]), width: 4, height: 1, channels: 1, dpi: 300 };
    const out = applyGamma(r, [1.4]);
    expect(out.data[0]).toBe(0);
    expect(out.data[3]).toBe(255);
    expect(out.data[1]).toBeGreaterThan(64);
    expect(out.data[2]).toBeGreaterThan(128);
  });

  test("quarter turns move pixels clockwise and swap the size", () => {
    // 2×1: [a b] → clockwise → 1×2: [a; b]
    const r: Raster = { data: new Uint8Array([1, 2]), width: 2, height: 1, channels: 1, dpi: 300 };
    const q1 = rotateQuarter(r, 1);
    expect([q1.width, q1.height, ...q1.data]).toEqual([1, 2, 1, 2]);
    const q3 = rotateQuarter(r, 3);
    expect([...q3.data]).toEqual([2, 1]);
    expect([...rotateQuarter(r, 2).data]).toEqual([2, 1]);
  });

  test("preprocessRaster applies grayscale, gamma and rotation in order; PNM header", () => {
    const out = preprocessRaster(rgb, { grayscale: true, gamma: [2], rotate: 1 });
    expect(out.channels).toBe(1);
    expect(toPnm(out).subarray(0, 3).toString()).toBe("P5\n");
    expect(toPnm(rgb).subarray(0, 3).toString()).toBe("P6\n");
  });

  test("AddGrayscale renders the page gray for OCR, otherwise RGB", () => {
    const doc = new mupdf.PDFDocument(makeTablesPdf([{ size: [100, 100], texts: [{ x: 10, y: 10, text: "x" }] }]));
    try {
      expect(renderForOcr(doc, 0, 72, true, false).channels).toBe(1);
      expect(renderForOcr(doc, 0, 72, false, false).channels).toBe(3);
    } finally {
      doc.destroy();
    }
  });
});

describe("OCR words beside table rules", () => {
  test.each([
    ["|5", "5"],
    ["Ligne|", "Ligne"],
    ["|#ligne", "#ligne"],
    ["P.U.HT(EUR)|-", "P.U.HT(EUR)"],
    ["60,00}", "60,00"],
    ["28,00)", "28,00"],
    ["7,00]", "7,00"],
    ["|", ""],
    ["(RE)", "(RE)"],
    ["(Net):60,00", "(Net):60,00"],
    ["[x6]", "[x6]"],
    ["a|b", "a|b"],
  ])("%s → %s", (raw, clean) => {
    expect(withoutRuleGlyphs(raw)).toBe(clean);
  });
});

describe("OCR languages", () => {
  test("eng and fra ship with npm, the system's Tesseract languages are added; unknown → 400 naming them", () => {
    const installed = installedLanguages();
    expect(installed.has("eng")).toBe(true);
    expect(installed.has("fra")).toBe(true);
    expect(installed.has("osd")).toBe(false); // orientation model, not a language
    expect(parseLanguages(undefined)).toEqual(["eng"]);
    expect(parseLanguages("eng+fra")).toEqual(["eng", "fra"]);
    if (systemTessdataDir()) {
      // Debian's tesseract-ocr-* packages (scripts/env.sh): the languages people scan in most.
      for (const code of ["deu", "spa", "ita", "por", "nld"]) expect(installed.has(code)).toBe(true);
      expect(parseLanguages("deu+eng+nld")).toEqual(["deu", "eng", "nld"]);
    }
    expect(() => parseLanguages("kor")).toThrow(/Installed: .*eng, fra/);
    expect(() => parseLanguages("eng fra!")).toThrow(/lang/);
  });

  test("extra languages come from OCR_LANG_DIR", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "quire-tessdata-test-"));
    const before = process.env.OCR_LANG_DIR;
    try {
      writeFileSync(path.join(dir, "kor.traineddata"), "not really a model");
      process.env.OCR_LANG_DIR = dir;
      expect(parseLanguages("eng+kor")).toEqual(["eng", "kor"]);
      expect(() => parseLanguages("tha")).toThrow(/eng, fra, .*kor/);
    } finally {
      if (before === undefined) delete process.env.OCR_LANG_DIR;
      else process.env.OCR_LANG_DIR = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("OCR parallelism follows the render size; huge renders go gray", () => {
    const before = process.env.JOB_MEMORY_MB;
    process.env.JOB_MEMORY_MB = "2048";
    try {
      const a4at300 = ocrPlan(8.7, false);
      expect(a4at300.gray).toBe(false);
      expect(a4at300.concurrency).toBe(Math.min(poolSize(), 5));
      const a4at1200 = ocrPlan(139, false);
      expect(a4at1200).toEqual({ concurrency: 1, gray: true });
      expect(ocrPlan(8.7, true).gray).toBe(true);
    } finally {
      if (before === undefined) delete process.env.JOB_MEMORY_MB;
      else process.env.JOB_MEMORY_MB = before;
    }
  });

  test("the pool is sized to the machine and OCR_WORKERS", () => {
    expect(poolSize()).toBeGreaterThanOrEqual(1);
    const before = process.env.OCR_WORKERS;
    process.env.OCR_WORKERS = "3";
    try {
      expect(poolSize()).toBe(3);
    } finally {
      if (before === undefined) delete process.env.OCR_WORKERS;
      else process.env.OCR_WORKERS = before;
    }
  });
});

describe("OCR of rendered text", () => {
  const pdf = makeTablesPdf([
    {
      size: [420, 160],
      texts: [
        { x: 20, y: 20, text: "The quick brown fox", size: 20 },
        { x: 20, y: 60, text: "jumps over 12 lazy dogs.", size: 20 },
      ],
    },
  ]);

  test("ocrImage reads words with boxes in points and line ids", async () => {
    const g = renderPageGray(pdf, 0, 300);
    const r = await ocrImage({ ...g, channels: 1, dpi: 300 });
    expect(textOf(r.words)).toBe("The quick brown fox jumps over 12 lazy dogs.");
    const the = r.words[0];
    expect(the.x0).toBeGreaterThan(18);
    expect(the.x0).toBeLessThan(24);
    expect(the.y0).toBeGreaterThan(18);
    expect(the.ocr).toBe(true);
    expect(new Set(r.words.map((w) => w.lineId)).size).toBe(2);
    expect(r.width).toBeCloseTo(420, 0);
  });

  test("French with eng+fra keeps accents", async () => {
    const fr = makeTablesPdf([{ size: [420, 80], texts: [{ x: 20, y: 20, text: "Le café était très agréable", size: 20 }] }]);
    const g = renderPageGray(fr, 0, 300);
    const r = await ocrImage({ ...g, channels: 1, dpi: 300 }, { langs: parseLanguages("fra") });
    expect(textOf(r.words)).toBe("Le café était très agréable");
  });

  test("sniffKind tells PDFs from images", () => {
    expect(sniffKind(pdf)).toBe("pdf");
    expect(sniffKind(renderPagePng(pdf, 0, 72))).toBe("image");
    expect(sniffKind(Buffer.from("hello"))).toBe(null);
  });

  test("Auto threshold: 7 characters are OCRed under the default 8, not under 5; Never never", async () => {
    const short = makeTablesPdf([{ size: [300, 100], texts: [{ x: 20, y: 20, text: "Hi there", size: 20 }] }]);
    const auto = await getPageTexts(short, { ocrMode: "Auto", minTextLength: 8 });
    expect(auto.ocrPages).toEqual([0]);
    // The short text layer's words are kept (exact), not replaced by their OCR reading.
    expect(textOf(auto.pages[0].words)).toBe("Hi there");
    expect(auto.pages[0].words.every((w) => !w.ocr)).toBe(true);
    expect((await getPageTexts(short, { ocrMode: "Auto", minTextLength: 5 })).ocrPages).toEqual([]);
    expect((await getPageTexts(short, { ocrMode: "Never", minTextLength: 100 })).ocrPages).toEqual([]);
  });

  test("TextFromImagesOnly keeps the text layer and adds text found in images", async () => {
    const picture = renderPagePng(makeTablesPdf([{ size: [300, 60], texts: [{ x: 10, y: 15, text: "Stamped PAID", size: 24 }] }]), 0, 200);
    const doc = new mupdf.PDFDocument(makeTablesPdf([{ size: [400, 300], texts: [{ x: 20, y: 20, text: "Invoice 42", size: 16 }] }]));
    try {
      const page = doc.loadPage(0) as mupdf.PDFPage;
      const img = doc.addImage(new mupdf.Image(picture));
      const res = page.getObject().get("Resources");
      const xo = doc.newDictionary();
      xo.put("Im9", img);
      res.put("XObject", xo);
      const content = doc.addStream("q 300 0 0 60 20 120 cm /Im9 Do Q", {});
      const contents = page.getObject().get("Contents");
      const arr = doc.newArray();
      arr.push(contents);
      arr.push(content);
      page.getObject().put("Contents", arr);
      const bytes = Buffer.from(doc.saveToBuffer("").asUint8Array());
      const r = await getPageTexts(bytes, { ocrMode: "TextFromImagesOnly" });
      const words = r.pages[0].words;
      expect(words.filter((w) => !w.ocr).map((w) => w.text)).toEqual(["Invoice", "42"]);
      expect(textOf(words.filter((w) => w.ocr))).toBe("Stamped PAID");
    } finally {
      doc.destroy();
    }
  });

  test("Auto on a picture with a short caption: the caption from the text layer, the picture's text from OCR", async () => {
    const picture = renderPagePng(makeTablesPdf([{ size: [300, 60], texts: [{ x: 10, y: 15, text: "Stamped PAID", size: 24 }] }]), 0, 200);
    // The caption touches the picture (as a label set right after an image): read from the page
    // as drawn, OCR saw the two together and lost the caption's first letter.
    const doc = new mupdf.PDFDocument(makeTablesPdf([{ size: [400, 300], texts: [{ x: 322, y: 162, text: "Test", size: 14 }] }]));
    try {
      const page = doc.loadPage(0) as mupdf.PDFPage;
      const img = doc.addImage(new mupdf.Image(picture));
      const res = page.getObject().get("Resources");
      const xo = doc.newDictionary();
      xo.put("Im9", img);
      res.put("XObject", xo);
      const arr = doc.newArray();
      arr.push(page.getObject().get("Contents"));
      arr.push(doc.addStream("q 300 0 0 60 20 120 cm /Im9 Do Q", {}));
      page.getObject().put("Contents", arr);
      const bytes = Buffer.from(doc.saveToBuffer("").asUint8Array());
      const r = await getPageTexts(bytes, { ocrMode: "Auto" });
      expect(r.ocrPages).toEqual([0]);
      const words = r.pages[0].words;
      expect(words.filter((w) => !w.ocr).map((w) => w.text)).toEqual(["Test"]);
      expect(textOf(words.filter((w) => w.ocr))).toBe("Stamped PAID");
    } finally {
      doc.destroy();
    }
  });

  test("multi-page TIFF and JPEG sources; pages select frames; grayscale + gamma accepted", async () => {
    const two = makeTablesPdf([
      { size: [300, 80], texts: [{ x: 20, y: 20, text: "Page one", size: 24 }] },
      { size: [300, 80], texts: [{ x: 20, y: 20, text: "Page two", size: 24 }] },
    ]);
    const tiff = makeMultiPageTiff([renderPageGray(two, 0, 200), renderPageGray(two, 1, 200)], 200);
    const r = await getPageTexts(tiff, { grayscale: true, gamma: [1.4] });
    expect(r.kind).toBe("image");
    expect(r.pageCount).toBe(2);
    expect(r.pages.map((p) => textOf(p.words))).toEqual(["Page one", "Page two"]);
    expect(r.pages[0].width).toBeCloseTo(300, 0); // 200 dpi → points
    const second = await getPageTexts(tiff, { pages: "1" });
    expect(second.pages.map((p) => textOf(p.words))).toEqual(["Page two"]);
    const jpeg = await sharp(renderPagePng(two, 0, 200)).jpeg({ quality: 90 }).toBuffer();
    expect(textOf((await getPageTexts(jpeg)).pages[0].words)).toBe("Page one");
  });

  test("a scanned PDF at 72 dpi OCRResolution still reads large text; 71 → 454", async () => {
    const scan = imageToPdf(renderPagePng(makeTablesPdf([{ size: [300, 80], texts: [{ x: 20, y: 20, text: "LARGE TEXT", size: 30 }] }]), 0, 200), 200);
    expect(textOf((await getPageTexts(scan, { ocrResolution: 150 })).pages[0].words)).toBe("LARGE TEXT");
    await expect(getPageTexts(scan, { ocrResolution: 71 })).rejects.toMatchObject({ status: 454 });
  });
});
