import { afterEach, describe, expect, test, vi } from "vitest";
import type { Table } from "@/lib/engine/tables/types";
import type { PageText } from "@/lib/engine/text/types";
import { operation } from "@/lib/operations/pdf-convert-to-html/contract";
import { run } from "@/lib/operations/pdf-convert-to-html/runner";
import { cleanupContexts, contextFor, makeTablesPdf } from "@/tests/helpers/extract-fixtures";

/**
 * Table detection may return tables whose boxes overlap (a form's field boxes found as a ruled
 * table inside a table found from the text's alignment). The table analysis is replaced here by
 * two such tables, so the test does not depend on when the detector overlaps them.
 */
vi.mock("@/lib/engine/tables/page-tables", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/engine/tables/page-tables")>();
  const table = (x0: number, y0: number, x1: number, y1: number, source: Table["source"]): Table => ({
    page: 0,
    x0,
    y0,
    x1,
    y1,
    source,
    rows: [[""]],
    columnEdges: [x0, x1],
    rowEdges: [y0, y1],
    spans: [],
    pages: [0],
  });
  return {
    ...original,
    analysePage: (page: PageText) =>
      page.words.length === 0
        ? []
        : [
            { kind: "table" as const, table: table(40, 40, 400, 80, "content") },
            { kind: "table" as const, table: table(150, 40, 300, 80, "borders") },
          ],
  };
});

afterEach(cleanupContexts);

describe("PDF → HTML with overlapping tables", () => {
  test.each([{}, { profiles: { EmbedFonts: false, VectorGraphics: false } }])("a word inside two tables is shown once (%o)", async (extra) => {
    const pdf = makeTablesPdf([{ size: [450, 200], texts: [{ x: 60, y: 50, text: "First Name" }, { x: 200, y: 50, text: "Last Name" }] }]);
    const ctx = await contextFor(operation.params, pdf, { inline: true, ...extra }, "form.pdf");
    const html = (await run(ctx)).inlineText ?? "";
    const shown = (word: string) => html.match(new RegExp(`>${word}</span>`, "g"))?.length ?? 0;
    expect(html).toContain(`<table class="t"`);
    expect(shown("Last")).toBe(1);
    expect(shown("Name")).toBe(2);
    expect(shown("First")).toBe(1);
  });
});
