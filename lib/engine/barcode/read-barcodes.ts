import "server-only";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as mupdf from "mupdf";
import { prepareZXingModule, readBarcodes, type ReadInputBarcodeFormat } from "zxing-wasm/reader";
import { QuireError } from "@/lib/core/errors";
import { toPnm } from "@/lib/engine/ocr/preprocess";
import { rasterFromPixmap } from "@/lib/engine/text/page-texts";

/**
 * Barcodes on PDF pages with ZXing (zxing-wasm's reader build). The WebAssembly binary is read
 * from node_modules and handed to the module: zxing-wasm would otherwise fetch it from a CDN,
 * and Quire makes no call out of the machine for its own code.
 */
export interface FoundBarcode {
  /** ZXing's canonical format name ("QRCode", "DataMatrix", "Code128"...). */
  format: string;
  text: string;
}

/** The public API's barcode type names (lower case, as the split2 macro writes them) → ZXing's. */
const TYPES: Record<string, ReadInputBarcodeFormat[]> = {
  all: ["All"],
  qrcode: ["QRCode", "MicroQRCode", "RMQRCode"],
  microqrcode: ["MicroQRCode"],
  datamatrix: ["DataMatrix"],
  pdf417: ["PDF417", "MicroPDF417"],
  micropdf417: ["MicroPDF417"],
  aztec: ["Aztec"],
  maxicode: ["MaxiCode"],
  code128: ["Code128"],
  gs1_128: ["Code128"],
  code39: ["Code39"],
  code39extended: ["Code39Ext"],
  code93: ["Code93"],
  codabar: ["Codabar"],
  ean13: ["EAN13"],
  ean8: ["EAN8"],
  upca: ["UPCA"],
  upce: ["UPCE"],
  isbn: ["ISBN"],
  i2of5: ["ITF"],
  interleaved2of5: ["ITF"],
  itf: ["ITF"],
  itf14: ["ITF14"],
  databar: ["DataBar", "DataBarExp", "DataBarLtd"],
  gs1databar: ["DataBar", "DataBarExp", "DataBarLtd"],
  databarexpanded: ["DataBarExp"],
  databarlimited: ["DataBarLtd"],
  pzn: ["PZN"],
};

/** ZXing formats for the macro's type list (empty: every format); an unknown type → 400. */
export function barcodeFormats(types: string[]): ReadInputBarcodeFormat[] {
  const out = new Set<ReadInputBarcodeFormat>();
  for (const t of types) {
    const key = t.toLowerCase().replace(/[\s-]/g, "");
    const formats = TYPES[key];
    if (!formats) {
      throw new QuireError(400, `searchString: unknown barcode type "${t}"; use ${Object.keys(TYPES).join(", ")}.`);
    }
    for (const f of formats) out.add(f);
  }
  return out.has("All") ? [] : [...out];
}

let prepared = false;

/** Points zxing-wasm at its binary in node_modules (once per process). */
function prepare(): void {
  if (prepared) return;
  const require = createRequire(import.meta.url);
  const wasmPath = require.resolve("zxing-wasm/reader/zxing_reader.wasm");
  const wasmBinary = readFileSync(wasmPath);
  prepareZXingModule({
    overrides: {
      wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer,
      locateFile: (file: string) => (file.endsWith(".wasm") ? wasmPath : file),
    },
  });
  prepared = true;
}

/** Resolution the page is read at: enough for a 2 cm QR code of a scan, small enough to be quick. */
const DPI = 200;

/** The barcodes of one page (0-based), rendered in gray at 200 dpi, of the given ZXing formats. */
export async function readPageBarcodes(doc: mupdf.Document, index: number, formats: ReadInputBarcodeFormat[]): Promise<FoundBarcode[]> {
  prepare();
  const page = doc.loadPage(index);
  let pnm: Buffer;
  try {
    const scale = DPI / 72;
    const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false, true);
    try {
      pnm = toPnm(rasterFromPixmap(pix, DPI));
    } finally {
      pix.destroy();
    }
  } finally {
    page.destroy();
  }
  const results = await readBarcodes(new Uint8Array(pnm.buffer, pnm.byteOffset, pnm.byteLength), {
    formats,
    tryHarder: true,
    tryRotate: true,
    tryInvert: true,
    maxNumberOfSymbols: 32,
  });
  return results.filter((r) => r.isValid).map((r) => ({ format: r.format, text: r.text }));
}
