import * as mupdf from "mupdf";
import { afterAll, describe, expect, test } from "vitest";
import { boldWords, ocrImage, REREAD_BELOW, rereadUnsure, segmentHeights } from "@/lib/engine/ocr/ocr-image";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { getPageTexts, renderForOcr } from "@/lib/engine/text/page-texts";
import { makeTablesPdf } from "@/tests/helpers/extract-fixtures";
import { scannedPdf } from "@/tests/helpers/invoice-fixtures";

afterAll(shutdownOcr);

/** A 300 dpi gray page with a few words, the words as Tesseract reads them there, in pixels. */
async function page() {
  const pdf = makeTablesPdf([
    {
      size: [400, 200],
      texts: [
        { x: 30, y: 40, text: "Lucro" },
        { x: 150, y: 40, text: "Presumido" },
        { x: 30, y: 100, text: "Quarterly statement" },
      ],
    },
  ]);
  const doc = new mupdf.PDFDocument(pdf);
  try {
    const raster = renderForOcr(doc, 0, 300, true, false);
    const read = await ocrImage(raster, { reread: false });
    const k = 300 / 72;
    const raw = read.words.map((w, i) => ({ text: w.text, conf: w.confidence ?? 0, line: i, x0: w.x0 * k, y0: w.y0 * k, x1: w.x1 * k, y1: w.y1 * k }));
    return { raster, raw };
  } finally {
    doc.destroy();
  }
}

describe("OCR: unsure words read again on their own", () => {
  test("a garbled, unsure word is read again from its cut-out; sure words stay as they were", async () => {
    const { raster, raw } = await page();
    expect(raw.map((w) => w.text)).toEqual(["Lucro", "Presumido", "Quarterly", "statement"]);
    // What Tesseract gives beside a barcode: the right box, the wrong letters, no confidence.
    const garbled = raw.map((w) => (w.text === "Lucro" ? { ...w, text: "Lanero", conf: 5 } : w));
    const out = await rereadUnsure(raster, garbled, ["eng"]);
    expect(out.map((w) => w.text)).toEqual(["Lucro", "Presumido", "Quarterly", "statement"]);
    expect(out[0].conf).toBeGreaterThanOrEqual(REREAD_BELOW);
    expect(out[0].line).toBe(garbled[0].line);
    // The confident words are the very same objects (not read again).
    expect(out.slice(1)).toEqual(garbled.slice(1));
    expect(out[1]).toBe(garbled[1]);
  }, 60_000);

  test("two words Tesseract ran together into junk come back as two words, each in its place", async () => {
    const { raster, raw } = await page();
    const [a, b] = raw.filter((w) => w.line >= 2);
    const junk = { text: "Ouarterlystatemont", conf: 12, line: a.line, x0: a.x0, y0: Math.min(a.y0, b.y0), x1: b.x1, y1: Math.max(a.y1, b.y1) };
    const out = await rereadUnsure(raster, [raw[0], raw[1], junk], ["eng"]);
    expect(out.map((w) => w.text)).toEqual(["Lucro", "Presumido", "Quarterly", "statement"]);
    const [q, s] = out.slice(2);
    expect(q.x1).toBeLessThan(s.x0);
    expect(Math.abs(q.x0 - a.x0)).toBeLessThan(6);
    expect(Math.abs(s.x1 - b.x1)).toBeLessThan(6);
    expect(q.line).toBe(a.line);
  }, 60_000);

  test("a re-reading that is not surer leaves the word alone (a blank cut-out reads as nothing)", async () => {
    const { raster, raw } = await page();
    // A box over white paper: nothing to read there, the old reading stays.
    const blank = { text: "Xq", conf: 40, line: 9, x0: 1200, y0: 600, x1: 1400, y1: 660 };
    const out = await rereadUnsure(raster, [...raw, blank], ["eng"]);
    expect(out[out.length - 1]).toBe(blank);
    expect(out).toHaveLength(raw.length + 1);
  }, 60_000);
});

