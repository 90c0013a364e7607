import * as mupdf from "mupdf";
import { describe, expect, test } from "vitest";
import { analysePages, segmentRows, toCsv } from "@/lib/engine/tables/extract-tables";
import type { Segment, TableOptions } from "@/lib/engine/tables/types";
import { rotatePageText } from "@/lib/engine/text/rotate";
import { extractPageTexts } from "@/lib/engine/text/words";
import { gridRows, makeTablesPdf, tableBottom, type PageSpec } from "@/tests/helpers/extract-fixtures";

function analyse(pages: PageSpec[], opts: TableOptions = {}, area?: { x: number; y: number; width: number; height: number }): Segment[] {
  const pdf = makeTablesPdf(pages);
  const doc = new mupdf.PDFDocument(pdf);
  try {
    const texts = extractPageTexts(doc, pages.map((_, i) => i), { withRules: true });
    return analysePages(texts, opts, area);
  } finally {
    doc.destroy();
  }
}

const tables = (segs: Segment[]) => segs.flatMap((s) => (s.kind === "table" ? [s.table] : []));

describe("table analysis on generated PDFs", () => {
  test("bordered grid: every cell in its place", () => {
    const rows = gridRows(5, 4);
    const t = tables(analyse([{ tables: [{ x: 60, y: 80, cols: [110, 90, 90, 120], rows }] }]));
    expect(t).toHaveLength(1);
    expect(t[0].source).toBe("borders");
    expect(t[0].rows).toEqual(rows);
  });

  test("borderless grid: columns from whitespace", () => {
    const rows = gridRows(6, 5);
    const t = tables(analyse([{ tables: [{ x: 50, y: 100, cols: [100, 100, 100, 100, 100], rows, borders: "none" }] }]));
    expect(t).toHaveLength(1);
    expect(t[0].source).toBe("content");
    expect(t[0].rows).toEqual(rows);
  });

  test("borderless table with empty cells and right-aligned numbers keeps its columns", () => {
    const rows = [
      ["Item", "Qty", "Price", "Total"],
      ["Apples", "3", "1.20", "3.60"],
      ["Pears", "", "0.90", ""],
      ["Melon", "1", "", "4.10"],
      ["Grapes", "12", "10.00", "120.00"],
    ];
    const t = tables(analyse([{ tables: [{ x: 60, y: 100, cols: [140, 70, 80, 90], rows, borders: "none", alignNumbersRight: true }] }]));
    expect(t[0].rows).toEqual(rows);
  });

  test("merged cells: the text sits in the first cell of the span", () => {
    const rows = [
      ["Region", "2023", "", "2024", ""],
      ["", "H1", "H2", "H1", "H2"],
      ["North", "10", "11", "12", "13"],
      ["South", "20", "21", "22", "23"],
    ];
    const merges = [
      { row: 0, col: 1, colspan: 2 },
      { row: 0, col: 3, colspan: 2 },
    ];
    const t = tables(analyse([{ tables: [{ x: 60, y: 80, cols: [100, 60, 60, 60, 60], rows, merges }] }]));
    expect(t).toHaveLength(1);
    expect(t[0].rows).toEqual(rows);
  });

  test("multi-line cells in a bordered table stay one cell; unwrap joins with a space", () => {
    const rows = [
      ["Name", "Description"],
      ["Widget", "Small blue\nplastic widget"],
      ["Gadget", "Large"],
    ];
    const spec: PageSpec[] = [{ tables: [{ x: 60, y: 80, cols: [120, 200], rows }] }];
    expect(tables(analyse(spec))[0].rows[1]).toEqual(["Widget", "Small blue\nplastic widget"]);
    expect(tables(analyse(spec, { unwrap: true }))[0].rows[1]).toEqual(["Widget", "Small blue plastic widget"]);
  });

  test("rows cut by wrapped text: lineGrouping GroupByRows joins them, unwrap with spaces", () => {
    const rows = [
      ["Code", "Description", "Amount"],
      ["A1", "Consulting services\nfor March", "1,200.00"],
      ["B2", "Travel", "300.00"],
      ["C3", "Hardware and\ninstallation\non site", "5,000.00"],
    ];
    const spec: PageSpec[] = [{ tables: [{ x: 60, y: 80, cols: [60, 200, 100], rows, borders: "none" }] }];
    // Default: one line per row.
    expect(tables(analyse(spec))[0].rows.length).toBe(7);
    const grouped = tables(analyse(spec, { lineGrouping: "GroupByRows", unwrap: true }))[0].rows;
    expect(grouped).toEqual(rows.map((r) => r.map((c) => c.replace(/\n/g, " "))));
    const kept = tables(analyse(spec, { lineGrouping: "GroupByRows" }))[0].rows;
    expect(kept[3][1]).toBe("Hardware and\ninstallation\non site");
  });

  test("JoinOrphanedRows joins one-cell lines into the row above", () => {
    const rows = [
      ["Code", "Description", "Amount"],
      ["A1", "Consulting services\nfor March", "1,200.00"],
      ["B2", "Travel", "300.00"],
    ];
    const spec: PageSpec[] = [{ tables: [{ x: 60, y: 80, cols: [60, 200, 100], rows, borders: "none" }] }];
    const t = tables(analyse(spec, { lineGrouping: "JoinOrphanedRows" }))[0].rows;
    expect(t).toEqual([rows[0], ["A1", "Consulting services for March", "1,200.00"], rows[2]]);
  });

  test("ContentGroupsAI joins wrapped continuation lines without being asked", () => {
    const rows = [
      ["Code", "Description", "Amount"],
      ["A1", "Consulting services\nfor March", "1,200.00"],
      ["B2", "Travel", "300.00"],
    ];
    const spec: PageSpec[] = [{ tables: [{ x: 60, y: 80, cols: [60, 200, 100], rows, borders: "none" }] }];
    const t = tables(analyse(spec, { mode: "ContentGroupsAI" }))[0].rows;
    expect(t[1]).toEqual(["A1", "Consulting services for March", "1,200.00"]);
  });

  test("a table ruled only by horizontal lines groups each band into one row", () => {
    const rows = [
      ["Animal", "Sound", "Note"],
      ["Cat", "Meow", "Short"],
      ["Fox", "Ring-\nding-ding", "Long\nand odd"],
      ["Dog", "Woof", "Loud"],
    ];
    const t = tables(analyse([{ tables: [{ x: 60, y: 80, cols: [120, 120, 120], rows, borders: "horizontal" }] }]));
    expect(t[0].rows).toEqual(rows);
  });

  test("several tables on a page, text between them as its own rows", () => {
    const a = { x: 60, y: 80, cols: [100, 100, 100], rows: gridRows(3, 3) };
    const b = { x: 60, y: tableBottom(a) + 80, cols: [150, 150], rows: [["Key", "Value"], ["alpha", "1"], ["beta", "2"]], borders: "none" as const };
    const segs = analyse([{ tables: [a, b], texts: [{ x: 60, y: tableBottom(a) + 30, text: "Some words between the two tables." }] }]);
    const t = tables(segs);
    expect(t).toHaveLength(2);
    expect(t[0].rows).toEqual(a.rows);
    expect(t[1].rows).toEqual(b.rows);
    const text = segs.find((s) => s.kind === "text");
    expect(text && text.kind === "text" && text.cells).toEqual(["Some words between the two tables."]);
  });

  test("a table continued on the next page is joined and its repeated header dropped", () => {
    const header = ["Date", "Item", "Amount"];
    const part1 = [header, ...Array.from({ length: 20 }, (_, i) => [`2024-01-${String(i + 1).padStart(2, "0")}`, `Item ${i + 1}`, `${i + 1}.00`])];
    const part2 = [header, ...Array.from({ length: 5 }, (_, i) => [`2024-02-0${i + 1}`, `Item ${i + 21}`, `${i + 21}.00`])];
    for (const borders of ["all", "none"] as const) {
      const segs = analyse([
        { tables: [{ x: 60, y: 60, cols: [120, 200, 100], rows: part1, borders }], texts: [{ x: 280, y: 760, text: "Page 1" }] },
        { tables: [{ x: 60, y: 60, cols: [120, 200, 100], rows: part2, borders }], texts: [{ x: 280, y: 760, text: "Page 2" }] },
      ]);
      const t = tables(segs);
      expect(t, borders).toHaveLength(1);
      expect(t[0].rows).toEqual([...part1, ...part2.slice(1)]);
      expect(t[0].pages).toEqual([0, 1]);
    }
  });

  test("sideways page (/Rotate 90, text running down): RotationAngle 3 turns it upright", () => {
    const rows = gridRows(3, 3);
    const pdf = makeTablesPdf([{ rotate: 90, tables: [{ x: 60, y: 80, cols: [100, 100, 100], rows, borders: "none" }] }]);
    const doc = new mupdf.PDFDocument(pdf);
    try {
      const [page] = extractPageTexts(doc, [0], { withRules: true });
      expect(page.width).toBeGreaterThan(page.height); // displayed landscape
      const upright = rotatePageText(page, 3);
      const t = tables(analysePages([upright]));
      expect(t).toHaveLength(1);
      expect(t[0].rows).toEqual(rows);
    } finally {
      doc.destroy();
    }
  });

  test("area: only words inside it, all of it one table", () => {
    const rows = gridRows(4, 3);
    const segs = analyse(
      [{ tables: [{ x: 60, y: 100, cols: [100, 100, 100], rows, borders: "none" }], texts: [{ x: 60, y: 40, text: "Title outside the area" }] },],
      { wholeAreaIsTable: true },
      { x: 50, y: 90, width: 330, height: 200 },
    );
    expect(segs).toHaveLength(1);
    expect(tables(segs)[0].rows).toEqual(rows);
  });

  test("ColumnDetectionMode: BorderedTables drops free text, Borders keeps lines whole, ContentGroups ignores rules", () => {
    const rows = gridRows(3, 3);
    const page: PageSpec = {
      tables: [{ x: 60, y: 120, cols: [100, 100, 100], rows }],
      texts: [{ x: 60, y: 60, text: "Name" }, { x: 300, y: 60, text: "Date" }],
    };
    const bordered = analyse([page], { mode: "BorderedTables" });
    expect(bordered.every((s) => s.kind === "table")).toBe(true);
    expect(tables(bordered)[0].rows).toEqual(rows);
    const borders = analyse([page], { mode: "Borders" });
    const first = borders[0];
    expect(first.kind === "text" && first.cells).toEqual(["Name Date"]);
    const content = analyse([page], { mode: "ContentGroups" });
    expect(tables(content).every((t) => t.source === "content")).toBe(true);
    const def = analyse([page]);
    expect(def[0].kind === "text" && def[0].cells).toEqual(["Name", "Date"]);
  });

  test("AutoAlignColumnsToHeader false analyses columns independently (a spanning cell merges them)", () => {
    const rows = [
      ["Quarter", "Sales", "Costs"],
      ["A long label spanning the first two columns", "", "5"],
      ["Q1", "10", "4"],
      ["Q2", "12", "6"],
    ];
    const spec: PageSpec[] = [{ tables: [{ x: 60, y: 80, cols: [100, 100, 100], rows, borders: "none", merges: [{ row: 1, col: 0, colspan: 2 }] }] }];
    const aligned = tables(analyse(spec))[0].rows;
    expect(aligned[0]).toEqual(["Quarter", "Sales", "Costs"]);
    expect(aligned[1]).toEqual(["A long label spanning the first two columns", "", "5"]);
    const independent = tables(analyse(spec, { autoAlignToHeader: false }))[0].rows;
    expect(independent[0].length).toBe(2);
  });

  test("DetectNewColumnBySpacesRatio: a large ratio keeps close words in one cell", () => {
    // Courier 10 pt: 6 pt per character, so "Alpha" ends at 90 and the gap to 100 is 10 pt (1.7 spaces).
    const c = "Courier" as const;
    const page: PageSpec = {
      texts: [
        { x: 60, y: 60, text: "Alpha", font: c },
        { x: 100, y: 60, text: "Beta", font: c },
        { x: 60, y: 80, text: "Gamma", font: c },
        { x: 100, y: 80, text: "Delta", font: c },
      ],
    };
    const split = analyse([page], { spaceRatio: 1.2 });
    expect(tables(split)[0].rows).toEqual([["Alpha", "Beta"], ["Gamma", "Delta"]]);
    const joined = analyse([page], { spaceRatio: 6 });
    expect(segmentRows(joined)).toEqual([["Alpha Beta"], ["Gamma Delta"]]);
  });

  test("ConsiderFontColors: a colour change separates cells", () => {
    // Courier: one space (6 pt) between the words.
    const c = "Courier" as const;
    const page: PageSpec = {
      texts: [
        { x: 60, y: 60, text: "Total", font: c },
        { x: 96, y: 60, text: "due", color: [1, 0, 0], font: c },
        { x: 60, y: 80, text: "Taxes", font: c },
        { x: 96, y: 80, text: "paid", color: [1, 0, 0], font: c },
      ],
    };
    expect(segmentRows(analyse([page]))).toEqual([["Total due"], ["Taxes paid"]]);
    expect(segmentRows(analyse([page], { considerFontColors: true }))).toEqual([["Total", "due"], ["Taxes", "paid"]]);
  });

  test("GroupByColumns merges the lines of each cell block set tight together", () => {
    const rows = [
      ["Name", "Address"],
      ["Alice\nSmith", "1 Main St\nSpringfield"],
      ["Bob", "2 Side Rd"],
    ];
    // Extra spacing between the rows (row blocks), none inside a block.
    const spec: PageSpec[] = [
      {
        texts: [
          { x: 60, y: 60, text: "Name" }, { x: 200, y: 60, text: "Address" },
          { x: 60, y: 90, text: "Alice" }, { x: 200, y: 90, text: "1 Main St" },
          { x: 60, y: 102, text: "Smith" }, { x: 200, y: 102, text: "Springfield" },
          { x: 60, y: 132, text: "Bob" }, { x: 200, y: 132, text: "2 Side Rd" },
        ],
      },
    ];
    expect(tables(analyse(spec))[0].rows.length).toBe(4);
    expect(tables(analyse(spec, { lineGrouping: "GroupByColumns" }))[0].rows).toEqual(rows);
  });

  test("ConsiderFontSizes: a change of size separates cells", () => {
    const c = "Courier" as const;
    const page: PageSpec = {
      texts: [
        { x: 60, y: 60, text: "Total", font: c },
        { x: 96, y: 60, text: "due", size: 14, font: c },
        { x: 60, y: 80, text: "Taxes", font: c },
        { x: 96, y: 80, text: "paid", size: 14, font: c },
      ],
    };
    expect(segmentRows(analyse([page]))).toEqual([["Total due"], ["Taxes paid"]]);
    expect(segmentRows(analyse([page], { considerFontSizes: true }))).toEqual([["Total", "due"], ["Taxes", "paid"]]);
  });

  test("CSV: every cell quoted, quotes doubled, CR LF row ends", () => {
    expect(toCsv([["a", 'say "hi"'], ["x\ny", ""]])).toBe('"a","say ""hi"""\r\n"x\ny",""\r\n');
    // Control characters other than line breaks are dropped, quotes doubled in the same cell; an empty row is an empty line.
    expect(toCsv([["bell\u0007 \"q\"\ttab", "\r\n"], []])).toBe('"bell ""q""tab","\r\n"\r\n\r\n');
  });
});
