import "server-only";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { QuireError } from "@/lib/core/errors";
import { quietMupdf } from "@/lib/engine/pdf/open-pdf";
import type { ImageLimits, ImagePage, ImageProbe } from "./probe-image";

/**
 * Images → PDF: one page per image (per page of a multi-page TIFF), each page the size of its
 * image at the image's resolution (72 dpi when unknown), the EXIF orientation applied by the
 * page's transformation matrix rather than by re-encoding. JPEGs are embedded as they are
 * (DCTDecode, no generation loss); everything else is stored losslessly (Flate, with the PNG
 * predictors sharp's encoder chose, and an SMask for real transparency).
 */
export interface ImageInput {
  bytes: Uint8Array;
  /** "image 2 (scan.tif)", for messages. */
  label: string;
  probe: ImageProbe;
}

/** A page the PDF will hold: which image, which of its pages. */
export interface PlannedPage {
  input: number;
  page: ImagePage;
}

/** Largest page side a PDF viewer is guaranteed to take (ISO 32000-1 annex C: 14 400 units). */
const MAX_SIDE_PT = 14_400;

/** Flattens the inputs into their pages, in order. */
export function planPages(inputs: ImageInput[]): PlannedPage[] {
  return inputs.flatMap((input, i) => input.probe.pages.map((page) => ({ input: i, page })));
}

/** Page size in points for an image page: pixels at its dpi, sides swapped for orientations 5–8, capped at 14 400 pt. */
export function pageSizeFor(page: ImagePage): { width: number; height: number } {
  let w = (page.width * 72) / page.dpiX;
  let h = (page.height * 72) / page.dpiY;
  if (page.orientation >= 5) [w, h] = [h, w];
  const scale = Math.min(1, MAX_SIDE_PT / Math.max(w, h));
  return { width: round(w * scale), height: round(h * scale) };
}

/**
 * The `cm` matrix that draws the unit-square image upright on a W×H page for an EXIF
 * orientation (1 as stored, 2 mirrored, 3 turned 180°, 4 flipped, 5 transposed, 6 turned 90°
 * clockwise, 7 transversed, 8 turned 90° anticlockwise).
 */
export function orientationMatrix(
  orientation: number,
  W: number,
  H: number,
): [number, number, number, number, number, number] {
  switch (orientation) {
    case 2:
      return [-W, 0, 0, H, W, 0];
    case 3:
      return [-W, 0, 0, -H, W, H];
    case 4:
      return [W, 0, 0, -H, 0, H];
    case 5:
      return [0, -H, -W, 0, W, H];
    case 6:
      return [0, -H, W, 0, 0, H];
    case 7:
      return [0, H, W, 0, 0, 0];
    case 8:
      return [0, H, -W, 0, W, 0];
    default:
      return [W, 0, 0, H, 0, 0];
  }
}

