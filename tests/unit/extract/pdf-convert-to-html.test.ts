import { existsSync, readFileSync } from "node:fs";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import type { QuireError } from "@/lib/core/errors";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { operation } from "@/lib/operations/pdf-convert-to-html/contract";
import { run } from "@/lib/operations/pdf-convert-to-html/runner";
import { cleanupContexts, contextFor, gridRows, imageToPdf, makeTablesPdf, renderPagePng, type PageSpec } from "@/tests/helpers/extract-fixtures";
import { encryptPdf, makeDamagedPdf } from "@/tests/helpers/pdf-fixtures";

afterEach(cleanupContexts);
afterAll(shutdownOcr);

async function htmlOf(bytes: Uint8Array, params: Record<string, unknown> = {}, fileName?: string) {
  const ctx = await contextFor(operation.params, bytes, params, fileName);
  const result = await run(ctx);
  return { result, html: result.inlineText ?? "" };
}

async function errorOf(p: Promise<unknown>): Promise<QuireError> {
  try {
    await p;
  } catch (e) {
    return e as QuireError;
  }
  throw new Error("expected an error");
}

/** A page with styled text, a ruled table and a picture. */
function samplePage(): PageSpec {
  return {
    size: [612, 792],
    texts: [
      { x: 60, y: 50, text: "Quarterly Report", size: 24, bold: true },
      { x: 60, y: 90, text: "Prepared for the board", size: 12, italic: true, color: [0.8, 0.1, 0.1] },
      { x: 60, y: 120, text: "Serif body text in Times", size: 12, font: "Times-Roman" },
      { x: 60, y: 140, text: "Monospaced code sample", size: 11, font: "Courier" },
    ],
    tables: [{ x: 60, y: 200, cols: [150, 100, 100], rows: gridRows(3, 3), boldHeader: true }],
  };
}

function withPicture(pdf: Uint8Array): Buffer {
  const picture = renderPagePng(makeTablesPdf([{ size: [120, 60], texts: [{ x: 5, y: 20, text: "LOGO", size: 28, color: [0, 0.3, 0.8] }] }]), 0, 144);
  const doc = new mupdf.PDFDocument(Buffer.from(pdf));
  try {
    const page = doc.loadPage(0) as mupdf.PDFPage;
    const img = doc.addImage(new mupdf.Image(picture));
    const res = page.getObject().get("Resources");
    const xo = doc.newDictionary();
    xo.put("Im1", img);
    res.put("XObject", xo);
    const arr = doc.newArray();
    arr.push(page.getObject().get("Contents"));
    arr.push(doc.addStream("q 120 0 0 60 430 692 cm /Im1 Do Q", {}));
    page.getObject().put("Contents", arr);
    return Buffer.from(doc.saveToBuffer("").asUint8Array());
  } finally {
    doc.destroy();
  }
}

