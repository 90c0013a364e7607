import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import * as mupdf from "mupdf";
import { describe, expect, test } from "vitest";
import { renderWithoutText } from "@/lib/engine/pdf/render-without-text";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A page with an axial shading (sh), a filled box and a line of text. */
function shadingPdf(): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const res = doc.newDictionary();
    const fonts = doc.newDictionary();
    fonts.put("F1", doc.addSimpleFont(new mupdf.Font("Helvetica")));
    res.put("Font", fonts);
    const fn = doc.newDictionary();
    fn.put("FunctionType", 2);
    fn.put("Domain", doc.newArray());
    fn.get("Domain").push(0);
    fn.get("Domain").push(1);
    fn.put("C0", doc.newArray());
    fn.put("C1", doc.newArray());
    for (const v of [1, 0, 0]) fn.get("C0").push(v);
    for (const v of [0, 0, 1]) fn.get("C1").push(v);
    fn.put("N", 1);
    const sh = doc.newDictionary();
    sh.put("ShadingType", 2);
    sh.put("ColorSpace", doc.newName("DeviceRGB"));
    sh.put("Coords", doc.newArray());
    for (const v of [50, 0, 550, 0]) sh.get("Coords").push(v);
    sh.put("Function", fn);
    const shadings = doc.newDictionary();
    shadings.put("Sh1", doc.addObject(sh));
    res.put("Shading", shadings);
    const content = "q 50 400 500 300 re W n /Sh1 sh Q 0 0 1 rg 50 100 200 50 re f BT /F1 24 Tf 60 750 Td (Shaded page) Tj ET";
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, doc.addObject(res), content));
    return Buffer.from(doc.saveToBuffer("").asUint8Array());
  } finally {
    doc.destroy();
  }
}

describe("renderWithoutText", () => {
  test("draws shadings and vector art but no text, and leaves MuPDF healthy after the document is gone", async () => {
    const pdf = shadingPdf();
    for (let round = 0; round < 30; round++) {
      const doc = mupdf.Document.openDocument(pdf, "application/pdf");
      const page = doc.loadPage(0);
      const pix = renderWithoutText(page, mupdf.Matrix.scale(0.5, 0.5), mupdf.ColorSpace.DeviceRGB);
      const w = pix.getWidth();
      const px = pix.getPixels();
      const at = (x: number, y: number) => [...px.slice((y * w + x) * 3, (y * w + x) * 3 + 3)];
      if (round === 0) {
        // The shading runs red → blue across (x 25…275 at half size), the box is blue, the text is gone.
        expect(at(40, 100)[0]).toBeGreaterThan(180);
        expect(at(260, 100)[2]).toBeGreaterThan(180);
        expect(at(60, 330)).toEqual([0, 0, 255]);
        let dark = 0;
        for (let x = 30; x < 150; x++) for (let y = 5; y < 25; y++) if (at(x, y)[0] < 128) dark++;
        expect(dark).toBe(0);
      }
      pix.destroy();
      page.destroy();
      doc.destroy();
      // Finalizers of wrappers handed out during the run (they run after a collection, on a later
      // tick) must not free anything twice.
      gc();
      await new Promise((r) => setTimeout(r, 5));
    }
    const again = mupdf.Document.openDocument(pdf, "application/pdf");
    expect(again.loadPage(0).toStructuredText("").asText()).toContain("Shaded page");
    again.destroy();
  });
});
