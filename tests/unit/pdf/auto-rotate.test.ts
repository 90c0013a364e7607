import * as mupdf from "mupdf";
import sharp from "sharp";
import { afterAll, describe, expect, test } from "vitest";
import { autoRotate } from "@/lib/engine/pdf/auto-rotate";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import { openPdf } from "@/lib/engine/pdf/open-pdf";
import { imageToPdfPages, renderPagePng } from "@/tests/helpers/extract-fixtures";
import { makePdf } from "@/tests/helpers/pdf-fixtures";

afterAll(() => shutdownOcr());

const LETTER = "Dear customer,\nthank you for your order of 3 March.\nThe goods will be shipped within ten days.\nKind regards, the sales team";

/** Rotation of each page after auto-rotation, and the verdicts. */
async function run(bytes: Uint8Array) {
  const doc = openPdf(bytes);
  try {
    const verdicts = await autoRotate(doc);
    const rotations = Array.from({ length: doc.countPages() }, (_, i) => doc.findPage(i).getInheritable("Rotate").asNumber());
    return { verdicts, rotations };
  } finally {
    doc.destroy();
  }
}

/** One page whose text is drawn turned in the content stream itself (no /Rotate). */
function sidewaysContent(matrix: string): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
    const res = doc.addObject(doc.newDictionary());
    res.put("Font", doc.newDictionary()).put("F1", font);
    const lines = LETTER.split("\n").map((l, n) => `BT /F1 14 Tf ${matrix} Tm 0 ${-n * 20} Td (${l}) Tj ET`);
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, res, lines.join("\n")));
    const buf = doc.saveToBuffer("");
    return Buffer.from(buf.asUint8Array());
  } finally {
    doc.destroy();
  }
}

describe("autoRotate", () => {
  test("text pages shown sideways or upside down (by /Rotate) are set upright; upright ones stay", async () => {
    const rot = [0, 90, 180, 270] as const;
    const pdf = makePdf({ pages: 4, text: () => LETTER, rotate: (i) => rot[i] });
    const { verdicts, rotations } = await run(pdf);
    expect(rotations).toEqual([0, 0, 0, 0]);
    expect(verdicts.map((v) => [v.turned, v.by])).toEqual([
      [0, "text"],
      [270, "text"],
      [180, "text"],
      [90, "text"],
    ]);
  });

  test("text drawn turned in the content stream: the page gets the /Rotate that shows it upright", async () => {
    // Text running up the page (turned 90° anticlockwise): a quarter turn clockwise sets it upright.
    const up = await run(sidewaysContent("0 1 -1 0 300 100"));
    expect(up.rotations).toEqual([90]);
    // Text running down the page: three quarter turns.
    const down = await run(sidewaysContent("0 -1 1 0 300 700"));
    expect(down.rotations).toEqual([270]);
  });

  test("scanned pages: orientation detection from the pixels", async () => {
    const text = makePdf({ pages: 1, text: () => `${LETTER}\n${LETTER}` });
    const png = renderPagePng(text, 0, 150);
    const turned = await Promise.all([0, 90, 180, 270].map(async (d) => sharp(png).rotate(d).png().toBuffer()));
    const blank = await sharp({ create: { width: 600, height: 800, channels: 3, background: "#ffffff" } }).png().toBuffer();
    const scan = imageToPdfPages([...turned, blank], 150);
    const { verdicts, rotations } = await run(scan);
    expect(rotations).toEqual([0, 270, 180, 90, 0]);
    expect(verdicts.slice(1, 4).every((v) => v.by === "osd" || v.by === "ocr")).toBe(true);
    expect(verdicts[4].by).toBe("undecided");
  }, 120_000);
});