describe("pdf-convert-to-html runner", () => {
  test("positioned page: fonts, sizes, weights, styles, colours, a <table>, the drawing as background", async () => {
    const { html, result } = await htmlOf(withPicture(makeTablesPdf([samplePage()])));
    expect(result.pageCount).toBe(1);
    expect(result.outputs?.[0]).toMatchObject({ name: "source.html", contentType: "text/html" });
    expect(readFileSync(result.outputs![0].path, "utf8")).toBe(html);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('class="page" id="page0" style="width:1024px;height:1325.18px"');
    expect(html).toMatch(/font-weight:bold[^>]*>Quarterly</);
    expect(html).toMatch(/font-style:italic;color:#cc1a1a[^>]*>Prepared</);
    expect(html).toMatch(/Times New Roman[^>]*>Serif</);
    expect(html).toMatch(/Courier New[^>]*>Monospaced</);
    expect(html).toMatch(/<table class="t"/);
    expect((html.match(/<tr /g) ?? []).length).toBe(4);
    expect(html).toMatch(/<img class="bg" alt="" src="data:image\/jpeg;base64,/);
  });

  test("OutputPageWidth, AdditionalCssStyles, OptimizeImages false (PNG), saveImages 0 and 2", async () => {
    const pdf = withPicture(makeTablesPdf([samplePage()]));
    const wide = await htmlOf(pdf, { profiles: { OutputPageWidth: 612, AdditionalCssStyles: ".page{outline:1px solid red}", OptimizeImages: false } });
    expect(wide.html).toContain("width:612px;height:792px");
    expect(wide.html).toContain(".page{outline:1px solid red}");
    expect(wide.html).toMatch(/src="data:image\/png;base64,/);
    const none = await htmlOf(pdf, { profiles: { saveImages: 0 } });
    expect(none.html).not.toContain("<img");
    const files = await htmlOf(pdf, { profiles: { saveImages: 2 } });
    expect(files.html).toContain('src="page0-background.jpg"');
    expect(files.result.outputs?.map((o) => o.name)).toEqual(["source.html", "page0-background.jpg"]);
  });

  test("a text-only page needs no background image", async () => {
    const { html } = await htmlOf(makeTablesPdf([{ texts: [{ x: 60, y: 60, text: "Only text" }] }]));
    expect(html).not.toContain("<img");
  });

  test("simple: flowing headings, paragraphs and tables without positions; columns keeps text columns", async () => {
    const { html } = await htmlOf(withPicture(makeTablesPdf([samplePage()])), { simple: true });
    expect(html).not.toContain('class="w"');
    expect(html).toContain("<h1><b>Quarterly Report</b></h1>");
    expect(html).toContain('<p><span style="color:#cc1a1a"><i>Prepared for the board</i></span></p>');
    expect(html).toMatch(/<table><tr><td>Head 1<\/td>/);
    expect(html).toMatch(/<img alt="" src="data:image\/jpeg;base64,/);
    const left = Array.from({ length: 30 }, (_, i) => ({ x: 50, y: 60 + i * 20, text: `Left column line ${i + 1}` }));
    const right = Array.from({ length: 30 }, (_, i) => ({ x: 330, y: 60 + i * 20, text: `Right column line ${i + 1}` }));
    const twoCols = makeTablesPdf([{ texts: [...left, ...right] }]);
    const cols = await htmlOf(twoCols, { columns: true });
    expect(cols.html).toContain('<div class="cols">');
    const flowCols = cols.html.slice(cols.html.indexOf('<div class="cols">'));
    expect(flowCols.indexOf("Left column line 30")).toBeLessThan(flowCols.indexOf("Right column line 1<"));
  });

  test("RotationAngle turns the page, its drawing and its words", async () => {
    const sideways = makeTablesPdf([{ rotate: 90, tables: [{ x: 60, y: 80, cols: [100, 100], rows: gridRows(2, 2) }] }]);
    const plain = await htmlOf(sideways);
    expect(plain.html).toContain("width:1024px;height:791.27px"); // displayed landscape
    const turned = await htmlOf(sideways, { profiles: { RotationAngle: 3 } });
    expect(turned.html).toContain("width:1024px;height:1325.18px");
    expect(turned.html).toMatch(/<img class="bg"/);
    expect(turned.html).toMatch(/<table class="t"/);
  });

  test("a scan: the page image with transparent OCR text over it", async () => {
    const scan = imageToPdf(renderPagePng(makeTablesPdf([{ size: [400, 150], texts: [{ x: 20, y: 40, text: "Scanned letter text", size: 20 }] }]), 0, 200), 200);
    const { html } = await htmlOf(scan);
    expect(html).toMatch(/<img class="bg"/);
    expect(html).toMatch(/color:transparent[^>]*>Scanned</);
  });

  test("errors: 441 password, 442 damaged, 454 rect outside the page, 400 unknown lang", async () => {
    const pdf = makeTablesPdf([samplePage()]);
    expect((await errorOf(htmlOf(encryptPdf(pdf, { userPassword: "pw" })))).status).toBe(441);
    expect((await errorOf(htmlOf(makeDamagedPdf("truncated")))).status).toBe(442);
    expect((await errorOf(htmlOf(pdf, { rect: "2000 10 50 50" }))).status).toBe(454);
    expect((await errorOf(htmlOf(pdf, { lang: "zzz" }))).status).toBe(400);
    const area = await htmlOf(pdf, { rect: "50 40 300 40" });
    expect(area.html).toContain(">Quarterly<");
    expect(area.html).not.toContain(">Prepared<");
  });
});

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Fidelity: the HTML page rendered by Chromium against the PDF page rendered by MuPDF, at the
 * same size: every word's box in the DOM must overlap its PDF box, and the two pictures must
 * be alike pixel for pixel (after a slight blur, to forgive anti-aliasing and font hinting).
 */
describe.skipIf(!existsSync(chromiumPath))("pdf-convert-to-html fidelity in Chromium", () => {
  test("text overlap and pixel similarity", async () => {
    const { chromium } = await import("playwright-core");
    const pdf = withPicture(makeTablesPdf([samplePage()]));
    const width = 816; // 612 pt at 96 dpi
    const { html } = await htmlOf(pdf, { profiles: { OutputPageWidth: width } });
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 1200 }, deviceScaleFactor: 1 });
      await page.setContent(html.replace("body{margin:0;padding:16px", "body{margin:0;padding:0"));
      const el = (await page.$(".page"))!;
      const shot = await el.screenshot();
      // DOM boxes of the words (page-relative), in document order.
      const boxes = await page.$$eval("span.w", (spans) => {
        const root = document.querySelector(".page")!.getBoundingClientRect();
        return spans.map((s) => {
          const r = s.getBoundingClientRect();
          return { text: s.textContent ?? "", x0: r.left - root.left, y0: r.top - root.top, x1: r.right - root.left, y1: r.bottom - root.top };
        });
      });
      // The PDF's word boxes at the same scale.
      const doc = new mupdf.PDFDocument(pdf);
      const s = width / 612;
      const { extractPageTexts } = await import("@/lib/engine/text/words");
      const [pt] = extractPageTexts(doc, [0]);
      let matched = 0;
      for (const w of pt.words) {
        const b = boxes.find((x) => x.text === w.text && Math.abs(x.x0 - w.x0 * s) < 20 && Math.abs(x.y0 - w.y0 * s) < 20);
        if (!b) continue;
        const ix = Math.max(0, Math.min(b.x1, w.x1 * s) - Math.max(b.x0, w.x0 * s));
        const iy = Math.max(0, Math.min(b.y1, w.y1 * s) - Math.max(b.y0, w.y0 * s));
        const inter = ix * iy;
        const union = (b.x1 - b.x0) * (b.y1 - b.y0) + (w.x1 - w.x0) * (w.y1 - w.y0) * s * s - inter;
        if (inter / union > 0.6) matched++;
      }
      expect(matched / pt.words.length).toBeGreaterThan(0.9);
      // Pixels: MuPDF's render at the same size vs the screenshot, both gray, blurred.
      const p = doc.loadPage(0);
      const pix = p.toPixmap(mupdf.Matrix.scale(s, s), mupdf.ColorSpace.DeviceRGB, false, true);
      const ref = Buffer.from(pix.asPNG());
      pix.destroy();
      p.destroy();
      doc.destroy();
      const gray = async (png: Buffer) =>
        sharp(png).resize(width, Math.round(792 * s), { fit: "fill" }).grayscale().blur(1.5).raw().toBuffer();
      const [a, b] = await Promise.all([gray(ref), gray(shot)]);
      let diff = 0;
      for (let i = 0; i < a.length; i++) diff += Math.abs(a[i] - b[i]);
      const meanDiff = diff / a.length;
      expect(meanDiff).toBeLessThan(6); // of 255
    } finally {
      await browser.close();
    }
  }, 60_000);
});
