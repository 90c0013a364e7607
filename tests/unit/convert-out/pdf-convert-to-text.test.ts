import { afterAll, afterEach, describe, expect, test } from "vitest";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { operation as textOp } from "@/lib/operations/pdf-convert-to-text/contract";
import { run as runText } from "@/lib/operations/pdf-convert-to-text/runner";
import { operation as simpleOp } from "@/lib/operations/pdf-convert-to-text-simple/contract";
import { run as runSimple } from "@/lib/operations/pdf-convert-to-text-simple/runner";
import { makeDamagedPdf } from "@/tests/helpers/pdf-fixtures";
import { cleanupContexts, contextFor, gridRows, imageToPdf, makeTablesPdf, renderPagePng, type PageSpec } from "@/tests/helpers/extract-fixtures";

afterEach(cleanupContexts);
afterAll(shutdownOcr);

/** A title across the page, then two columns of six lines each, baselines aligned. */
function twoColumnPage(): PageSpec {
  const texts: PageSpec["texts"] = [{ x: 72, y: 60, text: "The Quarterly Review of Things", size: 16 }];
  for (let i = 0; i < 6; i++) {
    texts.push({ x: 72, y: 110 + i * 16, text: `left column line ${i + 1} ends here` });
    texts.push({ x: 320, y: 110 + i * 16, text: `right column line ${i + 1} ends here` });
  }
  texts.push({ x: 72, y: 300, text: "A footer spanning both columns of the page, from margin to margin", size: 12 });
  return { texts };
}

async function textOf(bytes: Uint8Array, params: Record<string, unknown> = {}) {
  const ctx = await contextFor(textOp.params, bytes, params);
  const r = await runText(ctx);
  return { text: r.inlineText ?? "", result: r };
}

async function simpleOf(bytes: Uint8Array, params: Record<string, unknown> = {}) {
  const ctx = await contextFor(simpleOp.params, bytes, params);
  const r = await runSimple(ctx);
  return { text: r.inlineText ?? "", result: r };
}

describe("pdf-convert-to-text-simple (reading order)", () => {
  test("a two-column page is read column by column, title first and footer last", async () => {
    const { text, result } = await simpleOf(makeTablesPdf([twoColumnPage()]));
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("The Quarterly Review of Things");
    expect(lines.slice(1, 7)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `left column line ${i} ends here`));
    expect(lines.slice(7, 13)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `right column line ${i} ends here`));
    expect(lines[13]).toBe("A footer spanning both columns of the page, from margin to margin");
    expect(result.pageCount).toBe(1);
    expect(result.outputs?.[0].name).toBe("source.txt");
  });

  test("lineEnding LF and pages: pages are separated by a form feed", async () => {
    const pdf = makeTablesPdf([1, 2, 3].map((n) => ({ texts: [{ x: 72, y: 72, text: `Page ${n}` }] })));
    const { text, result } = await simpleOf(pdf, { lineEnding: "LF", pages: "0,2" });
    expect(text).toBe("Page 1\n\fPage 3\n");
    expect(result.pageCount).toBe(2);
  });
});

