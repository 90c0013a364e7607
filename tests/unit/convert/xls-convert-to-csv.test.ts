import { describe, expect, it } from "vitest";
import fs from "node:fs";
import * as XLSX from "@e965/xlsx";
import { sheetToCsv } from "@/lib/engine/sheets/sheet-to-csv";
import { checkZip } from "@/lib/engine/sheets/zip-guard";
import { run } from "@/lib/operations/xls-convert-to-csv/runner";
import { makeTempDir, makeZip, sourceFile, unzipEntries } from "@/tests/helpers/convert-fixtures";

/** xls-convert-to-csv: formats, worksheetIndex, display formatting, merged cells, bombs and limits. */

type Cell = XLSX.CellObject;

/** A workbook with a formatted first sheet and a second sheet "Second". */
function workbook(): XLSX.WorkBook {
  const ws1: XLSX.WorkSheet = {
    "!ref": "A1:D4",
    A1: { t: "s", v: "Name" },
    B1: { t: "s", v: "Amount" },
    C1: { t: "s", v: "Date" },
    D1: { t: "s", v: "Share" },
    A2: { t: "s", v: "Smith, John" },
    B2: { t: "n", v: 1234.5, z: "#,##0.00" } as Cell,
    C2: { t: "n", v: 45000, z: "yyyy-mm-dd" } as Cell, // 2023-03-15
    D2: { t: "n", v: 0.125, z: "0.0%" } as Cell,
    A3: { t: "s", v: 'Say "hi"\nthere' },
    B3: { t: "n", v: -42, z: "0;(0)" } as Cell,
    C3: { t: "n", v: 45000.75, z: "m/d/yy h:mm" } as Cell,
    D3: { t: "b", v: true },
    A4: { t: "s", v: "Ünïcödé ✓" },
    B4: { t: "n", v: 3 },
    C4: { t: "n", v: 0.5, z: "h:mm AM/PM" } as Cell,
  };
  const ws2 = XLSX.utils.aoa_to_sheet([
    ["second", "sheet"],
    [1, 2],
  ]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws1, "First");
  XLSX.utils.book_append_sheet(wb, ws2, "Second");
  return wb;
}

const write = (wb: XLSX.WorkBook, bookType: XLSX.BookType) =>
  Buffer.from(XLSX.write(wb, { type: "buffer", bookType }) as Buffer);

const expectedFirst =
  [
    "Name,Amount,Date,Share",
    '"Smith, John","1,234.50",2023-03-15,12.5%',
    '"Say ""hi""\nthere",(42),3/15/23 18:00,TRUE',
    "Ünïcödé ✓,3,12:00 PM,",
  ].join("\r\n") + "\r\n";

