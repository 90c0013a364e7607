import "server-only";
import type * as mupdf from "mupdf";
import { readEInvoice, type EInvoiceResult } from "@/lib/engine/invoice/einvoice/read-einvoice";

/**
 * Finds a structured e-invoice embedded in a PDF (the EmbeddedFiles name tree, ISO 32000 §7.7.4):
 * Factur-X / ZUGFeRD ("factur-x.xml", "zugferd-invoice.xml", "ZUGFeRD-invoice.xml"),
 * XRechnung ("xrechnung.xml") or any attached XML whose root is a CII or UBL invoice.
 */
export interface EmbeddedEInvoice extends EInvoiceResult {
  fileName: string;
}

const PREFERRED = /^(?:factur-x|zugferd-invoice|zugferd|xrechnung|order-x|invoice)\.xml$/i;
const MAX_XML_BYTES = 20 * 1024 * 1024;

export function findEmbeddedEInvoice(
  doc: mupdf.PDFDocument,
  customFields: string[] = [],
): EmbeddedEInvoice | undefined {
  let files: Record<string, mupdf.PDFObject>;
  try {
    files = doc.getEmbeddedFiles();
  } catch {
    return undefined;
  }
  const names = Object.keys(files).sort((a, b) => Number(PREFERRED.test(b)) - Number(PREFERRED.test(a)));
  for (const name of names) {
    const spec = files[name];
    let mime = "";
    try {
      mime = doc.getFilespecParams(spec).mimetype ?? "";
    } catch {
      // Parameters are optional.
    }
    if (!/\.xml$/i.test(name) && !/xml/i.test(mime)) continue;
    let text: string;
    try {
      const buf = doc.getEmbeddedFileContents(spec);
      if (!buf || buf.getLength() === 0 || buf.getLength() > MAX_XML_BYTES) continue;
      // Copied out of WASM memory before decoding (a later allocation may move it).
      text = new TextDecoder("utf-8").decode(buf.asUint8Array().slice());
      buf.destroy();
    } catch {
      continue;
    }
    try {
      const result = readEInvoice(text, customFields);
      if (result) return { ...result, fileName: name };
    } catch {
      // Malformed XML: fall back to reading the PDF's text.
    }
  }
  return undefined;
}
