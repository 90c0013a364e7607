import { afterAll, describe, expect, it, vi } from "vitest";
import fs from "node:fs";
import * as XLSX from "@e965/xlsx";
import { shutdownBrowserPool } from "@/lib/engine/browser/browser-pool";
import { rowsToJson, rowsToText, rowsToXml, sheetRows } from "@/lib/engine/sheets/sheet-rows";
import type { Runner } from "@/lib/operations/runner-types";
import { run as fromCsv } from "@/lib/operations/pdf-convert-from-csv/runner";
import { run as fromDoc } from "@/lib/operations/pdf-convert-from-doc/runner";
import { run as fromEmail } from "@/lib/operations/pdf-convert-from-email/runner";
import { run as toHtml } from "@/lib/operations/xls-convert-to-html/runner";
import { run as toJson } from "@/lib/operations/xls-convert-to-json/runner";
import { run as toPdf } from "@/lib/operations/xls-convert-to-pdf/runner";
import { run as toTxt } from "@/lib/operations/xls-convert-to-txt/runner";
import { run as toXml } from "@/lib/operations/xls-convert-to-xml/runner";
import { makeTempDir, readPdf, sourceFile } from "@/tests/helpers/convert-fixtures";
import { makeDocx, makeEml } from "@/tests/helpers/office-fixtures";

/** The runners of the conversions to PDF and of xls → html/json/txt/xml, on generated files. */

function book(): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["ignored"]]), "First");
  const ws = XLSX.utils.aoa_to_sheet([
    ["City", "Population", "", "City"],
    ["Paris", 2102650, "a<b", "x"],
    ["Oslo", 709037, 'say "hi"', "y"],
  ]);
  XLSX.utils.book_append_sheet(wb, ws, "Cities & more");
  return XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer;
}

async function runWith<P>(run: Runner<P>, params: P, file?: { name: string; bytes: Buffer }) {
  const { dir, cleanup } = makeTempDir();
  try {
    const sources = file ? [sourceFile(dir, file.name, file.bytes)] : [];
    const result = await run({ params, sources, workDir: dir, fetchUrl: async () => { throw new Error("unused"); }, log: () => {} });
    const out = result.outputs?.[0];
    return { result, bytes: out ? fs.readFileSync(out.path) : Buffer.alloc(0), name: out?.name, type: out?.contentType };
  } finally {
    cleanup();
  }
}

afterAll(() => shutdownBrowserPool());
// LibreOffice and Chromium share two cores with the rest of the suite.
vi.setConfig({ testTimeout: 120_000 });

describe("xls-convert-to-html, -json, -txt, -xml", () => {
  const file = { name: "book.xlsx", bytes: book() };

  it("html: a table of the chosen sheet, header in <thead>, text escaped", async () => {
    const { bytes, name, type, result } = await runWith(toHtml, { url: "x", worksheetIndex: "2", name: "cities" }, file);
    const html = bytes.toString("utf8");
    expect(name).toBe("cities.html");
    expect(type).toBe("text/html");
    expect(html).toContain("<title>Cities &amp; more</title>");
    expect(html).toContain("<thead><tr><th>City</th><th>Population</th>");
    expect(html).toContain("<td>a&lt;b</td>");
    expect(html).not.toContain("ignored");
    expect(result.inlineText).toBe(html);
  });

  it("json: one object per row keyed by the header (empty and repeated headers renamed)", async () => {
    const { bytes } = await runWith(toJson, { url: "x", worksheetIndex: "2" }, file);
    expect(JSON.parse(bytes.toString("utf8"))).toEqual([
      { City: "Paris", Population: "2102650", "Column 3": "a<b", City_2: "x" },
      { City: "Oslo", Population: "709037", "Column 3": 'say "hi"', City_2: "y" },
    ]);
  });

  it("txt: aligned columns", async () => {
    const { bytes } = await runWith(toTxt, { url: "x", worksheetIndex: "2" }, file);
    expect(bytes.toString("utf8").split("\r\n")).toEqual([
      "City   Population  ........  City".replace("........", "        "),
      "Paris  2102650     a<b       x",
      'Oslo   709037      say "hi"  y',
      "",
    ]);
  });

  it("xml: rows and cells with their positions", async () => {
    const { bytes } = await runWith(toXml, { url: "x", worksheetIndex: "2" }, file);
    const xml = bytes.toString("utf8");
    expect(xml).toContain('<sheet name="Cities &amp; more">');
    expect(xml).toContain('<row index="2"><cell column="A" index="1">Paris</cell><cell column="B" index="2">2102650</cell><cell column="C" index="3">a&lt;b</cell>');
  });

  it("worksheetIndex past the end → 454; the first sheet by default", async () => {
    await expect(runWith(toJson, { url: "x", worksheetIndex: "3" }, file)).rejects.toMatchObject({ status: 454 });
    const { bytes } = await runWith(toTxt, { url: "x" }, file);
    expect(bytes.toString("utf8")).toBe("ignored\r\n");
  });

  it("engine: CSV in, the same rows out", () => {
    const rows = sheetRows(Buffer.from("a,b\r\n1,\"x, y\"\r\n")).rows;
    expect(rows).toEqual([["a", "b"], ["1", "x, y"]]);
    expect(rowsToJson(rows)).toBe(JSON.stringify([{ a: "1", b: "x, y" }], null, 2));
    expect(rowsToText([])).toBe("");
    expect(rowsToXml([], "S")).toContain('<sheet name="S">');
  });
});