describe("pdf-convert-to-text (layout)", () => {
  test("columns stay side by side on the same text line", async () => {
    const { text } = await textOf(makeTablesPdf([twoColumnPage()]));
    const lines = text.split("\r\n");
    const row = lines.find((l) => l.startsWith("left column line 3"));
    expect(row).toMatch(/^left column line 3 ends here {2,}right column line 3 ends here$/);
    // The right column starts at the same character column on every line.
    const starts = lines.filter((l) => l.includes("right column")).map((l) => l.indexOf("right"));
    expect(new Set(starts).size).toBe(1);
    expect(text).toContain("The Quarterly Review of Things");
  });

  test("rect keeps only the words inside the area", async () => {
    const { text } = await textOf(makeTablesPdf([twoColumnPage()]), { rect: "300 100 290 120" });
    expect(text).toContain("right column line 1 ends here");
    expect(text).not.toContain("left column");
    expect(text.split("\r\n")[0]).toBe("right column line 1 ends here");
  });

  test("lineGrouping 1 keeps a multi-line cell in its column; unwrap joins it", async () => {
    const rows = [["Item", "Description"], ["A-1", "first line\nsecond line"], ["B-2", "short"]];
    const pdf = makeTablesPdf([{ tables: [{ x: 60, y: 100, cols: [100, 200], rows }] }]);
    const grouped = (await textOf(pdf, { lineGrouping: "1" })).text.split("\r\n");
    const first = grouped.find((l) => l.includes("first line"))!;
    const second = grouped.find((l) => l.includes("second line"))!;
    expect(first.startsWith("A-1")).toBe(true);
    expect(second.trim()).toBe("second line");
    expect(second.indexOf("second")).toBe(first.indexOf("first"));
    const unwrapped = (await textOf(pdf, { lineGrouping: "1", unwrap: true })).text;
    expect(unwrapped).toMatch(/A-1 +first line second line/);
  });

  test("a scanned page is OCRed (lang eng)", async () => {
    const pdf = makeTablesPdf([{ texts: [{ x: 72, y: 100, text: "Scanned invoice total 1234", size: 20 }] }]);
    const scan = imageToPdf(renderPagePng(pdf, 0, 300));
    const { text, result } = await textOf(scan, { lang: "eng" });
    expect(text.replace(/\s+/g, " ")).toContain("Scanned invoice total 1234");
    expect(result.pageCount).toBe(1);
  }, 60_000);

  test("a grid table keeps its rows on separate lines", async () => {
    const grid = gridRows(3, 3);
    const pdf = makeTablesPdf([{ tables: [{ x: 60, y: 100, cols: [100, 100, 100], rows: grid }] }]);
    const lines = (await textOf(pdf)).text.split("\r\n").filter(Boolean);
    expect(lines.length).toBe(grid.length);
    expect(lines[0].split(/\s{2,}/)).toEqual(grid[0]);
  });
});

describe("reading order of tables", () => {
  test("a table with short cells is read row by row, not column by column", async () => {
    const rows = [["Name", "Qty", "Total"], ["Bolts", "4", "1,250.00"], ["Nuts", "10", "99.00"]];
    const pdf = makeTablesPdf([{ tables: [{ x: 72, y: 100, cols: [100, 80, 80], rows }] }]);
    const ctx = await contextFor(simpleOp.params, pdf);
    const text = (await runSimple(ctx)).inlineText!;
    expect(text).toBe("Name Qty Total\r\nBolts 4 1,250.00\r\nNuts 10 99.00\r\n");
  });
});

describe("bad input", () => {
  test("a damaged file → 442, an unknown OCR language → 400, pages past the end → 449", async () => {
    const status = async (bytes: Uint8Array, params: Record<string, unknown>) => {
      try {
        await textOf(bytes, params);
      } catch (e) {
        return (e as { status?: number }).status;
      }
      return 200;
    };
    expect(await status(Buffer.from("not a pdf at all"), {})).toBe(442);
    // Page trees that MuPDF opens but cannot deliver a page of (qpdf's fuzzed files): 442, not 500.
    expect(await status(makeDamagedPdf("kids-missing"), {})).toBe(442);
    expect(await status(makeDamagedPdf("kids-broken"), {})).toBe(442);
    expect(await status(makeDamagedPdf("kids-broken"), { lineGrouping: "1" })).toBe(442);
    expect(await status(makeTablesPdf([twoColumnPage()]), { lang: "klingon" })).toBe(400);
    expect(await status(makeTablesPdf([twoColumnPage()]), { pages: "3" })).toBe(449);
    expect(await status(makeTablesPdf([twoColumnPage()]), { rect: "5000 5000 10 10" })).toBe(454);
  });
});