describe("xls-convert-to-csv", () => {
  it.each(["xlsx", "xls"] as const)(
    "converts .%s with cells formatted as the sheet shows them",
    (bookType) => {
      const result = sheetToCsv(write(workbook(), bookType));
      expect(result.format).toBe(bookType);
      expect(result.sheetCount).toBe(2);
      expect(result.sheetName).toBe("First");
      expect(result.csv).toBe(expectedFirst);
    },
  );

  it("converts .ods (OpenDocument) using the display text LibreOffice stores with each value", () => {
    // As LibreOffice writes it: typed values plus the text shown in the cell.
    const cell = (type: string, value: string, shown: string) =>
      `<table:table-cell office:value-type="${type}" ${type === "date" ? "office:date-value" : type === "boolean" ? "office:boolean-value" : "office:value"}="${value}" calcext:value-type="${type}"><text:p>${shown}</text:p></table:table-cell>`;
    const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.2">
<office:body><office:spreadsheet>
<table:table table:name="Calc">
<table:table-row><table:table-cell office:value-type="string" calcext:value-type="string"><text:p>Item, with comma</text:p></table:table-cell>${cell("float", "1234.5", "1,234.50")}${cell("date", "2023-03-15", "2023-03-15")}</table:table-row>
<table:table-row><table:table-cell office:value-type="string" calcext:value-type="string"><text:p>Ünïcödé</text:p></table:table-cell>${cell("percentage", "0.125", "12.5%")}${cell("boolean", "false", "FALSE")}</table:table-row>
<table:table-row><table:table-cell table:number-columns-spanned="2" table:number-rows-spanned="1" office:value-type="string"><text:p>merged</text:p></table:table-cell><table:covered-table-cell/>${cell("float", "3", "3")}</table:table-row>
</table:table>
<table:table table:name="Other"><table:table-row><table:table-cell office:value-type="string"><text:p>second</text:p></table:table-cell></table:table-row></table:table>
</office:spreadsheet></office:body></office:document-content>`;
    const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>`;
    const ods = makeZip([
      { name: "mimetype", data: Buffer.from("application/vnd.oasis.opendocument.spreadsheet"), store: true },
      { name: "META-INF/manifest.xml", data: Buffer.from(manifest) },
      { name: "content.xml", data: Buffer.from(content) },
      {
        name: "styles.xml",
        data: Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" office:version="1.2"/>',
        ),
      },
    ]);
    const result = sheetToCsv(ods);
    expect(result.format).toBe("ods");
    expect(result.sheetCount).toBe(2);
    expect(result.csv).toBe(
      '"Item, with comma","1,234.50",2023-03-15\r\nÜnïcödé,12.5%,FALSE\r\nmerged,,3\r\n',
    );
    expect(sheetToCsv(ods, { worksheetIndex: 2 }).csv).toBe("second\r\n");
  });

  it("reads flat XML workbooks (SpreadsheetML 2003, flat ODS) too", () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["x", 1]]), "S");
    for (const t of ["xlml", "fods"] as const) {
      const result = sheetToCsv(write(wb, t));
      expect(result.format).toBe("xml");
      expect(result.csv).toBe("x,1\r\n");
    }
  });

  it("shows negative durations in elapsed-time formats with their sign, as Excel does", () => {
    const ws: XLSX.WorkSheet = {
      "!ref": "A1:C1",
      A1: { t: "n", v: 1, z: "[h]" } as Cell,
      B1: { t: "n", v: -1.2, z: "[h]" } as Cell,
      C1: { t: "n", v: -0.5, z: "[mm]:ss" } as Cell,
    };
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "T");
    expect(sheetToCsv(write(wb, "xlsx")).csv).toBe("24,-28,-720:00\r\n");
  });

  it("worksheetIndex picks the sheet (1-based); out of range is 454", () => {
    const bytes = write(workbook(), "xlsx");
    expect(sheetToCsv(bytes, { worksheetIndex: 2 }).csv).toBe("second,sheet\r\n1,2\r\n");
    expect(() => sheetToCsv(bytes, { worksheetIndex: 3 })).toThrow(
      expect.objectContaining({ status: 454, message: expect.stringMatching(/has 2 sheet/) }),
    );
    expect(() => sheetToCsv(bytes, { worksheetIndex: 0 })).toThrow(expect.objectContaining({ status: 454 }));
  });

  it("keeps a merged range's value in its top-left cell and leaves the rest empty", () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ["Merged title", null, null],
      ["a", "b", "c"],
      ["tall", "x", "y"],
      [null, "z", "w"],
    ]);
    ws["!merges"] = [XLSX.utils.decode_range("A1:C1"), XLSX.utils.decode_range("A3:A4")];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "M");
    for (const t of ["xlsx", "xls"] as const) {
      expect(sheetToCsv(write(wb, t)).csv).toBe("Merged title,,\r\na,b,c\r\ntall,x,y\r\n,z,w\r\n");
    }
  });

  it("reads CSV input as text (no re-typing), UTF-8 with BOM or Windows-1252", () => {
    const csv = '\uFEFFid,code,when\r\n1,007,01/02/2020\r\n2,1e5,"a,b"\r\n';
    expect(sheetToCsv(Buffer.from(csv, "utf8")).csv).toBe(
      'id,code,when\r\n1,007,01/02/2020\r\n2,1e5,"a,b"\r\n',
    );
    const latin = Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0x20, 0xa3, 0x35, 0x0a]); // "name\nCafé £5\n" in cp1252
    expect(sheetToCsv(latin).csv).toBe("name\r\nCafé £5\r\n");
    expect(sheetToCsv(latin).format).toBe("csv");
  });

  it("an empty sheet gives empty CSV", () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([]), "Empty");
    expect(sheetToCsv(write(wb, "xlsx")).csv).toBe("");
  });

  it("refuses a zip bomb from the directory, before any inflation", () => {
    const entries = unzipEntries(write(workbook(), "xlsx"));
    const bomb = makeZip([...entries, { name: "xl/media/zeros.bin", data: Buffer.alloc(50 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(() => sheetToCsv(bomb)).toThrow(
      expect.objectContaining({ status: 413, message: expect.stringMatching(/zip bomb|expands/) }),
    );
    // Within the ratio but over the total.
    const big = makeZip([
      ...entries,
      {
        name: "xl/media/noise.bin",
        data: Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 7919) % 251)),
      },
    ]);
    expect(() => sheetToCsv(big, { limits: { maxUncompressedBytes: 2 * 1024 * 1024 } })).toThrow(
      expect.objectContaining({ status: 413, message: expect.stringContaining("limit") }),
    );
  });

  it("catches an entry that lies about its size (inflates past what it declares)", () => {
    const entries = unzipEntries(write(workbook(), "xlsx"));
    const liar = makeZip(
      entries.map((e) => (e.name === "xl/worksheets/sheet1.xml" ? { ...e, declaredSize: 100 } : e)),
    );
    expect(() => sheetToCsv(liar)).toThrow(
      expect.objectContaining({ status: 413, message: expect.stringContaining("beyond its declared size") }),
    );
    expect(() =>
      checkZip(liar, "x", { maxUncompressedBytes: 1e9, maxEntries: 100, maxRatio: 1000 }),
    ).toThrow();
  });

  it("refuses sheets over the row and cell limits; a bogus huge range is trimmed to the cells in use", () => {
    const rows = Array.from({ length: 150 }, (_, i) => [i, i * 2, i * 3]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), "Tall");
    const bytes = write(wb, "xlsx");
    expect(() => sheetToCsv(bytes, { limits: { maxRows: 100 } })).toThrow(
      expect.objectContaining({ status: 413, message: expect.stringContaining("150 rows") }),
    );
    expect(() => sheetToCsv(bytes, { limits: { maxCells: 300 } })).toThrow(
      expect.objectContaining({ status: 413, message: expect.stringContaining("cells") }),
    );
    expect(sheetToCsv(bytes).rows).toBe(150);

    // A sheet whose declared dimension covers all 17 billion cells while two rows are in use.
    const small = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      small,
      XLSX.utils.aoa_to_sheet([
        ["a", "b"],
        ["c", "d"],
      ]),
      "Sparse",
    );
    const parts = unzipEntries(write(small, "xlsx")).map((e) =>
      e.name === "xl/worksheets/sheet1.xml"
        ? {
            ...e,
            data: Buffer.from(
              e.data.toString("utf8").replace(/<dimension ref="[^"]*"/, '<dimension ref="A1:XFD1048576"'),
            ),
          }
        : e,
    );
    expect(parts.some((e) => e.data.includes("A1:XFD1048576"))).toBe(true);
    const bogus = makeZip(parts);
    const started = Date.now();
    const result = sheetToCsv(bogus);
    expect(result.csv).toBe("a,b\r\nc,d\r\n");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("unsupported files are 415, damaged ones 442", () => {
    expect(() => sheetToCsv(Buffer.from("%PDF-1.7\n%\u0000\u0001binary"))).toThrow(
      expect.objectContaining({ status: 415 }),
    );
    expect(() => sheetToCsv(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff, 0xfe]))).toThrow(
      expect.objectContaining({ status: 415 }),
    );
    expect(() => sheetToCsv(Buffer.alloc(0))).toThrow(expect.objectContaining({ status: 442 }));
    const xlsx = write(workbook(), "xlsx");
    expect(() => sheetToCsv(xlsx.subarray(0, Math.floor(xlsx.length / 2)))).toThrow(
      expect.objectContaining({ status: 442 }),
    );
    const notWorkbook = makeZip([{ name: "readme.txt", data: Buffer.from("hello") }]);
    expect(() => sheetToCsv(notWorkbook)).toThrow(expect.objectContaining({ status: 415 }));
    const xls = write(workbook(), "xls");
    const garbled = Buffer.from(xls);
    garbled.fill(0xab, 512, garbled.length);
    expect(() => sheetToCsv(garbled)).toThrow(expect.objectContaining({ status: 442 }));
  });

  it("the xls-convert-to-csv runner writes result.csv and offers the same text inline", async () => {
    const tmp = makeTempDir();
    try {
      const source = sourceFile(tmp.dir, "book.xlsx", write(workbook(), "xlsx"));
      const ctx = {
        params: { url: "x", worksheetIndex: "2", name: "numbers" },
        sources: [source],
        workDir: tmp.dir,
        fetchUrl: async () => ({ bytes: Buffer.alloc(0), contentType: "", name: "" }),
        log: () => {},
      };
      const result = await run(ctx);
      expect(result.inlineText).toBe("second,sheet\r\n1,2\r\n");
      expect(result.outputs?.[0]).toMatchObject({ name: "numbers.csv", contentType: "text/csv" });
      expect(fs.readFileSync(result.outputs![0].path, "utf8")).toBe(result.inlineText);
      expect(result.pageCount).toBe(1);
      const first = await run({ ...ctx, params: { url: "x" } });
      expect(first.inlineText).toBe(expectedFirst);
      expect(first.outputs?.[0].name).toBe("result.csv");
    } finally {
      tmp.cleanup();
    }
  });
});
