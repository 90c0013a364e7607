/**
 * Positions of OCR words on the page as scanned: a scan turned a little is read level (rows and
 * columns are built on horizontal lines), and every position given back — rect areas, JSON
 * boxes, document parser and invoice sources, makesearchable's invisible text — lies where the
 * word is printed on the scan. The scans are generated: a page with known words (its text layer
 * says where each word is), rendered at 300 dpi, turned with sharp (which turns about the centre
 * onto a canvas grown to fit) and noised.
 */
import sharp from "sharp";
import * as mupdf from "mupdf";
import { afterAll, describe, expect, test, vi } from "vitest";
import { parseDocument } from "@/lib/engine/docparser/parse-document";
import { requireParserTemplate } from "@/lib/engine/docparser/template";
import { pagesToHtml } from "@/lib/engine/html/pdf-to-html";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { addOcrTextLayer } from "@/lib/engine/pdf/ocr-text-layer";
import { analysePages, segmentRows } from "@/lib/engine/tables/extract-tables";
import { applyPoint, mapBox, pageBox, rotationAbout } from "@/lib/engine/text/page-frame";
import { getPageTexts } from "@/lib/engine/text/page-texts";
import { textRows, toJson2Tree } from "@/lib/engine/text/structured-text";
import type { PageText, Word } from "@/lib/engine/text/types";
import { imageToPdf, makeTablesPdf, renderPagePng, type TextSpec } from "@/tests/helpers/extract-fixtures";

afterAll(shutdownOcr);
vi.setConfig({ testTimeout: 240_000 });

const LINES = [
  "Invoice 2024-0042 for the spring delivery",
  "Twelve wooden chairs and four oak tables",
  "Payment within thirty days of receipt",
  "Questions go to the accounts department",
];
/** A block of its own in the lower right: what a `rect` picks out. */
const BLOCK = ["TOTAL DUE", "EUR 1,234.50"];

function pagePdf(): Buffer {
  const texts: TextSpec[] = LINES.map((text, i) => ({ x: 30, y: 40 + i * 20, text, size: 11 }));
  texts.push(...BLOCK.map((text, i) => ({ x: 200, y: 320 + i * 20, text, size: 12 })));
  return makeTablesPdf([{ size: [340, 440], texts }]);
}

function rng(seed: number) {
  let x = seed;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** The page scanned at 300 dpi, turned `deg` clockwise (canvas grown to fit), noised; and the scan's size in points. */
async function scan(pdf: Uint8Array, deg: number): Promise<{ png: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(renderPagePng(pdf, 0, 300, true)).greyscale().rotate(deg, { background: "#ffffff" }).raw().toBuffer({ resolveWithObject: true });
  const rand = rng(7);
  for (let i = 0; i < data.length; i++) {
    let v = data[i] + (rand() - 0.5) * 30;
    if (rand() < 0.0003) v = 0;
    data[i] = Math.max(0, Math.min(255, v));
  }
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).png().withMetadata({ density: 300 }).toBuffer();
  return { png, width: (info.width * 72) / 300, height: (info.height * 72) / 300 };
}

/** Where a point of the unturned page (340 × 440 pt) lands on the scan turned `deg` (W × H pt). */
function onScan(deg: number, W: number, H: number, x: number, y: number): [number, number] {
  const [rx, ry] = applyPoint(rotationAbout(deg, 0, 0), x - 170, y - 220);
  return [rx + W / 2, ry + H / 2];
}

/** The words of the page as drawn (its text layer), by text. */
async function drawn(pdf: Uint8Array): Promise<Map<string, Word>> {
  const res = await getPageTexts(pdf, { ocrMode: "Never" });
  return new Map(res.pages[0].words.map((w) => [w.text, w]));
}

const contains = (b: { x0: number; y0: number; x1: number; y1: number }, [x, y]: [number, number], slack: number) =>
  x >= b.x0 - slack && x <= b.x1 + slack && y >= b.y0 - slack && y <= b.y1 + slack;

