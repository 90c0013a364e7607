import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as XLSX from "@e965/xlsx";
import ExcelJS from "exceljs";
import { afterEach, describe, expect, test } from "vitest";
import { typeCell } from "@/lib/engine/tables/to-workbook";
import { operation as csvOp } from "@/lib/operations/pdf-convert-to-csv/contract";
import { run as runCsv } from "@/lib/operations/pdf-convert-to-csv/runner";
import { operation as xlsOp } from "@/lib/operations/pdf-convert-to-xls/contract";
import { run as runXls } from "@/lib/operations/pdf-convert-to-xls/runner";
import { operation as xlsxOp } from "@/lib/operations/pdf-convert-to-xlsx/contract";
import { run as runXlsx } from "@/lib/operations/pdf-convert-to-xlsx/runner";
import { cleanupContexts, contextFor, makeTablesPdf, tableBottom, type TableSpec } from "@/tests/helpers/extract-fixtures";

afterEach(cleanupContexts);

const invoice: TableSpec = {
  x: 60,
  y: 120,
  cols: [120, 90, 90, 90],
  rows: [
    ["Item", "Date", "Qty", "Amount"],
    ["Widget", "2024-03-15", "3", "$1,234.50"],
    ["Gadget", "03/31/2024", "12", "(45.00)"],
    ["Code 00123", "15.04.2024", "7.5%", "-2,000"],
  ],
};
const merged: TableSpec = {
  x: 60,
  y: tableBottom(invoice) + 60,
  cols: [100, 100, 100],
  rows: [
    ["Region", "Q1 and Q2", ""],
    ["North", "10", "20"],
  ],
  merges: [{ row: 0, col: 1, colspan: 2 }],
};

function pdf() {
  return makeTablesPdf([
    { texts: [{ x: 60, y: 70, text: "Quarterly statement" }], tables: [invoice] },
    { tables: [{ ...merged, y: 100 }] },
  ]);
}

/** RFC 4180 CSV (every cell quoted) → rows. */
function parseCsv(csv: string): string[][] {
  return csv
    .split("\r\n")
    .filter(Boolean)
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1].replace(/""/g, '"')));
}

async function readXlsx(path: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

function sheetRows(ws: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    const vals = (row.values as unknown[]).slice(1);
    rows[n - 1] = vals.map((v) => (v && typeof v === "object" && !(v instanceof Date) && "result" in v ? (v as { result: unknown }).result : v ?? ""));
  });
  return rows;
}

describe("typeCell", () => {
  test.each([
    ["1,234.50", 1234.5, "#,##0.00"],
    ["1.234,50", 1234.5, "#,##0.00"],
    ["12,5", 12.5, "0.0"],
    ["(45.00)", -45, "0.00;(0.00)"],
    ["($1,200)", -1200, '"$"#,##0;("$"#,##0)'],
    ["7.5%", 0.075, "0.0%"],
    ["$1,234.50", 1234.5, '"$"#,##0.00;-"$"#,##0.00'],
    ["42", 42, undefined],
    ["100-", -100, undefined],
  ])("%s → %s", (text, value, fmt) => {
    const t = typeCell(text);
    expect(t.value).toBeCloseTo(value as number, 10);
    expect(t.numFmt).toBe(fmt);
  });

  test.each(["00123", "1234567890123456789", "555 123 4567", "12-34", "A1", "1.2.3", "v2.0"])("%s stays text", (text) => {
    expect(typeCell(text).value).toBe(text);
  });

  test("dates", () => {
    expect(typeCell("2024-03-15").value).toEqual(new Date(Date.UTC(2024, 2, 15)));
    expect(typeCell("03/31/2024").value).toEqual(new Date(Date.UTC(2024, 2, 31)));
    expect(typeCell("31/03/2024").value).toEqual(new Date(Date.UTC(2024, 2, 31)));
    expect(typeCell("15.04.2024").value).toEqual(new Date(Date.UTC(2024, 3, 15)));
    expect(typeCell("Jan 5, 2024").value).toEqual(new Date(Date.UTC(2024, 0, 5)));
    expect(typeCell("2024-02-30").value).toBe("2024-02-30");
  });
});

