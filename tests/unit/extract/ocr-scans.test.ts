/**
 * OCR on scans as scanners deliver them: slightly skewed with noise, turned a quarter or half
 * turn, in other languages, through both engines (native Tesseract and tesseract.js).
 * The scans are generated: text pages made with the fixtures, rendered with MuPDF, turned and
 * noised with sharp.
 */
import sharp from "sharp";
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";
import { detectSkew, levelBox } from "@/lib/engine/ocr/deskew";
import { nativeAvailable, ocrEngine, parseTsv, runTesseract } from "@/lib/engine/ocr/native";
import { ocrImage } from "@/lib/engine/ocr/ocr-image";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import type { Raster } from "@/lib/engine/ocr/preprocess";
import { analysePages, segmentRows } from "@/lib/engine/tables/extract-tables";
import { resolveExtraction } from "@/lib/engine/tables/extraction-options";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { imageToPdf, imageToPdfPages, makeTablesPdf, renderPagePng, type TextSpec } from "@/tests/helpers/extract-fixtures";

afterAll(shutdownOcr);
// Every test OCRs several generated scans; a shared machine can be slow.
vi.setConfig({ testTimeout: 240_000 });
const engineBefore = process.env.OCR_ENGINE;
afterEach(() => {
  if (engineBefore === undefined) delete process.env.OCR_ENGINE;
  else process.env.OCR_ENGINE = engineBefore;
});

const LINES = [
  "Invoice 2024-0042 for the spring delivery",
  "Twelve wooden chairs and four oak tables",
  "Payment within thirty days of receipt",
  "Questions go to the accounts department",
  "Thank you for your continued business",
];

/** A small portrait page (A6-like, to keep the tests quick) with LINES in two blocks, 11 pt. */
function letterPdf(lines = LINES): Buffer {
  const texts: TextSpec[] = lines.map((text, i) => ({ x: 30, y: 40 + i * 20, text, size: 11 }));
  texts.push(...lines.slice(0, 3).map((text, i) => ({ x: 30, y: 220 + i * 20, text: text.toUpperCase(), size: 10 })));
  return makeTablesPdf([{ size: [340, 440], texts }]);
}

/** Deterministic noise generator. */
function rng(seed: number) {
  let x = seed;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** The page as a 300 dpi gray scan turned `deg` degrees clockwise, with ±noise/2 grey levels of noise and specks. */
async function scan(pdf: Uint8Array, deg: number, noise = 30, quarter = 0): Promise<Buffer> {
  const png = renderPagePng(pdf, 0, 300, true);
  let img = sharp(png).greyscale();
  if (deg) img = img.rotate(deg, { background: "#ffffff" });
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const rand = rng(42);
  for (let i = 0; i < data.length; i++) {
    let v = data[i] + (rand() - 0.5) * noise;
    if (rand() < 0.0003) v = 0;
    data[i] = Math.max(0, Math.min(255, v));
  }
  let out = sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } });
  if (quarter) out = sharp(await out.png().toBuffer()).rotate(quarter);
  return out.png().withMetadata({ density: 300 }).toBuffer();
}

async function raster(png: Buffer): Promise<Raster> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 1, dpi: 300 };
}

/** CSV rows of a scan through the normal path, cells joined by spaces. */
async function csvRows(bytes: Uint8Array, lang?: string): Promise<string[]> {
  const opts = resolveExtraction({});
  const texts = await getPageTexts(bytes, { ...opts.text, lang });
  return segmentRows(analysePages(texts.pages, opts.table, opts.area)).map((r) => r.join(" ").replace(/\s+/g, " ").trim());
}

describe("skew detection", () => {
  test("finds the angle of a page turned 1–4° either way, and nothing on a level or blank page", async () => {
    const pdf = letterPdf();
    expect(detectSkew(await raster(await scan(pdf, 0)))).toBe(0);
    for (const deg of [1, -2.5, 3.8]) {
      // sharp turns clockwise for positive angles: text lines then run downwards to the right.
      expect(Math.abs(detectSkew(await raster(await scan(pdf, deg))) - deg)).toBeLessThanOrEqual(0.1);
    }
    const blank = makeTablesPdf([{ size: [300, 420], texts: [] }]);
    expect(detectSkew(await raster(await scan(blank, 2)))).toBe(0);
  });

  test("levelBox turns a box's centre back and undoes the growth of its outline", () => {
    // A 100×20 box at the centre of a 1000×1000 page, read on a page turned 2° clockwise.
    const a = (2 * Math.PI) / 180;
    const W = 100 * Math.cos(a) + 20 * Math.sin(a);
    const H = 100 * Math.sin(a) + 20 * Math.cos(a);
    const b = levelBox({ x0: 500 - W / 2, y0: 500 - H / 2, x1: 500 + W / 2, y1: 500 + H / 2 }, 1000, 1000, 2);
    expect(b.x1 - b.x0).toBeCloseTo(100, 1);
    expect(b.y1 - b.y0).toBeCloseTo(20, 1);
    // A point right of the centre on a line running down to the right comes back level.
    const right = levelBox({ x0: 895, y0: 500 + 400 * Math.tan(a) - 5, x1: 905, y1: 500 + 400 * Math.tan(a) + 5 }, 1000, 1000, 2);
    expect((right.y0 + right.y1) / 2).toBeCloseTo(500, 0);
  });
});

const engines = nativeAvailable() ? (["native", "wasm"] as const) : (["wasm"] as const);

