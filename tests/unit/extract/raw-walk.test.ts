import * as mupdf from "mupdf";
import { afterEach, describe, expect, it } from "vitest";
import { mupdfRaw } from "@/lib/engine/pdf/mupdf-handle";
import { charBoxes } from "@/lib/engine/text/char-boxes";
import { quickPageText } from "@/lib/engine/text/quick-lines";
import { extractPageText } from "@/lib/engine/text/words";
import { makeTablesPdf, type PageSpec } from "@/tests/helpers/extract-fixtures";

// The fast structured-text walk (raw WASM reads, lib/engine/pdf/mupdf-handle.ts) must give
// exactly what MuPDF.js's public StructuredText.walk gives: words, fonts, colours, boxes, rules.
function pages(): PageSpec[] {
  const rows = [["Date", "Item", "Amount"], ["2024-01-02", "Widget", "12.50"], ["2024-01-03", "Gadget", "7.00"]];
  return [
    {
      texts: [
        { x: 50, y: 40, text: "Statement Title", size: 16, bold: true },
        { x: 50, y: 70, text: "Red words here", size: 10, color: [1, 0, 0], italic: true, font: "Times-Roman" },
        { x: 300, y: 70, text: "Invisible layer", size: 10, invisible: true },
      ],
      tables: [{ x: 50, y: 110, cols: [90, 120, 60], rows, borders: "all", fontSize: 9 }],
    },
    { rotate: 90, texts: [{ x: 60, y: 60, text: "Rotated page text", size: 12 }], tables: [{ x: 50, y: 100, cols: [90, 120, 60], rows, borders: "none", fontSize: 9 }] },
  ];
}

function dump(pdf: Buffer): string {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  try {
    const out: string[] = [];
    for (let i = 0; i < doc.countPages(); i++) {
      for (const includeInvisible of [true, false]) {
        const p = extractPageText(doc, i, { withRules: true, includeInvisible, autoUpright: true });
        out.push(JSON.stringify(p), JSON.stringify(p.words.map((w) => Array.from(charBoxes.get(w) ?? []))));
      }
    }
    return out.join("\n");
  } finally {
    doc.destroy();
  }
}

describe("structured-text walk", () => {
  afterEach(() => {
    delete process.env.QUIRE_PLAIN_WALK;
  });

  it("has MuPDF's raw module in this process (registered before mupdf loaded)", () => {
    expect(mupdfRaw()).not.toBeNull();
  });

  it("reads the same words, fonts, colours and character boxes as MuPDF.js's walk", () => {
    const pdf = makeTablesPdf(pages());
    process.env.QUIRE_PLAIN_WALK = "1";
    const plain = dump(pdf);
    process.env.QUIRE_PLAIN_WALK = "0";
    const fast = dump(pdf);
    expect(plain).toContain("Statement");
    expect(plain).toContain("Widget");
    expect(fast).toBe(plain);
    // Extraction after many pages keeps working (fonts are released, not leaked into errors).
    for (let k = 0; k < 3; k++) expect(dump(pdf)).toBe(plain);
  });

  it("reads the same lines for plain text as MuPDF's JSON output (boxes cast to int, first character's font)", () => {
    const pdf = makeTablesPdf([...pages(), { texts: [{ x: 40.7, y: 30.2, text: "Bold Heading", size: 13.6, bold: true }, { x: 41, y: 60, text: "مرحبا hello", size: 10.5 }] }]);
    const doc = mupdf.Document.openDocument(pdf, "application/pdf");
    try {
      const read = (walk: string) => {
        process.env.QUIRE_PLAIN_WALK = walk;
        return Array.from({ length: doc.countPages() }, (_, i) => JSON.stringify(quickPageText(doc, i, 0)));
      };
      const json = read("1");
      expect(json.join("\n")).toContain("Bold Heading");
      expect(read("0")).toEqual(json);
    } finally {
      doc.destroy();
    }
  });
});