describe("pdf-convert-from-doc, xls-convert-to-pdf, pdf-convert-from-csv, pdf-convert-from-email", () => {
  it("pdf-convert-from-doc: a 3-page docx → 3 pages, named as asked", async () => {
    const { bytes, name, result } = await runWith(fromDoc, { url: "x", name: "letter" }, { name: "letter.docx", bytes: makeDocx({ pages: 3 }) });
    expect(name).toBe("letter.pdf");
    expect(result.pageCount).toBe(3);
    expect(readPdf(bytes).texts[2]).toContain("Page 3");
  });

  it("pdf-convert-from-doc: a workbook → 415 pointing to /v1/xls/convert/to/pdf", async () => {
    await expect(runWith(fromDoc, { url: "x" }, { name: "book.xlsx", bytes: book() })).rejects.toMatchObject({ status: 415 });
  });

  it("xls-convert-to-pdf: worksheetIndex prints that sheet only", async () => {
    const { bytes } = await runWith(toPdf, { url: "x", worksheetIndex: "2" }, { name: "book.xlsx", bytes: book() });
    const text = readPdf(bytes).texts.join("\n");
    expect(text).toContain("Paris");
    expect(text).not.toContain("ignored");
  });

  it("xls-convert-to-pdf: a CSV file is a one-sheet workbook", async () => {
    const { bytes, result } = await runWith(toPdf, { url: "x" }, { name: "upload", bytes: Buffer.from("Fruit,Qty\r\nQuince,7\r\n") });
    expect(result.pageCount).toBe(1);
    expect(readPdf(bytes).texts[0]).toMatch(/Quince\s+7/);
  });

  it("pdf-convert-from-csv: a table", async () => {
    const { bytes, result } = await runWith(fromCsv, { url: "x" }, { name: "t.csv", bytes: Buffer.from("h1,h2\r\nv1,v2\r\n") });
    expect(result.pageCount).toBe(1);
    expect(readPdf(bytes).texts[0]).toMatch(/h1\s+h2/);
  });

  it("pdf-convert-from-email: the message, then its converted attachment", async () => {
    const eml = makeEml({
      subject: "With CSV",
      from: "a@example.com",
      to: "b@example.com",
      text: "See the table.",
      attachments: [{ name: "t.csv", mime: "text/csv", data: Buffer.from("k,v\r\n1,2\r\n") }],
    });
    const { bytes, result } = await runWith(fromEmail, { url: "x", embedAttachments: false }, { name: "m.eml", bytes: eml });
    expect(result.pageCount).toBe(2);
    const r = readPdf(bytes);
    expect(r.texts[0]).toContain("See the table.");
    expect(r.texts[1]).toMatch(/k\s+v/);
  });
});
