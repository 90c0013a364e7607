import bwipjs from "bwip-js/node";
import * as mupdf from "mupdf";

/**
 * A one-page PDF with the given barcodes drawn as images (bwip-js renders them) and an optional
 * line of text, for barcode reading and split-by-barcode tests.
 */
export async function barcodePage(codes: { bcid: string; text: string; x?: number; y?: number }[], text = ""): Promise<Buffer> {
  const doc = new mupdf.PDFDocument();
  try {
    const res = doc.addObject(doc.newDictionary());
    const xo = doc.newDictionary();
    res.put("XObject", xo);
    const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
    res.put("Font", doc.newDictionary()).put("F1", font);
    const ops: string[] = [];
    for (const [n, c] of codes.entries()) {
      const png = await bwipjs.toBuffer({ bcid: c.bcid, text: c.text, scale: 3, ...(c.bcid === "code128" ? { height: 12 } : {}) });
      const image = new mupdf.Image(png);
      xo.put(`B${n}`, doc.addImage(image));
      const w = image.getWidth() * 0.5;
      const h = image.getHeight() * 0.5;
      ops.push(`q ${w} 0 0 ${h} ${c.x ?? 72} ${c.y ?? 500 - n * 150} cm /B${n} Do Q`);
    }
    if (text) ops.push(`BT /F1 18 Tf 72 740 Td (${text}) Tj ET`);
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, res, ops.join("\n")));
    const buf = doc.saveToBuffer("compress");
    return Buffer.from(buf.asUint8Array());
  } finally {
    doc.destroy();
  }
}