describe("OCR: font size per segment of an OCR line", () => {
  const box = (x0: number, h: number) => ({ x0, x1: x0 + 60, y0: 100, y1: 100 + h });
  test("a line running across columns: each column's words keep their own height", () => {
    // One Tesseract line: an 8 pt address (h 30) at the left, a 20 pt title (h 75) far to the right.
    const raw = [
      { text: "Avenida", conf: 95, line: 0 },
      { text: "Paulista", conf: 95, line: 0 },
      { text: "DANFE", conf: 95, line: 0 },
    ];
    const boxes = [box(0, 30), box(65, 28), box(600, 75)];
    expect(segmentHeights(raw, boxes)).toEqual([30, 30, 75]);
  });

  test("an unsure barcode or a lone mark does not set the segment's height", () => {
    const raw = [
      { text: "Empresa", conf: 93, line: 3 },
      { text: "TLMMMTITTIUIT", conf: 0, line: 3 },
      { text: "Ltda", conf: 96, line: 3 },
      { text: ".", conf: 90, line: 4 },
    ];
    const boxes = [box(0, 50), box(62, 97), box(124, 48), box(0, 6)];
    // The "." alone on its line takes the line's typical height (its own, having nothing else).
    expect(segmentHeights(raw, boxes)).toEqual([50, 50, 50, 6]);
  });
});

describe("OCR: bold words told from the pixels", () => {
  test("a 200 dpi scan: the bold name and captions are bold, the regular print of every size is not", async () => {
    const texts = [
      { x: 40, y: 40, text: "Brightwater Logistics GmbH", size: 14, bold: true },
      { x: 40, y: 62, text: "Hafenstrasse 12, 20457 Hamburg", size: 8 },
      { x: 40, y: 74, text: "Telefon 040 123456, info@brightwater.example", size: 7 },
      { x: 330, y: 40, text: "Invoice", size: 18 },
      { x: 330, y: 70, text: "Invoice number", size: 8, bold: true },
      { x: 450, y: 70, text: "RE-2024-0917", size: 8 },
      { x: 330, y: 82, text: "Invoice date", size: 8, bold: true },
      { x: 450, y: 82, text: "12 March 2024", size: 8 },
      { x: 40, y: 120, text: "Thank you for your order, we invoice the following services", size: 10 },
      { x: 40, y: 136, text: "Storage of pallets in the northern warehouse during February", size: 10 },
      { x: 40, y: 152, text: "Transport from the port terminal to the customer site", size: 10 },
      { x: 40, y: 200, text: "Total amount due", size: 10, bold: true },
      { x: 450, y: 200, text: "1,250.00 EUR", size: 10, bold: true },
      { x: 40, y: 230, text: "Payable within fourteen days without deduction", size: 7 },
    ];
    const pdf = makeTablesPdf([{ size: [595, 300], texts }]);
    const res = await getPageTexts(scannedPdf(pdf, 200), { ocrMode: "Auto" });
    const words = res.pages[0].words.filter((w) => /[\p{L}\p{N}]{2}/u.test(w.text));
    expect(words.length).toBeGreaterThan(50);
    // The text a word was printed in: on its line, the nearest start to its left.
    const boldOf = (w: { y0: number; x0: number }) => {
      const line = texts.filter((t) => Math.abs(t.y + (t.size ?? 10) * 0.5 - (w.y0 + 2)) < (t.size ?? 10) && t.x <= w.x0 + 4);
      return line.sort((a, b) => b.x - a.x)[0]?.bold ?? false;
    };
    const wrong = words.filter((w) => w.bold !== boldOf(w)).map((w) => `${w.text}${w.bold ? " (bold)" : ""}`);
    // One word in twenty may be misjudged (a scan's blur), no more.
    expect(wrong.length, wrong.join(", ")).toBeLessThanOrEqual(Math.floor(words.length / 20));
    expect(words.filter((w) => /^Brightwater|^Logistics|^Total$/.test(w.text)).every((w) => w.bold)).toBe(true);
  }, 60_000);

  test("too few words to tell: none is bold", () => {
    const page = { data: new Uint8Array(100 * 100).fill(0), width: 100, height: 100, channels: 1 as const, dpi: 300 };
    const raw = [{ text: "Total", conf: 95, x0: 0, y0: 0, x1: 50, y1: 20 }];
    expect(boldWords(page, raw, [20])).toEqual([false]);
  });
});
