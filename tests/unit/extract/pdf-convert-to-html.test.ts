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
import { htmlFixturePages, makeHtmlFixturePdf } from "@/tests/helpers/html-fixtures";
import { decompress } from "wawoff2";
import { ssim } from "@/lib/engine/optimize/ssim";

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

const LIGHT = { EmbedFonts: false, VectorGraphics: false };

/** The CSS rule of a class (`.f3{...}`) in the HTML's style sheet. */
function cssRule(html: string, cls: string): string {
  return new RegExp(`\\.${cls}\\{([^}]*)\\}`).exec(html)?.[1] ?? "";
}

/** The class of the span holding `text` (`r f3` → `f3`). */
function runClass(html: string, text: string): string {
  return new RegExp(`<span class="r (f\\d+(?:v\\d+)?)"[^>]*>${text}<`).exec(html)?.[1] ?? "";
}

describe("pdf-convert-to-html runner", () => {
  test("positioned page: the document's fonts as web fonts, colours, a <table>, the drawing as SVG", async () => {
    const { html, result } = await htmlOf(withPicture(makeTablesPdf([samplePage()])));
    expect(result.pageCount).toBe(1);
    expect(result.outputs?.[0]).toMatchObject({ name: "source.html", contentType: "text/html" });
    expect(readFileSync(result.outputs![0].path, "utf8")).toBe(html);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('class="page" id="page0" style="width:1024px;height:1325.18px"');
    // Times (not embedded) → a web font of Liberation Serif outlines, serif stack, Times' widths.
    const serif = runClass(html, "Serif");
    expect(serif).toMatch(/^f\d+$/);
    expect(cssRule(html, serif)).toMatch(/^font-family:qf\d+,'Liberation Serif','Times New Roman',Times,serif;font-weight:400;font-style:normal$/);
    expect(cssRule(html, runClass(html, "Monospaced"))).toContain("'Liberation Mono'");
    expect(cssRule(html, runClass(html, "Quarterly"))).toMatch(/'Liberation Sans'.*font-weight:700/);
    expect(cssRule(html, runClass(html, "Prepared"))).toContain("font-style:italic");
    expect(html).toMatch(/color:#cc1a1a">Prepared</);
    expect((html.match(/@font-face\{font-family:qf\d+;src:url\(data:font\/woff2;base64,/g) ?? []).length).toBe(5);
    expect(html).not.toMatch(/src:url\((?!data:)/);
    expect(html).toMatch(/<table class="t"/);
    expect((html.match(/<tr /g) ?? []).length).toBe(4);
    // The drawing: inline SVG with the table's rules and the picture, no page image.
    expect(html).toMatch(/<svg class="bg"[^>]*viewBox="0 0 612 792"/);
    expect(html).toMatch(/<image [^>]*xlink:href="data:image\/png;base64,/);
    expect(html).not.toMatch(/<img class="bg"/);
  });

  test("an embedded TrueType font is rebuilt from its own glyphs and referenced by its runs", async () => {
    const page = htmlFixturePages().find((p) => p.name === "embedded-truetype");
    if (!page) return; // Liberation fonts not installed
    const { html } = await htmlOf(makeHtmlFixturePdf(page));
    const cls = runClass(html, "Embedded");
    expect(cls).toMatch(/^f\d+$/);
    const family = /^font-family:(qf\d+),'Liberation Serif'/.exec(cssRule(html, cls))?.[1];
    expect(family).toBeDefined();
    const woff2 = new RegExp(`@font-face\\{font-family:${family};src:url\\(data:font/woff2;base64,([^)]+)\\)`).exec(html)?.[1];
    const otf = await decompress(Buffer.from(woff2!, "base64"));
    // The rebuilt font maps Unicode to the embedded glyphs with the PDF's widths (Liberation Serif: "E" 611/1000 em, "m" 778).
    const ot = await import("opentype.js");
    const lib = ((ot as unknown as { parse?: unknown }).parse ? ot : ot.default) as unknown as { parse(b: ArrayBuffer): { charToGlyph(c: string): { advanceWidth: number; path: { commands: unknown[] } }; numGlyphs: number } };
    const font = lib.parse(otf.buffer.slice(otf.byteOffset, otf.byteOffset + otf.byteLength) as ArrayBuffer);
    expect(font.charToGlyph("E").advanceWidth).toBe(610);
    expect(font.charToGlyph("m").advanceWidth).toBe(777);
    expect(font.charToGlyph("m").path.commands.length).toBeGreaterThan(10);
    const used = new Set([...page.runs.map((r) => r.text).join("")].filter((c) => c !== " "));
    expect(font.numGlyphs).toBe(used.size + 1); // .notdef + the characters shown, nothing more
  });

  test("inline: true answers the HTML with the fonts and images as data: URIs", async () => {
    const { result, html } = await htmlOf(withPicture(makeTablesPdf([samplePage()])), { inline: true });
    expect(result.inlineText).toBe(html);
    expect(html).toMatch(/@font-face\{font-family:qf0;src:url\(data:font\/woff2;base64,/);
    expect(html).not.toMatch(/(src|href)="(?!data:|#)/);
  });

  test("the lightweight output (EmbedFonts and VectorGraphics false): local font stacks over one page image", async () => {
    const { html } = await htmlOf(withPicture(makeTablesPdf([samplePage()])), { profiles: LIGHT });
    expect(html).not.toContain("@font-face");
    expect(html).not.toContain("<svg");
    expect(html).toMatch(/font-weight:bold[^>]*>Quarterly</);
    expect(html).toMatch(/font-style:italic;color:#cc1a1a[^>]*>Prepared</);
    expect(html).toMatch(/Times New Roman[^>]*>Serif</);
    expect(html).toMatch(/Courier New[^>]*>Monospaced</);
    expect(html).toMatch(/<table class="t"/);
    expect(html).toMatch(/<img class="bg" alt="" src="data:image\/jpeg;base64,/);
    // Vector graphics alone keep the local fonts; fonts alone draw the page as an image.
    const vector = await htmlOf(withPicture(makeTablesPdf([samplePage()])), { profiles: { EmbedFonts: false } });
    expect(vector.html).not.toContain("@font-face");
    expect(vector.html).toMatch(/<svg class="bg"/);
    const fontsOnly = await htmlOf(withPicture(makeTablesPdf([samplePage()])), { profiles: { VectorGraphics: false } });
    expect(fontsOnly.html).toContain("@font-face");
    expect(fontsOnly.html).toMatch(/<img class="bg" alt="" src="data:image\/jpeg;base64,/);
  });

  test("rotated text keeps its direction (CSS matrix about the baseline start)", async () => {
    const page = htmlFixturePages().find((p) => p.name === "rotated")!;
    const { html } = await htmlOf(makeHtmlFixturePdf(page));
    expect(html).toMatch(/transform:matrix\(0,-1,1,0,0,0\)">Running</);
    expect(html).toMatch(/transform:matrix\(0,1,-1,0,0,0\)">Running</);
    expect(html).toMatch(/transform:matrix\(0\.866,-0\.5,0\.5,0\.866,0,0\)">Tilted</);
  });

  test("OutputPageWidth, AdditionalCssStyles, OptimizeImages false (PNG), saveImages 0 and 2", async () => {
    const pdf = withPicture(makeTablesPdf([samplePage()]));
    const wide = await htmlOf(pdf, { profiles: { ...LIGHT, OutputPageWidth: 612, AdditionalCssStyles: ".page{outline:1px solid red}", OptimizeImages: false } });
    expect(wide.html).toContain("width:612px;height:792px");
    expect(wide.html).toContain(".page{outline:1px solid red}");
    expect(wide.html).toMatch(/src="data:image\/png;base64,/);
    const none = await htmlOf(pdf, { profiles: { saveImages: 0 } });
    expect(none.html).not.toContain("<img");
    const files = await htmlOf(pdf, { profiles: { ...LIGHT, saveImages: 2 } });
    expect(files.html).toContain('src="page0-background.jpg"');
    expect(files.result.outputs?.map((o) => o.name)).toEqual(["source.html", "page0-background.jpg"]);
    // Vector drawing: its images become the files.
    const svgFiles = await htmlOf(pdf, { profiles: { saveImages: 2 } });
    expect(svgFiles.html).toContain('xlink:href="p0-image1.png"');
    expect(svgFiles.result.outputs?.map((o) => o.name)).toEqual(["source.html", "p0-image1.png"]);
    const textOnly = await htmlOf(pdf, { profiles: { saveImages: 0 } });
    expect(textOnly.html).not.toMatch(/<svg|<img/);
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
    expect(turned.html).toMatch(/<svg class="bg"[^>]*viewBox="0 0 612 792"/);
    const turnedLight = await htmlOf(sideways, { profiles: { ...LIGHT, RotationAngle: 3 } });
    expect(turnedLight.html).toMatch(/<img class="bg"/);
    expect(turned.html).toMatch(/<table class="t"/);
  });

  test("a scan: the page image with transparent OCR text over it", async () => {
    const scan = imageToPdf(renderPagePng(makeTablesPdf([{ size: [400, 150], texts: [{ x: 20, y: 40, text: "Scanned letter text", size: 20 }] }]), 0, 200), 200);
    const { html } = await htmlOf(scan);
    expect(html).toMatch(/<svg class="bg"[\s\S]*<image /);
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
 * same size: every word's box in the DOM must overlap its PDF box, the two pictures must be
 * alike (SSIM, and pixel for pixel after a slight blur), and a ruled table's lines must be
 * where the PDF draws them.
 */
describe.skipIf(!existsSync(chromiumPath))("pdf-convert-to-html fidelity in Chromium", () => {
  async function rendered(pdf: Uint8Array, width: number, params: Record<string, unknown> = {}) {
    const { chromium } = await import("playwright-core");
    const { html } = await htmlOf(pdf, { ...params, profiles: { OutputPageWidth: width, ...((params.profiles as object) ?? {}) } });
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    try {
      const page = await browser.newPage({ viewport: { width: width + 50, height: 1400 }, deviceScaleFactor: 1 });
      await page.setContent(html.replace("body{margin:0;padding:16px", "body{margin:0;padding:0").replace("box-shadow:0 1px 4px rgba(0,0,0,.3)}", "}"));
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const shot = await (await page.$(".page"))!.screenshot();
      const boxes = await page.$$eval("span.w, span.r", (spans) => {
        const root = document.querySelector(".page")!.getBoundingClientRect();
        return spans.map((s) => {
          const r = s.getBoundingClientRect();
          return { text: s.textContent ?? "", x0: r.left - root.left, y0: r.top - root.top, x1: r.right - root.left, y1: r.bottom - root.top };
        });
      });
      return { html, shot, boxes };
    } finally {
      await browser.close();
    }
  }

  async function grays(pdf: Uint8Array, shot: Buffer, width: number) {
    const doc = new mupdf.PDFDocument(Buffer.from(pdf));
    const p = doc.loadPage(0);
    const [, , pw, ph] = p.getBounds();
    const s = width / pw;
    const pix = p.toPixmap(mupdf.Matrix.scale(s, s), mupdf.ColorSpace.DeviceRGB, false, true);
    const ref = Buffer.from(pix.asPNG());
    pix.destroy();
    p.destroy();
    doc.destroy();
    const h = Math.round(ph * s);
    const gray = async (png: Buffer) => new Uint8Array(await sharp(png).resize(width, h, { fit: "fill" }).grayscale().raw().toBuffer());
    const [a, b] = await Promise.all([gray(ref), gray(shot)]);
    return { a, b, h, s };
  }

  test("a serif page: word boxes overlap, SSIM ≥ 0.85, pixels alike", async () => {
    const fixture = htmlFixturePages().find((p) => p.name === "serif")!;
    const pdf = makeHtmlFixturePdf(fixture);
    const width = 816;
    const { shot, boxes } = await rendered(pdf, width);
    const doc = new mupdf.PDFDocument(pdf);
    const { extractPageTexts } = await import("@/lib/engine/text/words");
    const [pt] = extractPageTexts(doc, [0]);
    doc.destroy();
    const s = width / 612;
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
    expect(pt.words.length).toBeGreaterThan(300);
    expect(matched / pt.words.length).toBeGreaterThan(0.9);
    const { a, b, h } = await grays(pdf, shot, width);
    expect(ssim({ data: a, width, height: h }, { data: b, width, height: h })).toBeGreaterThan(0.85);
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i] - b[i]);
    expect(diff / a.length).toBeLessThan(6); // of 255
  }, 90_000);

  test("a ruled table keeps its lines (SVG) under selectable text", async () => {
    const fixture = htmlFixturePages().find((p) => p.name === "ruled-table")!;
    const pdf = makeHtmlFixturePdf(fixture);
    const width = 1024;
    const { html, shot, boxes } = await rendered(pdf, width);
    expect(html).toMatch(/<svg class="bg"[^>]*>[\s\S]*<path[^>]*stroke/);
    expect(boxes.some((b) => b.text === "Quantity")).toBe(true);
    const { a, b, h, s } = await grays(pdf, shot, width);
    expect(ssim({ data: a, width, height: h }, { data: b, width, height: h })).toBeGreaterThan(0.9);
    // Every horizontal rule of the fixture (y = 130 + 22 r pt, x 72…542 pt) is dark in the HTML's picture.
    for (let r = 0; r <= 14; r++) {
      const y = Math.round((130 + 22 * r) * s);
      let dark = 0;
      let n = 0;
      for (let x = Math.round(80 * s); x < Math.round(530 * s); x += 7) {
        const v = Math.min(b[(y - 1) * width + x], b[y * width + x], b[(y + 1) * width + x]);
        n++;
        if (v < 160) dark++;
      }
      expect(dark / n).toBeGreaterThan(0.9);
    }
  }, 90_000);
});