/** Builds the PDF from the planned pages (already selected and limit-checked). */
export async function buildImagePdf(
  inputs: ImageInput[],
  pages: PlannedPage[],
  limits: ImageLimits,
): Promise<Uint8Array> {
  quietMupdf();
  const doc = new mupdf.PDFDocument();
  try {
    for (const planned of pages) {
      const input = inputs[planned.input];
      const image = await addImageObject(doc, input, planned.page, limits);
      const { width, height } = pageSizeFor(planned.page);
      const m = orientationMatrix(planned.page.orientation, width, height).map(fmt).join(" ");
      const resources = doc.addObject({ XObject: { Im0: image } });
      const pageObj = doc.addPage([0, 0, width, height], 0, resources, `q ${m} cm /Im0 Do Q`);
      doc.insertPage(-1, pageObj);
    }
    doc.setMetaData("info:Producer", "Quire");
    return doc.saveToBuffer("compress,garbage=compact").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

async function addImageObject(
  doc: mupdf.PDFDocument,
  input: ImageInput,
  page: ImagePage,
  limits: ImageLimits,
): Promise<mupdf.PDFObject> {
  const { format } = input.probe;
  if (format === "jpeg") {
    // Decode once at 1/8 scale to prove the data is whole, then embed the original bytes.
    await sharp(input.bytes, { failOn: "truncated", limitInputPixels: limits.maxPixels })
      .resize({ width: 8, fastShrinkOnLoad: true })
      .raw()
      .toBuffer()
      .catch((e) => {
        throw damaged(input, e);
      });
    return addWithMupdf(doc, input);
  }
  if (format === "bmp") return addWithMupdf(doc, input);
  return addLossless(doc, input, page, limits);
}

/** MuPDF keeps a JPEG's DCT data as is (colour space and Adobe inversion handled) and decodes BMP. */
function addWithMupdf(doc: mupdf.PDFDocument, input: ImageInput): mupdf.PDFObject {
  try {
    return doc.addImage(new mupdf.Image(input.bytes));
  } catch (e) {
    throw damaged(input, e);
  }
}

/**
 * Decodes with sharp and re-encodes as PNG (lossless; 8 or 16 bits, grey or RGB), then moves the
 * PNG's zlib data straight into a FlateDecode stream: PDF's PNG predictors read it as is.
 */
async function addLossless(
  doc: mupdf.PDFDocument,
  input: ImageInput,
  page: ImagePage,
  limits: ImageLimits,
): Promise<mupdf.PDFObject> {
  const open = () =>
    sharp(input.bytes, {
      failOn: "truncated",
      limitInputPixels: limits.maxPixels,
      page: page.page,
      pages: 1,
    });
  try {
    const meta = await open().metadata();
    const grey = meta.channels !== undefined && meta.channels <= 2 && meta.space !== "cmyk";
    const deep = meta.depth === "ushort";
    const space = grey ? (deep ? "grey16" : "b-w") : deep ? "rgb16" : "srgb";
    let smask: mupdf.PDFObject | undefined;
    if (meta.hasAlpha) {
      const { isOpaque } = await open().stats();
      if (!isOpaque) {
        const alphaPng = await open()
          .extractChannel("alpha")
          .toColourspace(deep ? "grey16" : "b-w")
          .png(pngOptions)
          .toBuffer();
        smask = addPngStream(doc, alphaPng, "DeviceGray", undefined);
      }
    }
    const colorPng = await open().removeAlpha().toColourspace(space).png(pngOptions).toBuffer();
    return addPngStream(doc, colorPng, grey ? "DeviceGray" : "DeviceRGB", smask);
  } catch (e) {
    if (e instanceof QuireError) throw e;
    throw damaged(input, e);
  }
}

const pngOptions = {
  compressionLevel: 6,
  adaptiveFiltering: true,
  palette: false,
  progressive: false,
} as const;

/** Wraps a non-interlaced grey/RGB PNG's IDAT data as an image XObject (ISO 32000-1 §7.4.4.4, predictors). */
function addPngStream(
  doc: mupdf.PDFDocument,
  png: Buffer,
  colorSpace: "DeviceGray" | "DeviceRGB",
  smask: mupdf.PDFObject | undefined,
): mupdf.PDFObject {
  const { width, height, bitDepth, colorType, interlace, idat } = readPng(png);
  const colors = colorType === 0 ? 1 : colorType === 2 ? 3 : 0;
  if (!colors || interlace !== 0)
    throw new Error(`unexpected PNG layout from the encoder (type ${colorType}, interlace ${interlace})`);
  const dict: Record<string, unknown> = {
    Type: doc.newName("XObject"),
    Subtype: doc.newName("Image"),
    Width: width,
    Height: height,
    ColorSpace: doc.newName(colorSpace),
    BitsPerComponent: bitDepth,
    Filter: doc.newName("FlateDecode"),
    DecodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: bitDepth, Columns: width },
  };
  if (smask) dict.SMask = smask;
  return doc.addRawStream(idat, dict);
}

/** Splits a PNG into its header fields and the concatenated IDAT payload. */
function readPng(png: Buffer): {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
  idat: Buffer;
} {
  let off = 8;
  let header:
    { width: number; height: number; bitDepth: number; colorType: number; interlace: number } | undefined;
  const parts: Buffer[] = [];
  while (off + 8 <= png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString("latin1", off + 4, off + 8);
    const data = png.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") {
      header = {
        width: data.readUInt32BE(0),
        height: data.readUInt32BE(4),
        bitDepth: data[8],
        colorType: data[9],
        interlace: data[12],
      };
    } else if (type === "IDAT") parts.push(data);
    else if (type === "IEND") break;
    off += 12 + len;
  }
  if (!header || parts.length === 0) throw new Error("PNG without IHDR or IDAT");
  return { ...header, idat: Buffer.concat(parts) };
}

function damaged(input: ImageInput, e: unknown): QuireError {
  const why = String((e as Error)?.message ?? e)
    .split("\n")[0]
    .slice(0, 160);
  if (/pixel limit/i.test(why))
    return new QuireError(413, `${input.label}: the image is larger than the pixel limit.`);
  return new QuireError(
    442,
    `${input.label}: the ${input.probe.format.toUpperCase()} file is damaged or incomplete (${why}).`,
  );
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, "").replace(/\.$/, "");
}
