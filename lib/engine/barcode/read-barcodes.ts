import "server-only";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { prepareZXingModule, readBarcodes, type ReadInputBarcodeFormat } from "zxing-wasm/reader";
import { QuireError } from "@/lib/core/errors";
import { assertImagePixels, imageLimitsFromEnv } from "@/lib/engine/images/probe-image";
import { toPnm, type Raster } from "@/lib/engine/ocr/preprocess";
import { rasterFromPixmap } from "@/lib/engine/text/page-texts";
import { readableTypeNames, readFormatsOf } from "./barcode-types";
import { loadPdfPage } from "@/lib/engine/pdf/open-pdf";

/**
 * Barcodes on PDF pages and in images with ZXing (zxing-wasm's reader build). The WebAssembly
 * binary is read from node_modules and handed to the module: zxing-wasm would otherwise fetch it
 * from a CDN, and Quire makes no call out of the machine for its own code.
 */
export interface FoundBarcode {
  /** ZXing's canonical format name ("QRCode", "DataMatrix", "Code128"...). */
  format: string;
  text: string;
  /** The symbol's bounding box: PDF points from the page's top-left corner, or image pixels. */
  box: { x: number; y: number; width: number; height: number };
}

/**
 * ZXing formats for a list of public type names (empty: every format); an unknown or unreadable
 * type → 400 naming the field.
 */
