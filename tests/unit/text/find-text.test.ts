import { afterAll, describe, expect, test } from "vitest";
import { compileSearch, findOnPage } from "@/lib/engine/text/find-text";
import { run as find } from "@/lib/operations/pdf-find/runner";
import { run as findTable } from "@/lib/operations/pdf-find-table/runner";
import type { PageText, Word } from "@/lib/engine/text/types";
import { makePdf } from "@/tests/helpers/pdf-fixtures";
import { makeTablePdf } from "@/tests/helpers/text-fixtures";
import { messageOf, runRunner, statusOf, workspace } from "../pages/run-helper";

/** lib/engine/text/find-text.ts (pure) and the pdf-find / pdf-find-table runners. */

const ws = workspace("quire-text-");
afterAll(() => ws.cleanup());

const word = (text: string, x0: number, lineId: number, y0 = 100 + lineId * 20): Word => ({
  text,
  x0,
  x1: x0 + text.length * 6,
  y0,
  y1: y0 + 12,
  fontSize: 10,
  fontName: "Helvetica",
  bold: false,
  italic: false,
  color: 0,
  lineId,
});

const page = (...words: Word[]): PageText => ({ index: 3, width: 612, height: 792, rotation: 0, words, rules: [] });

describe("compileSearch and findOnPage", () => {
  const p = page(word("Invoice:", 72, 0), word("Invoices", 130, 0), word("total", 72, 1), word("due", 110, 1));

  test.each([
    ["None", 2],
    ["SmartMatch", 1],
    ["ExactMatch", 0],
  ] as const)("wordMatchingMode %s finds 'Invoice' %i time(s)", (mode, n) => {
    expect(findOnPage(p, compileSearch("Invoice", { wordMatching: mode, caseSensitive: true }))).toHaveLength(n);
  });

  test("a phrase across a line break gives one match with a box per line", () => {
    const [m] = findOnPage(p, compileSearch("invoices  total", {}));
    expect(m.pageIndex).toBe(3);
    expect(m.text).toBe("Invoices total");
    expect(m.lines).toHaveLength(2);
    expect(m.box).toEqual({ x0: 72, y0: 100, x1: 178, y1: 132 });
  });

  test("the box of a match inside a word covers only its characters", () => {
    const [m] = findOnPage(p, compileSearch("voice:", { caseSensitive: true }));
    expect(m.box.x0).toBeCloseTo(84);
    expect(m.box.x1).toBeCloseTo(120);
  });

  test("case sensitivity and regular expressions", () => {
    expect(findOnPage(p, compileSearch("TOTAL", { caseSensitive: true }))).toHaveLength(0);
    expect(findOnPage(p, compileSearch("TOTAL", { caseSensitive: false }))).toHaveLength(1);
    expect(findOnPage(p, compileSearch("^t\\w+ d", { regex: true })).map((m) => m.text)).toEqual(["total d"]);
  });

  test("escapes other regex dialects allow (\\_, \\:) still work", () => {
    const q = page(word("due_date:", 72, 0));
    expect(findOnPage(q, compileSearch("due\\_date\\:", { regex: true })).map((m) => m.text)).toEqual(["due_date:"]);
  });

  test("an invalid regular expression or an empty search → 400", () => {
    expect(() => compileSearch("(unclosed", { regex: true })).toThrow(/searchString: not a valid regular expression/);
    expect(() => compileSearch("  ")).toThrow(/searchString/);
  });
});

describe("pdf-find runner", () => {
  const pdf = makePdf({ pages: 3, text: (i) => `Invoice ${i + 1}\nTotal due: ${100 * (i + 1)} EUR` });

  test("every occurrence with its page and box (top-left origin, points)", async () => {
    const r = await runRunner(find, { url: "x", searchString: "Total due", inline: true }, [ws.source("a.pdf", pdf)], ws.dir);
    const body = r.fields!.body as { pageIndex: number; text: string; left: number; top: number; width: number; height: number }[];
    expect(body.map((m) => m.pageIndex)).toEqual([0, 1, 2]);
    expect(body[0].text).toBe("Total due");
    // The fixture draws its second line at baseline 792 - 72 - 30 (102 pt from the top) in 24 pt type, from x = 72.
    expect(body[0].left).toBeCloseTo(72, 0);
    // The box runs from the font's ascender to its descender around the baseline at 102 pt from the top.
    expect(body[0].top).toBeGreaterThan(70);
    expect(body[0].top).toBeLessThan(102);
    expect(body[0].top + body[0].height).toBeGreaterThan(102);
    expect(body[0].height).toBeGreaterThan(20);
    expect(body[0].width).toBeGreaterThan(90);
    expect(r.outputs ?? []).toHaveLength(0);
    expect(r.pageCount).toBe(3);
  });

  test("pages, regexSearch and the JSON file without inline", async () => {
    const r = await runRunner(find, { url: "x", searchString: "\\d{3} EUR", regexSearch: true, pages: "1-" }, [ws.source("a.pdf", pdf)], ws.dir);
    const body = r.fields!.body as { text: string }[];
    expect(body.map((m) => m.text)).toEqual(["200 EUR", "300 EUR"]);
    expect(JSON.parse(r.files[0].toString())).toEqual(body);
    expect(r.outputs![0].name).toBe("result.json");
    expect(r.pageCount).toBe(3);
    expect(r.pagesProcessed).toBe(2);
  });

  test("nothing found → an empty list; bad regex → 400; page past the end → 449", async () => {
    const none = await runRunner(find, { url: "x", searchString: "nowhere", inline: true }, [ws.source("a.pdf", pdf)], ws.dir);
    expect(none.fields!.body).toEqual([]);
    expect(await statusOf(runRunner(find, { url: "x", searchString: "[", regexSearch: true }, [ws.source("a.pdf", pdf)], ws.dir))).toBe(400);
    expect(await statusOf(runRunner(find, { url: "x", searchString: "a", pages: "7" }, [ws.source("a.pdf", pdf)], ws.dir))).toBe(449);
    expect(await messageOf(runRunner(find, { url: "x", searchString: "(", regexSearch: true }, [ws.source("a.pdf", pdf)], ws.dir))).toMatch(/searchString/);
  });
});

describe("pdf-find-table runner", () => {
  test("a bordered table: its page, box, rect and column edges", async () => {
    const r = await runRunner(findTable, { url: "x", inline: true }, [ws.source("t.pdf", makeTablePdf())], ws.dir);
    const tables = (r.fields!.body as { tables: { PageIndex: number; X: number; Y: number; Width: number; Height: number; rect: string; Columns: number[]; Rows: number }[] }).tables;
    expect(tables).toHaveLength(1);
    const t = tables[0];
    expect(t.PageIndex).toBe(1);
    expect(t.X).toBeCloseTo(72, 0);
    expect(t.Y).toBeCloseTo(200, 0);
    expect(t.Width).toBeCloseTo(300, 0);
    expect(t.Height).toBeCloseTo(80, 0);
    expect(t.Columns.map(Math.round)).toEqual([72, 172, 272]);
    expect(t.Rows).toBe(4);
    expect(t.rect).toBe(`${t.X},${t.Y},${t.Width},${t.Height}`);
  });
});
