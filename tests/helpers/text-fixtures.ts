/**
 * Fixtures for the find, text-edit and searchable-PDF tests: a page with a ruled table, and a
 * scan-like page (text only as a picture). Generated here, never read from disk.
 */
import * as mupdf from "mupdf";

function save(doc: mupdf.PDFDocument): Buffer {
  const buf = doc.saveToBuffer("compress");
  try {
    return Buffer.from(buf.asUint8Array());
  } finally {
    buf.destroy();
  }
}

function esc(s: string): string {
  return s.replace(/[\\()]/g, "\\$&");
}

/**
 * Two pages: page 0 plain text, page 1 a ruled table of 3 columns × 4 rows at x 72–372,
 * y 200–280 from the top (cells 100 × 20 pt), 10 pt Helvetica.
 */
export function makeTablePdf(): Buffer {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
  const res = doc.addObject(doc.newDictionary());
  res.put("Font", doc.newDictionary()).put("F1", font);
  doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, res, "BT /F1 12 Tf 72 700 Td (Just a paragraph of text.) Tj ET"));
  const H = 792;
  const ops: string[] = ["0.5 w"];
  for (let r = 0; r <= 4; r++) ops.push(`72 ${H - 200 - r * 20} m 372 ${H - 200 - r * 20} l S`);
  for (let c = 0; c <= 3; c++) ops.push(`${72 + c * 100} ${H - 200} m ${72 + c * 100} ${H - 280} l S`);
  const cells = [
    ["Item", "Qty", "Price"],
    ["Apples", "3", "1.20"],
    ["Pears", "5", "2.10"],
    ["Plums", "7", "0.90"],
  ];
  cells.forEach((row, r) =>
    row.forEach((text, c) => ops.push(`BT /F1 10 Tf ${76 + c * 100} ${H - 214 - r * 20} Td (${esc(text)}) Tj ET`)),
  );
  doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, res, ops.join("\n")));
  try {
    return save(doc);
  } finally {
    doc.destroy();
  }
}

/**
 * A "scan": each page of `source` rendered at `dpi` and placed as the page's only content (no
 * text layer), with the page size kept.
 */
export function scanOf(source: Uint8Array, dpi = 200): Buffer {
  const src = new mupdf.PDFDocument(Buffer.from(source));
  const out = new mupdf.PDFDocument();
  try {
    for (let i = 0; i < src.countPages(); i++) {
      const page = src.loadPage(i);
      const [x0, y0, x1, y1] = page.getBounds();
      const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false, true);
      const img = out.addImage(new mupdf.Image(pix));
      const res = out.addObject(out.newDictionary());
      res.put("XObject", out.newDictionary()).put("Im1", img);
      const w = x1 - x0;
      const h = y1 - y0;
      out.insertPage(-1, out.addPage([0, 0, w, h], 0, res, `q ${w} 0 0 ${h} 0 0 cm /Im1 Do Q`));
    }
    return save(out);
  } finally {
    src.destroy();
    out.destroy();
  }
}

/** A page whose only text ("Hidden secret in a form") is drawn by a Form XObject. */
export function makeFormXObjectPdf(): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
    const xres = doc.newDictionary();
    xres.put("Font", doc.newDictionary()).put("F1", font);
    const form = doc.addStream("BT /F1 20 Tf 72 700 Td (Hidden secret in a form) Tj ET", {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, 612, 792],
      Resources: xres,
    });
    const res = doc.addObject(doc.newDictionary());
    res.put("XObject", doc.newDictionary()).put("X1", form);
    doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, res, "q /X1 Do Q"));
    return save(doc);
  } finally {
    doc.destroy();
  }
}

/** Every stream of a PDF, decoded, joined: to check that some text is nowhere in the file. */
export function allStreamsText(bytes: Uint8Array): string {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    const out: string[] = [];
    for (let i = 1; i < doc.countObjects(); i++) {
      const obj = doc.newIndirect(i);
      if (obj.isStream()) {
        try {
          out.push(obj.readStream().asString());
        } catch {
          /* an image or a stream MuPDF cannot decode as text */
        }
      }
    }
    return out.join("\n");
  } finally {
    doc.destroy();
  }
}