describe("pdf-convert-to-xlsx", () => {
  test("the workbook holds the cells of the CSV, one sheet per page, typed", async () => {
    const bytes = pdf();
    const csv = (await runCsv(await contextFor(csvOp.params, bytes))).inlineText!;
    const r = await runXlsx(await contextFor(xlsxOp.params, bytes));
    expect(r.outputs?.[0].name).toBe("source.xlsx");
    expect(r.pageCount).toBe(2);
    const wb = await readXlsx(r.outputs![0].path);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Page 1", "Page 2"]);
    const all = wb.worksheets.flatMap((ws) => sheetRows(ws));
    const csvRows = parseCsv(csv);
    expect(all.length).toBe(csvRows.length);
    csvRows.forEach((row, i) => {
      row.forEach((cell, c) => {
        const got = all[i][c] ?? "";
        const want = typeCell(cell).value;
        if (want instanceof Date) expect(got).toEqual(want);
        else expect(got, `row ${i} col ${c}`).toBe(want);
      });
    });
    const p1 = wb.getWorksheet("Page 1")!;
    const widget = sheetRows(p1).find((row) => row[0] === "Widget")!;
    expect(widget[1]).toEqual(new Date(Date.UTC(2024, 2, 15)));
    expect(widget[2]).toBe(3);
    expect(widget[3]).toBe(1234.5);
    expect(sheetRows(p1).find((row) => row[0] === "Code 00123")![2]).toBeCloseTo(0.075);
  });

  test("merged cells stay merged; PerTable puts each table on its own sheet", async () => {
    const onePage = makeTablesPdf([{ texts: [{ x: 60, y: 70, text: "Quarterly statement" }], tables: [invoice, merged] }]);
    const r = await runXlsx(await contextFor(xlsxOp.params, onePage, { profiles: { Worksheets: "PerTable" } }));
    const wb = await readXlsx(r.outputs![0].path);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Table 1", "Table 2"]);
    const t2 = wb.getWorksheet("Table 2")!;
    expect(t2.getCell("B1").value).toBe("Q1 and Q2");
    expect(t2.getCell("C1").isMerged).toBe(true);
    expect(t2.getCell("C1").master.address).toBe("B1");
    expect(sheetRows(wb.getWorksheet("Table 1")!)[0]).toEqual(["Item", "Date", "Qty", "Amount"]);
  });

  test("xls (BIFF8) reads back in SheetJS with the same values and merges", async () => {
    const r = await runXls(await contextFor(xlsOp.params, pdf(), { name: "report", pages: "1" }));
    expect(r.outputs?.[0].name).toBe("report.xls");
    const bytes = readFileSync(r.outputs![0].path);
    expect(bytes.subarray(0, 4).toString("hex")).toBe("d0cf11e0"); // OLE2 compound file
    const book = XLSX.read(bytes, { type: "buffer" });
    expect(book.SheetNames).toEqual(["Page 2"]);
    const sheet = book.Sheets["Page 2"];
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, defval: "" });
    expect(rows).toEqual([
      ["Region", "Q1 and Q2", ""],
      ["North", 10, 20],
    ]);
    expect(sheet["!merges"]).toEqual([{ s: { r: 0, c: 1 }, e: { r: 0, c: 2 } }]);
  });
});

function sofficePath(): string | null {
  for (const p of ["/usr/bin/soffice", "/usr/bin/libreoffice", "/usr/lib/libreoffice/program/soffice"]) if (existsSync(p)) return p;
  return null;
}

describe("the workbook in other readers", () => {
  test("SheetJS reads the xlsx with the CSV's cells", async () => {
    const bytes = pdf();
    const csvRows = parseCsv((await runCsv(await contextFor(csvOp.params, bytes))).inlineText!);
    const r = await runXlsx(await contextFor(xlsxOp.params, bytes));
    const book = XLSX.read(readFileSync(r.outputs![0].path), { type: "buffer" });
    // A sheet left empty (its page's table continues the one before) has no rows.
    const rows = book.SheetNames.flatMap((n) => (book.Sheets[n]["!ref"] === "A1" && !book.Sheets[n].A1 ? [] : XLSX.utils.sheet_to_json<string[]>(book.Sheets[n], { header: 1, defval: "", raw: false })));
    expect(rows.length).toBe(csvRows.length);
    // SheetJS shows each cell through its number format: the text the PDF had.
    rows.forEach((row, i) => expect(row.slice(0, csvRows[i].length), `row ${i}`).toEqual(csvRows[i]));
  });

  test.skipIf(!sofficePath())("LibreOffice opens the xlsx and the xls with the CSV's cells", async () => {
    const bytes = makeTablesPdf([{ tables: [invoice] }]);
    const csvRows = parseCsv((await runCsv(await contextFor(csvOp.params, bytes))).inlineText!);
    const dir = mkdtempSync(path.join(tmpdir(), "quire-lo-"));
    try {
      for (const [run, op] of [
        [runXlsx, xlsxOp],
        [runXls, xlsOp],
      ] as const) {
        const r = await run(await contextFor(op.params, bytes));
        const out = path.join(dir, path.extname(r.outputs![0].path).slice(1));
        execFileSync(sofficePath()!, [`-env:UserInstallation=file://${dir}/profile`, "--headless", "--convert-to", "csv", "--outdir", out, r.outputs![0].path], { stdio: "ignore", timeout: 120_000 });
        const lo = readFileSync(path.join(out, path.basename(r.outputs![0].path).replace(/\.xlsx?$/, ".csv")), "utf8").trim().split(/\r?\n/).map((l) => l.split(","));
        expect(lo.length).toBe(csvRows.length);
        // LibreOffice's CSV export writes numbers as values (percentages as shown) and dates in
        // ISO or its own US form, whatever their format.
        csvRows.forEach((row, i) =>
          row.forEach((cell, c) => {
            const typed = typeCell(cell).value;
            const got = lo[i][c].replace(/^"|"$/g, "");
            if (typed instanceof Date) {
              const us = `${String(typed.getUTCMonth() + 1).padStart(2, "0")}/${String(typed.getUTCDate()).padStart(2, "0")}/${typed.getUTCFullYear()}`;
              expect([cell, us, typed.toISOString().slice(0, 10)], `row ${i} col ${c}`).toContain(got);
            } else if (typeof typed === "number") {
              // A number as its value, or as shown (percentages).
              expect([String(Math.round(typed * 1e9) / 1e9), cell], `row ${i} col ${c}`).toContain(got);
            } else expect(got, `row ${i} col ${c}`).toBe(cell);
          }),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