describe.each(engines)("OCR of skewed, noisy scans (%s engine)", (engine) => {
  test("a page turned 2.5° gives one CSV row per printed line, words in order", async () => {
    process.env.OCR_ENGINE = engine;
    expect(ocrEngine()).toBe(engine);
    const rows = await csvRows(await scan(letterPdf(), 2.5));
    for (const line of LINES) expect(rows).toContain(line);
    for (const line of LINES.slice(0, 3)) expect(rows).toContain(line.toUpperCase());
  });

  test("turned the other way (-1.2°, read as it is, boxes mapped level) inside a scanned PDF: the skew is reported, words sit on level lines", async () => {
    process.env.OCR_ENGINE = engine;
    const pdf = imageToPdf(await scan(letterPdf(), -1.2), 300);
    const res = await getPageTexts(pdf, { ocrMode: "Auto" });
    const page = res.pages[0];
    expect(Math.abs((page.ocrSkew ?? 0) + 1.2)).toBeLessThanOrEqual(0.1);
    // The words of the first line share a baseline band on the level page.
    const first = page.words.filter((w) => w.lineId === page.words[0].lineId);
    expect(first.map((w) => w.text).join(" ")).toBe(LINES[0]);
    const mids = first.map((w) => (w.y0 + w.y1) / 2);
    expect(Math.max(...mids) - Math.min(...mids)).toBeLessThan(4);
    expect(first[0].fontSize).toBeGreaterThan(9);
    expect(first[0].fontSize).toBeLessThan(16);
  });
});

describe("orientation", () => {
  test("pages scanned upside down or sideways (plus skew) are turned upright before reading", async () => {
    for (const quarter of [180, 90]) {
      const rows = await csvRows(await scan(letterPdf(), 1.2, 20, quarter));
      for (const line of LINES.slice(0, 4)) expect(rows).toContain(line);
      const res = await getPageTexts(await scan(letterPdf(), 0, 10, quarter));
      expect(res.pages[0].ocrOrientation).toBe(360 - quarter);
      expect(res.pages[0].width).toBeLessThan(res.pages[0].height); // portrait again
    }
  });

  test("an explicit RotationAngle turns off the automatic orientation", async () => {
    const res = await getPageTexts(await scan(letterPdf(), 0, 10, 180), { rotation: 0 });
    expect(res.pages[0].ocrOrientation).toBeUndefined();
  });
});

describe("languages and the native engine", () => {
  test.runIf(nativeAvailable())("German and Dutch read with their own models, both engines alike", async () => {
    const de = makeTablesPdf([{ size: [595, 200], texts: [{ x: 40, y: 40, text: "Größe der Straße: Übergabe am Fußweg", size: 16 }] }]);
    const nl = makeTablesPdf([{ size: [595, 200], texts: [{ x: 40, y: 40, text: "Betaling binnen dertig dagen na ontvangst", size: 16 }] }]);
    for (const engine of engines) {
      process.env.OCR_ENGINE = engine;
      expect(await csvRows(renderPagePng(de, 0, 300), "deu")).toEqual(["Größe der Straße: Übergabe am Fußweg"]);
      expect(await csvRows(renderPagePng(nl, 0, 300), "nld+eng")).toEqual(["Betaling binnen dertig dagen na ontvangst"]);
    }
  });

  test.runIf(nativeAvailable())("a failing native run is a clean error and the next page reads normally", async () => {
    process.env.OCR_ENGINE = "native";
    const bad: Raster = { data: new Uint8Array(0), width: 0, height: 0, channels: 1, dpi: 300 };
    await expect(ocrImage(bad)).rejects.toThrow(/OCR/);
    const ok = await ocrImage(await raster(await scan(letterPdf(), 0, 0)));
    expect(ok.words.map((w) => w.text).slice(0, 3)).toEqual(["Invoice", "2024-0042", "for"]);
    expect(ok.engine).toBe("native");
  });

  test.runIf(nativeAvailable())("TSV parsing keeps tabs out of the text and skips the header", () => {
    const rows = parseTsv("level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n5\t1\t1\t1\t1\t1\t10\t20\t30\t40\t96.5\tHello\n");
    expect(rows).toEqual([{ level: 5, block: 1, par: 1, line: 1, left: 10, top: 20, width: 30, height: 40, conf: 96.5, text: "Hello" }]);
  });

  test.runIf(nativeAvailable())("runTesseract: an unreadable image is a non-zero exit, not a hang", async () => {
    const res = await runTesseract(Buffer.alloc(0), ["--psm", "3"]);
    expect(res.code).not.toBe(0);
  });

  test("OCR_ENGINE=wasm forces tesseract.js; an unknown value means auto", () => {
    process.env.OCR_ENGINE = "wasm";
    expect(ocrEngine()).toBe("wasm");
    process.env.OCR_ENGINE = "whatever";
    expect(ocrEngine()).toBe(nativeAvailable() ? "native" : "wasm");
  });
});

describe("multi-page scans", () => {
  test("pages of a scanned PDF are OCRed in parallel and come back in order", async () => {
    const pages = await Promise.all(
      [0, 1, 2, 3].map(async (k) => scan(makeTablesPdf([{ size: [400, 200], texts: [{ x: 30, y: 40, text: `Scanned page number ${k + 1}`, size: 18 }] }]), k % 2 ? 1.5 : -1, 10)),
    );
    const res = await getPageTexts(imageToPdfPages(pages, 300));
    expect(res.ocrPages).toEqual([0, 1, 2, 3]);
    expect(res.pages.map((p) => p.words.map((w) => w.text).join(" "))).toEqual([1, 2, 3, 4].map((n) => `Scanned page number ${n}`));
  });
});