export function barcodeFormats(types: string[], field = "searchString"): ReadInputBarcodeFormat[] {
  const out = new Set<ReadInputBarcodeFormat>();
  for (const t of types) {
    const formats = readFormatsOf(t);
    if (!formats) {
      throw new QuireError(400, `${field}: unknown barcode type "${t}" (or one ZXing cannot read); use ${readableTypeNames().join(", ")}.`);
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

/** The barcodes of one page (0-based), rendered in gray at 200 dpi, of the given ZXing formats. Boxes in points. */
export async function readPageBarcodes(doc: mupdf.Document, index: number, formats: ReadInputBarcodeFormat[]): Promise<FoundBarcode[]> {
  const page = loadPdfPage(doc, index);
  let raster: Raster;
  try {
    const scale = DPI / 72;
    const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false, true);
    try {
      raster = rasterFromPixmap(pix, DPI);
    } finally {
      pix.destroy();
    }
  } finally {
    page.destroy();
  }
  return readRasterBarcodes(raster, formats, 72 / DPI);
}


/**
 * The barcodes of an image file (PNG, JPEG, TIFF with all its pages, GIF, WebP, BMP...), one list
 * per image page; boxes in the image's pixels. A photo is often askew, so an image where nothing
 * reads is also tried turned ±20° (PDF pages are not: most are level, and a long document of
 * pages without barcodes would cost three times as much). 415 when the bytes are no image.
 */
export async function readImageBarcodes(bytes: Buffer, formats: ReadInputBarcodeFormat[]): Promise<FoundBarcode[][]> {
  let pages = 1;
  // The one pixel limit (IMAGE_MAX_PIXELS, 413), checked from the header before decoding.
  const maxPixels = imageLimitsFromEnv().maxPixels;
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (meta.width && meta.height) assertImagePixels(meta.width, meta.pageHeight ?? meta.height, "url: the image", maxPixels);
    pages = Math.max(1, meta.pages ?? 1);
  } catch (e) {
    if (e instanceof QuireError) throw e;
    throw new QuireError(415, `url: the file is neither a PDF nor an image Quire can read (${(e as Error).message})`);
  }
  const out: FoundBarcode[][] = [];
  for (let page = 0; page < Math.min(pages, 1000); page++) {
    const { data, info } = await sharp(bytes, { page, limitInputPixels: maxPixels })
      .rotate() // EXIF orientation of a phone photo
      .flatten({ background: "#ffffff" })
      .grayscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const gray = info.channels === 1 ? data : pickFirstChannel(data, info.channels);
    out.push(await readRasterBarcodes({ data: gray, width: info.width, height: info.height, channels: 1, dpi: 72 }, formats, 1, true));
  }
  return out;
}

function pickFirstChannel(data: Buffer, channels: number): Uint8Array {
  const out = new Uint8Array(data.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels];
  return out;
}

/**
 * ZXing over one gray raster (rotations by quarter turns, inverted codes, harder search). When
 * nothing is found, once more after stretching the contrast (a faint scan, a grey-on-grey photo);
 * with `deskew`, then also turned ±20°: ZXing scans linear codes along rows, so one photographed
 * askew reads only when turned back near level.
 */
async function readRasterBarcodes(r: Raster, formats: ReadInputBarcodeFormat[], unit: number, deskew = false): Promise<FoundBarcode[]> {
  prepare();
  let found = await zxingRead(r, formats);
  const base = found.length === 0 ? (stretchContrast(r) ?? r) : r;
  if (found.length === 0 && base !== r) found = await zxingRead(base, formats);
  for (const angle of deskew ? [20, -20] : []) {
    if (found.length) break;
    found = await readTurned(base, angle, formats);
  }
  return found.map((b) => ({ format: b.format, text: b.text, box: scaleBox(boxOf(b.corners), unit) }));
}

interface Decoded {
  format: string;
  text: string;
  /** topLeft, topRight, bottomRight, bottomLeft, in the raster's pixels. */
  corners: Array<{ x: number; y: number }>;
}

async function zxingRead(r: Raster, formats: ReadInputBarcodeFormat[]): Promise<Decoded[]> {
  const pnm = toPnm(r);
  const results = await readBarcodes(new Uint8Array(pnm.buffer, pnm.byteOffset, pnm.byteLength), {
    formats,
    tryHarder: true,
    tryRotate: true,
    tryInvert: true,
    tryDownscale: true,
    maxNumberOfSymbols: 255,
  });
  return results
    .filter((x) => x.isValid)
    .map((x) => {
      const p = x.position;
      return { format: x.format, text: x.text, corners: [p.topLeft, p.topRight, p.bottomRight, p.bottomLeft].map((c) => ({ x: c.x, y: c.y })) };
    });
}

/** Reads the raster turned by `angle` degrees (clockwise), and maps the corners found back onto the raster. */
async function readTurned(r: Raster, angle: number, formats: ReadInputBarcodeFormat[]): Promise<Decoded[]> {
  const { data, info } = await sharp(Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength), { raw: { width: r.width, height: r.height, channels: 1 } })
    .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const gray = info.channels === 1 ? data : pickFirstChannel(data, info.channels);
  const found = await zxingRead({ data: gray, width: info.width, height: info.height, channels: 1, dpi: r.dpi }, formats);
  const t = (angle * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const back = (c: { x: number; y: number }) => {
    const dx = c.x - info.width / 2;
    const dy = c.y - info.height / 2;
    return { x: dx * cos + dy * sin + r.width / 2, y: -dx * sin + dy * cos + r.height / 2 };
  };
  return found.map((f) => ({ ...f, corners: f.corners.map(back) }));
}

function boxOf(corners: Array<{ x: number; y: number }>): FoundBarcode["box"] {
  const xs = corners.map((c) => c.x);
  const ys = corners.map((c) => c.y);
  const x0 = Math.max(0, Math.min(...xs));
  const y0 = Math.max(0, Math.min(...ys));
  return { x: x0, y: y0, width: Math.max(...xs) - x0, height: Math.max(...ys) - y0 };
}

function scaleBox(b: FoundBarcode["box"], unit: number): FoundBarcode["box"] {
  const r = (v: number) => Math.round(v * unit * 100) / 100;
  return { x: r(b.x), y: r(b.y), width: r(b.width), height: r(b.height) };
}

/**
 * The raster with its 1st–99th percentile grey levels stretched to 0–255; null when it is
 * already contrasted (or blank), so the second pass is skipped.
 */
export function stretchContrast(r: Raster): Raster | null {
  const hist = new Uint32Array(256);
  for (let i = 0; i < r.data.length; i += r.channels) hist[r.data[i]]++;
  const total = r.data.length / r.channels;
  let lo = 0;
  let hi = 255;
  for (let acc = 0; lo < 255 && (acc += hist[lo]) < total * 0.01; lo++);
  for (let acc = 0; hi > 0 && (acc += hist[hi]) < total * 0.01; hi--);
  if (hi - lo < 8 || (lo < 20 && hi > 235)) return null;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(((v - lo) * 255) / (hi - lo))));
  const data = new Uint8Array(r.data.length);
  for (let i = 0; i < data.length; i++) data[i] = lut[r.data[i]];
  return { ...r, data };
}
