import { existsSync } from "node:fs";
import * as mupdf from "mupdf";
import { afterEach, describe, expect, test } from "vitest";
import { BOX_FAMILY, boxFont, boxFontFace, boxTextWidth } from "@/lib/engine/html/box-font";
import { operation } from "@/lib/operations/pdf-convert-to-html/contract";
import { run } from "@/lib/operations/pdf-convert-to-html/runner";
import { extractPageText } from "@/lib/engine/text/words";
import { cleanupContexts, contextFor } from "@/tests/helpers/extract-fixtures";
import { DEJAVU, glyphPdf } from "@/tests/helpers/glyph-pdf";

afterEach(cleanupContexts);

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

describe("box font (transparent text of a known width)", () => {
  test("widths: 0.5 em a character, combining marks and format characters none", () => {
    expect(boxTextWidth("abc")).toBe(1.5);
    expect(boxTextWidth("حَبيبي")).toBe(2.5); // the fatha has no advance
    expect(boxTextWidth("e\u0301")).toBe(0.5); // composed: é
    expect(boxTextWidth("a\u200db")).toBe(1);
    expect(boxTextWidth("\ufffd\ufffd")).toBe(1);
  });

  test("a TrueType file with the tables browsers require", () => {
    const f = boxFont();
    const v = new DataView(f.buffer, f.byteOffset, f.byteLength);
    expect(v.getUint32(0)).toBe(0x00010000);
    const tags = Array.from({ length: v.getUint16(4) }, (_, i) => String.fromCharCode(...f.subarray(12 + 16 * i, 16 + 16 * i)));
    expect(tags).toEqual(["GSUB", "OS/2", "cmap", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "name", "post"]);
    // Whole-file checksum with head.checkSumAdjustment is the magic number.
    let sum = 0;
    for (let i = 0; i < f.length; i += 4) sum = (sum + v.getUint32(i)) >>> 0;
    expect(sum).toBe(0xb1b0afba);
  });
});

describe.skipIf(!existsSync(chromiumPath))("box font and transparent text in Chromium", () => {
  async function withPage<T>(html: string, fn: (page: import("playwright-core").Page) => Promise<T>): Promise<T> {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 1100 }, deviceScaleFactor: 1 });
      await page.setContent(html);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      return await fn(page);
    } finally {
      await browser.close();
    }
  }

  test("Chromium sets every script at the width boxTextWidth gives", async () => {
    const texts = ["Quire", "حَبيبي", "لا سلام", "שָׁלוֹם", "\ufffd\ufffd\ufffd", "日本語", "नमस्ते", "e\u0301te\u0301", "\u093fक", "\u0301a"];
    const html = `<style>${boxFontFace()} span{font-family:${BOX_FAMILY};font-size:20px;line-height:1;white-space:pre;position:absolute;left:0}</style>${texts.map((t, i) => `<span style="top:${i * 30}px">${t}</span>`).join("")}`;
    const rects = await withPage(html, (page) =>
      page.$$eval("span", (spans) =>
        spans.map((s) => {
          const r = document.createRange();
          r.selectNodeContents(s);
          const b = r.getBoundingClientRect();
          return { w: b.width, h: b.height };
        }),
      ),
    );
    texts.forEach((t, i) => {
      expect({ t, w: rects[i].w }).toEqual({ t, w: boxTextWidth(t) * 20 });
      expect(rects[i].h).toBe(20);
    });
  }, 60_000);

  test.skipIf(!existsSync(DEJAVU))("transparent words cover their glyphs: a right-to-left word, glyphs without Unicode", async () => {
    // سلام drawn in visual order (placed by its box); a word whose glyphs map to U+FFFD (a run over drawn glyphs).
    const rtl = glyphPdf([..."مالس"].map((ch) => ({ ch, text: ch })), { x: 100, y: 700, size: 30 });
    const unknown = glyphPdf([..."Quire"].map((ch) => ({ ch, text: "\ufffd" })), { x: 100, y: 700, size: 30 });
    for (const pdf of [rtl, unknown]) {
      const ctx = await contextFor(operation.params, pdf, { inline: true }, "page.pdf");
      const html = (await run(ctx)).inlineText ?? "";
      expect(html).toContain(`font-family:${BOX_FAMILY}`);
      const doc = new mupdf.PDFDocument(pdf);
      const [w] = extractPageText(doc, 0).words;
      doc.destroy();
      const s = 1024 / 400;
      const box = await withPage(html.replace("body{margin:0;padding:16px", "body{margin:0;padding:0"), (page) =>
        page.evaluate(() => {
          const root = document.querySelector(".page")!.getBoundingClientRect();
          const span = [...document.querySelectorAll("span")].find((x) => (x.textContent ?? "").trim() !== "")!;
          const r = document.createRange();
          r.selectNodeContents(span);
          const b = r.getBoundingClientRect();
          return { x0: b.left - root.left, y0: b.top - root.top, x1: b.right - root.left, y1: b.bottom - root.top, color: getComputedStyle(span).color };
        }),
      );
      expect(box.color).toBe("rgba(0, 0, 0, 0)");
      // The text's box is the word's box within a pixel and a half on every side (the words'
      // height is the font's, not the box's, for runs: compare horizontally there).
      expect(Math.abs(box.x0 - w.x0 * s)).toBeLessThan(1.5);
      expect(Math.abs(box.x1 - w.x1 * s)).toBeLessThan(1.5);
      expect(Math.abs((box.y0 + box.y1) / 2 - ((w.y0 + w.y1) / 2) * s)).toBeLessThan(4);
    }
  }, 90_000);
});
