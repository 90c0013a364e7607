import { afterEach, describe, expect, test, vi } from "vitest";
import type { Table } from "@/lib/engine/tables/types";
import type { PageText } from "@/lib/engine/text/types";
import { operation } from "@/lib/operations/pdf-convert-to-html/contract";
import { run } from "@/lib/operations/pdf-convert-to-html/runner";
import { mergedCells } from "@/lib/engine/html/pdf-to-html";
import { cleanupContexts, contextFor, makeTablesPdf } from "@/tests/helpers/extract-fixtures";

/**
 * Table detection may return tables whose boxes overlap (a form's field boxes found as a ruled
 * table inside a table found from the text's alignment). The table analysis is replaced here by
 * two such tables, so the test does not depend on when the detector overlaps them.
 */
const detected = vi.hoisted(() => ({ tables: [] as Table[] }));

vi.mock("@/lib/engine/tables/page-tables", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/engine/tables/page-tables")>();
  return {
    ...original,
    analysePage: (page: PageText) => (page.words.length === 0 ? [] : detected.tables.map((table) => ({ kind: "table" as const, table }))),
  };
});

function table(x0: number, y0: number, x1: number, y1: number, source: Table["source"], cols = 1, rows = 1, spans: Table["spans"] = []): Table {
  return {
    page: 0,
    x0,
    y0,
    x1,
    y1,
    source,
    rows: Array.from({ length: rows }, () => Array.from({ length: cols }, () => "")),
    columnEdges: Array.from({ length: cols + 1 }, (_, i) => x0 + ((x1 - x0) * i) / cols),
    rowEdges: Array.from({ length: rows + 1 }, (_, i) => y0 + ((y1 - y0) * i) / rows),
    spans,
    pages: [0],
  };
}

afterEach(cleanupContexts);

describe("PDF → HTML with overlapping tables", () => {
  test.each([{}, { profiles: { EmbedFonts: false, VectorGraphics: false } }])("a word inside two tables is shown once (%o)", async (extra) => {
    detected.tables = [table(40, 40, 400, 80, "content"), table(150, 40, 300, 80, "borders")];
    const pdf = makeTablesPdf([{ size: [450, 200], texts: [{ x: 60, y: 50, text: "First Name" }, { x: 200, y: 50, text: "Last Name" }] }]);
    const ctx = await contextFor(operation.params, pdf, { inline: true, ...extra }, "form.pdf");
    const html = (await run(ctx)).inlineText ?? "";
    const shown = (word: string) => html.match(new RegExp(`>${word}</span>`, "g"))?.length ?? 0;
    expect(html).toContain(`<table class="t"`);
    expect(shown("Last")).toBe(1);
    expect(shown("Name")).toBe(2);
    expect(shown("First")).toBe(1);
  });

  test.each([{}, { profiles: { EmbedFonts: false, VectorGraphics: false } }])("merged cells that overlap: no word is hidden under another cell's span (%o)", async (extra) => {
    // 3 × 3 cells; the second span (rows 1–2 of column 0) overlaps the first (rows 0–1, columns 0–1).
    detected.tables = [
      table(40, 40, 340, 130, "borders", 3, 3, [
        { row: 0, col: 0, rowSpan: 2, colSpan: 2 },
        { row: 1, col: 0, rowSpan: 2, colSpan: 1 },
      ]),
    ];
    const texts = [
      { x: 50, y: 52, text: "Alpha" },
      { x: 250, y: 52, text: "Beta" },
      { x: 50, y: 112, text: "Gamma" },
      { x: 150, y: 112, text: "Delta" },
    ];
    const pdf = makeTablesPdf([{ size: [400, 200], texts }]);
    const ctx = await contextFor(operation.params, pdf, { inline: true, ...extra }, "grid.pdf");
    const html = (await run(ctx)).inlineText ?? "";
    for (const t of texts) expect(html).toMatch(new RegExp(`>${t.text}</span>`));
    expect(html).toContain('rowspan="2"');
  });
});

describe("mergedCells", () => {
  test("a span overlapping an earlier one is left out; covered cells are the spans' other cells", () => {
    const { spanAt, covered, owner } = mergedCells(
      {
        spans: [
          { row: 0, col: 0, rowSpan: 2, colSpan: 2 },
          { row: 1, col: 0, rowSpan: 2, colSpan: 1 },
          { row: 2, col: 1, rowSpan: 1, colSpan: 5 },
        ],
      },
      3,
      3,
    );
    expect([...spanAt.keys()]).toEqual(["0,0", "2,1"]);
    expect([...covered].sort()).toEqual(["0,1", "1,0", "1,1", "2,2"]);
    expect(owner.get("2,0")).toBeUndefined();
    expect(owner.get("2,2")).toEqual({ row: 2, col: 1, rowSpan: 1, colSpan: 5 });
  });
});
