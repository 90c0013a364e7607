import { existsSync } from "node:fs";
import * as mupdf from "mupdf";
import { describe, expect, test } from "vitest";
import { rtlOrder } from "@/lib/engine/text/rtl-order";
import { extractPageText } from "@/lib/engine/text/words";
import { DEJAVU, glyphPdf } from "@/tests/helpers/glyph-pdf";

/** Boxes (x0, y0, x1, y1 per character) of characters on one horizontal line. */
const boxes = (...xs: [number, number][]) => xs.flatMap(([a, b]) => [a, 0, b, 10]);

describe("rtlOrder", () => {
  test("visual order (drawn left to right) reads right to left", () => {
    expect(rtlOrder(boxes([0, 5], [5, 10], [10, 15]), 3, 0)).toEqual([2, 1, 0]);
  });

  test("logical order (drawn right to left) stays", () => {
    expect(rtlOrder(boxes([10, 15], [5, 10], [0, 5]), 3, 0)).toEqual([0, 1, 2]);
  });

  test("the further characters of one glyph (empty boxes at its end) follow it in the PDF's order", () => {
    // One glyph mapped to a whole word: its first character has the box, the rest are empty at its end.
    expect(rtlOrder(boxes([0, 8], [8, 8], [8, 8], [8, 8]), 4, 0)).toEqual([0, 1, 2, 3]);
    // A ligature glyph between two letters, drawn in visual order: م (لا) س → س ل ا م.
    expect(rtlOrder(boxes([0, 5], [5, 9], [9, 9], [9, 14]), 4, 0)).toEqual([3, 1, 2, 0]);
  });

  test("a mark without advance, drawn over its letter, follows that letter", () => {
    // Visual order: letter A [0,5], mark over letter B drawn before B, letter B [5,10].
    expect(rtlOrder(boxes([0, 5], [7, 7], [5, 10]), 3, 0)).toEqual([2, 1, 0]);
  });

  test("a line drawn upside down (leftwards) is measured along its direction", () => {
    // Turned 180°: drawn in visual order runs leftwards on the page, and the reader's right is the
    // page's left. A glyph of two characters (the second empty, at the glyph's left end), then one more.
    expect(rtlOrder(boxes([20, 28], [20, 20], [10, 20]), 3, 2)).toEqual([2, 0, 1]);
  });
});

function wordsOf(pdf: Buffer): string[] {
  const doc = new mupdf.PDFDocument(pdf);
  try {
    return extractPageText(doc, 0).words.map((w) => w.text);
  } finally {
    doc.destroy();
  }
}

describe.skipIf(!existsSync(DEJAVU))("right-to-left words from the text layer", () => {
  test("glyphs in visual order, one character each, read right to left", () => {
    // سلام drawn left to right: م ا ل س.
    expect(wordsOf(glyphPdf([..."مالس"].map((ch) => ({ ch, text: ch }))))).toEqual(["سلام"]);
  });

  test("a glyph that stands for several characters keeps them together, in their order", () => {
    // The ligature glyph carries "لا" (lam, alef): م (لا) س → سلام.
    const pdf = glyphPdf([
      { ch: "م", text: "م" },
      { ch: "ا", text: "لا" },
      { ch: "س", text: "س" },
    ]);
    expect(wordsOf(pdf)).toEqual(["سلام"]);
  });

  test("one glyph mapped to a whole vowelled word reads as that word", () => {
    // A shaped word whose first glyph carries all of its text (the other glyphs carry none).
    const pdf = glyphPdf([
      { ch: "ح", text: "حَبيبي" },
    ]);
    expect(wordsOf(pdf)).toEqual(["حَبيبي"]);
  });
});