describe.each([2.5, -1.2])("a scan turned %s°", (deg) => {
  test("each word's box on the scan holds where it was printed; a rect around one block gives exactly its words", async () => {
    const pdf = pagePdf();
    const truth = await drawn(pdf);
    const sc = await scan(pdf, deg);
    const res = await getPageTexts(sc.png);
    const page = res.pages[0];
    expect(Math.abs((page.ocrSkew ?? 0) - deg)).toBeLessThanOrEqual(0.15);
    expect(page.ocrFrame).toBeDefined();
    // Rows are built level: each printed line is one row.
    const rows = segmentRows(analysePages([page], {})).map((r) => r.join(" ").replace(/\s+/g, " ").trim());
    for (const line of LINES) expect(rows).toContain(line);

    let checked = 0;
    for (const w of page.words) {
      const t = truth.get(w.text);
      if (!t || w.text.length < 5) continue;
      const centre = onScan(deg, sc.width, sc.height, (t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2);
      const box = pageBox(page, w);
      expect(contains(box, centre, 1), `${w.text}: ${JSON.stringify(box)} vs ${centre}`).toBe(true);
      // Within a few points of the printed word's centre.
      expect(Math.hypot((box.x0 + box.x1) / 2 - centre[0], (box.y0 + box.y1) / 2 - centre[1])).toBeLessThan(3);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(12);

    // The block's outline on the scan, a few points of margin: the area a user would draw.
    const blockWords = [...truth.values()].filter((w) => w.y0 > 300);
    const corners = blockWords.flatMap((w) => [onScan(deg, sc.width, sc.height, w.x0, w.y0), onScan(deg, sc.width, sc.height, w.x1, w.y1)]);
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    const area = { x: Math.min(...xs) - 6, y: Math.min(...ys) - 6, width: Math.max(...xs) - Math.min(...xs) + 12, height: Math.max(...ys) - Math.min(...ys) + 12 };
    const picked = textRows(page, area);
    expect(picked.rows.map((r) => r.cells.map((c) => c.object?.text).join(" "))).toEqual(BLOCK);
    expect(segmentRows(analysePages([page], {}, area)).map((r) => r.join(" ").replace(/\s+/g, " ").trim())).toEqual(BLOCK);
    // JSON boxes are on the scan too, and the page says how it was straightened.
    const json = toJson2Tree([picked], 1, 1) as { document: { page: { deskewAngle?: number; width: number; row: { column: { x: number; y: number; width: number; height: number }[] }[] }[] } };
    const jp = json.document.page[0];
    expect(jp.deskewAngle).toBe(page.ocrSkew);
    expect(jp.width).toBeCloseTo(sc.width, 0);
    const cell = jp.row[0].column[0];
    const total = truth.get("TOTAL")!;
    const c = onScan(deg, sc.width, sc.height, (total.x0 + total.x1) / 2, (total.y0 + total.y1) / 2);
    expect(contains({ x0: cell.x, y0: cell.y, x1: cell.x + cell.width, y1: cell.y + cell.height }, c, 1)).toBe(true);

    // HTML: each transparent word over the scan, turned with its line, centred where it is printed.
    const { html } = await pagesToHtml([page], { kind: "image", bytes: sc.png, pageCount: 1 }, { pageWidth: sc.width, saveImages: 0 });
    expect(html).toContain(`data-ocr-skew="${page.ocrSkew}"`);
    const wooden = page.words.find((w) => w.text === "wooden")!;
    const span = new RegExp(`left:([\\d.-]+)px;top:([\\d.-]+)px;height:([\\d.]+)px;[^"]*rotate\\(([\\d.-]+)deg\\)[^>]*>wooden<`).exec(html);
    expect(span).not.toBeNull();
    const [left, top, h, turn] = span!.slice(1).map(Number);
    expect(Math.abs(turn - deg)).toBeLessThanOrEqual(0.15);
    const printed = onScan(deg, sc.width, sc.height, (truth.get("wooden")!.x0 + truth.get("wooden")!.x1) / 2, (truth.get("wooden")!.y0 + truth.get("wooden")!.y1) / 2);
    expect(Math.hypot(left + (wooden.x1 - wooden.x0) / 2 - printed[0], top + h / 2 - printed[1])).toBeLessThan(3);

    // A document parser rectangle field on the scan reads the block and reports its box there.
    const template = requireParserTemplate(`fields:\n  due:\n    type: rectangle\n    rectangle: [${[area.x, area.y, area.width, area.height].map((v) => v.toFixed(1)).join(", ")}]\n`);
    const parsed = parseDocument([page], template) as unknown as { objects: { value: string; x: number; y: number; width: number; height: number }[] };
    const due = parsed.objects[0];
    expect(due.value.replace(/\s+/g, " ")).toBe(BLOCK.join(" "));
    expect(contains({ x0: due.x, y0: due.y, x1: due.x + due.width, y1: due.y + due.height }, c, 1)).toBe(true);
  });
});

test("a scan lying sideways (turned 90° and 1.2°): read upright, boxes and rect on the sideways page", async () => {
  const deg = 1.2;
  const pdf = pagePdf();
  const truth = await drawn(pdf);
  const sc = await scan(pdf, deg);
  // Then a quarter turn clockwise: (x, y) of the skewed scan → (H − y, x) on the sideways one.
  const png = await sharp(sc.png).rotate(90).png().withMetadata({ density: 300 }).toBuffer();
  const onSideways = (x: number, y: number): [number, number] => {
    const [sx, sy] = onScan(deg, sc.width, sc.height, x, y);
    return [sc.height - sy, sx];
  };
  const page = (await getPageTexts(png)).pages[0];
  expect(page.ocrOrientation).toBe(270);
  expect(page.width).toBeLessThan(page.height); // laid out upright
  const rows = segmentRows(analysePages([page], {})).map((r) => r.join(" ").replace(/\s+/g, " ").trim());
  for (const line of LINES) expect(rows).toContain(line);
  let checked = 0;
  for (const w of page.words) {
    const t = truth.get(w.text);
    if (!t || w.text.length < 5) continue;
    const centre = onSideways((t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2);
    const box = pageBox(page, w);
    expect(contains(box, centre, 1), `${w.text}: ${JSON.stringify(box)} vs ${centre}`).toBe(true);
    checked++;
  }
  expect(checked).toBeGreaterThanOrEqual(12);
  // A rect around the block on the sideways page; the JSON page has the sideways page's size.
  const corners = [...truth.values()].filter((w) => w.y0 > 300).flatMap((w) => [onSideways(w.x0, w.y0), onSideways(w.x1, w.y1)]);
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const area = { x: Math.min(...xs) - 6, y: Math.min(...ys) - 6, width: Math.max(...xs) - Math.min(...xs) + 12, height: Math.max(...ys) - Math.min(...ys) + 12 };
  const picked = textRows(page, area);
  expect(picked.rows.map((r) => r.cells.map((c) => c.object?.text).join(" "))).toEqual(BLOCK);
  expect(picked.orientation).toBe(270);
  expect(picked.width).toBeCloseTo(sc.height, 0);
});

test("makesearchable's invisible words lie over the printed words of a skewed scan", async () => {
  const deg = 2.5;
  const pdf = pagePdf();
  const truth = await drawn(pdf);
  const sc = await scan(pdf, deg);
  const scanned = imageToPdf(sc.png, 300);
  const res = await getPageTexts(scanned, { rotation: 0, grayscale: true });
  const page: PageText = res.pages[0];
  expect(page.ocrFrame).toBeDefined();
  const doc = mupdf.Document.openDocument(scanned, "application/pdf").asPDF()!;
  try {
    expect(addOcrTextLayer(doc, [{ index: 0, words: page.words, frame: page.ocrFrame }])).toBeGreaterThan(20);
    const out = doc.saveToBuffer("").asUint8Array();
    // Read back as text: each word where it is printed on the scan.
    const layer = (await getPageTexts(out, { ocrMode: "Never", rotation: 0 })).pages[0];
    let checked = 0;
    for (const w of layer.words) {
      const t = truth.get(w.text);
      if (!t || w.text.length < 5) continue;
      const centre = onScan(deg, sc.width, sc.height, (t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2);
      expect(contains(w, centre, 2), `${w.text}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  } finally {
    doc.destroy();
  }
});

test("mapBox: the box around a turned box's corners; rotationAbout keeps its centre", () => {
  const m = rotationAbout(90, 50, 50);
  expect(applyPoint(m, 50, 50).map((v) => Math.round(v * 1e6) / 1e6)).toEqual([50, 50]);
  const b = mapBox(m, { x0: 60, y0: 45, x1: 80, y1: 55 });
  expect([b.x0, b.y0, b.x1, b.y1].map((v) => Math.round(v * 1e6) / 1e6)).toEqual([45, 60, 55, 80]);
});
