import "server-only";
import * as mupdf from "mupdf";
import sharp from "sharp";
import zlib from "node:zlib";
import { encodeCcittG3, encodeCcittG4 } from "./ccitt";
import type { ImageClass } from "./options";

/**
 * Reading and re-encoding image XObjects (ISO 32000-1 §8.9.5). Pixels are decoded by MuPDF
 * (or by sharp straight from a plain JPEG), resampled and encoded by sharp (mozjpeg, PNG
 * predictors) or by our CCITT encoder, and written back into the same object.
 */

/** Images above this many pixels are left alone rather than decoded (memory cap of a run). */
const MAX_IMAGE_PIXELS = 120_000_000;

export interface ImageInfo {
  num: number;
  obj: mupdf.PDFObject;
  width: number;
  height: number;
  bpc: number;
  cls: ImageClass;
  isStencil: boolean;
  /** Colour components (1 for stencils); 0 when only the JPX data says. */
  comps: number;
  isIndexed: boolean;
  filters: string[];
  rawLength: number;
  /** Why the image must not be touched, if so. */
  untouchable?: string;
}

const LOSSY = new Set(["DCTDecode", "DCT", "JPXDecode", "JBIG2Decode"]);

export function isLossyFiltered(info: ImageInfo): boolean {
  return info.filters.some((f) => LOSSY.has(f));
}

function nameOf(o: mupdf.PDFObject): string {
  return o.isName() ? o.asName() : "";
}

function filtersOf(dict: mupdf.PDFObject): string[] {
  const f = dict.get("Filter");
  if (f.isName()) return [f.asName()];
  if (f.isArray()) {
    const out: string[] = [];
    for (let i = 0; i < f.length; i++) out.push(nameOf(f.get(i)));
    return out;
  }
  return [];
}

interface CsInfo {
  comps: number;
  indexed: boolean;
  /** Separation, DeviceN, Pattern or unknown: values are not plain gray/RGB. */
  special: boolean;
}

function colorSpaceInfo(cs: mupdf.PDFObject, depth = 0): CsInfo {
  if (depth > 4) return { comps: 0, indexed: false, special: true };
  if (cs.isName()) {
    switch (cs.asName()) {
      case "DeviceGray":
      case "G":
      case "CalGray":
        return { comps: 1, indexed: false, special: false };
      case "DeviceRGB":
      case "RGB":
        return { comps: 3, indexed: false, special: false };
      case "DeviceCMYK":
      case "CMYK":
        return { comps: 4, indexed: false, special: false };
      default:
        return { comps: 0, indexed: false, special: true };
    }
  }
  if (cs.isArray() && cs.length > 0) {
    const kind = nameOf(cs.get(0));
    switch (kind) {
      case "ICCBased": {
        const n = cs.get(1).get("N");
        return { comps: n.isNumber() ? n.asNumber() : 0, indexed: false, special: !n.isNumber() };
      }
      case "CalGray":
        return { comps: 1, indexed: false, special: false };
      case "CalRGB":
      case "Lab":
        return { comps: 3, indexed: false, special: false };
      case "Indexed":
      case "I":
        return { comps: colorSpaceInfo(cs.get(1), depth + 1).comps, indexed: true, special: false };
      default:
        return { comps: 0, indexed: false, special: true };
    }
  }
  return { comps: 0, indexed: false, special: true };
}

/** Reads what decides an image's treatment; null when `obj` is not an image XObject. */
export function inspectImage(num: number, obj: mupdf.PDFObject): ImageInfo | null {
  if (!obj.isStream()) return null;
  if (nameOf(obj.get("Subtype")) !== "Image") return null;
  const num0 = (k: string) => {
    const v = obj.get(k);
    return v.isNumber() ? v.asNumber() : 0;
  };
  const width = num0("Width");
  const height = num0("Height");
  const isStencil = obj.get("ImageMask").isBoolean() && obj.get("ImageMask").asBoolean();
  const filters = filtersOf(obj);
  const bpc = isStencil ? 1 : num0("BitsPerComponent") || (filters.includes("JPXDecode") ? 8 : 0);
  const cs = obj.get("ColorSpace");
  const csi: CsInfo = isStencil
    ? { comps: 1, indexed: false, special: false }
    : cs.isNull() && filters.includes("JPXDecode")
      ? { comps: 0, indexed: false, special: false }
      : colorSpaceInfo(cs.resolve());
  let rawLength = num0("Length");
  const info: ImageInfo = {
    num,
    obj,
    width,
    height,
    bpc,
    cls: "color",
    isStencil,
    comps: csi.comps,
    isIndexed: csi.indexed,
    filters,
    rawLength,
  };
  if (isStencil || (bpc === 1 && csi.comps === 1 && !csi.indexed)) info.cls = "monochrome";
  else if (csi.comps === 1 && !csi.indexed) info.cls = "grayscale";

  if (width <= 0 || height <= 0) info.untouchable = "no size";
  else if (width * height > MAX_IMAGE_PIXELS) info.untouchable = "too many pixels";
  else if (csi.special) info.untouchable = "special colour space";
  else if (obj.get("Mask").isArray())
    info.untouchable = "colour-key masked"; // exact colours matter
  else if (num0("SMaskInData") > 0) info.untouchable = "alpha inside JPX";
  else if (filters.some((f) => f === "" || f === "Crypt")) info.untouchable = "unknown filter";
  if (rawLength <= 0) {
    try {
      const raw = obj.readRawStream();
      rawLength = raw.getLength();
      raw.destroy();
    } catch {
      info.untouchable ??= "unreadable";
    }
    info.rawLength = rawLength;
  }
  return info;
}

/** Decoded pixels, 8 bits per component, rows without padding. */
export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3;
  /** The values are in the image's own /ColorSpace (keep it); else DeviceGray/DeviceRGB. */
  ownColorSpace: boolean;
}

/**
 * Decodes a colour or grayscale image and resizes it to `tw`×`th` (no resize when equal).
 * Plain JPEGs in gray or RGB go straight to sharp (native decode with shrink-on-load);
 * everything else is decoded by MuPDF, which applies filters, /Decode and palettes.
 */
export async function decodeAndResize(
  doc: mupdf.PDFDocument,
  info: ImageInfo,
  tw: number,
  th: number,
): Promise<RawPixels> {
  const resize = tw !== info.width || th !== info.height;
  const fast = await tryJpegPath(info, tw, th, resize);
  if (fast) return fast;

  const decoded = tryFlatePath(info) ?? decodeWithMupdf(doc, info);
  if (!resize && decoded.width === tw && decoded.height === th) return decoded;
  const out = await sharp(decoded.data, {
    raw: { width: decoded.width, height: decoded.height, channels: decoded.channels },
  })
    .resize(tw, th, { fit: "fill", kernel: "lanczos3" })
    .toColourspace(decoded.channels === 1 ? "b-w" : "srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { ...decoded, data: out.data, width: out.info.width, height: out.info.height };
}

/**
 * Plain Flate-compressed 8-bit gray or RGB samples (no predictor, no /Decode, no palette) are
 * inflated with Node's native zlib: several times faster than decoding in WebAssembly, and the
 * samples are exactly the pixels.
 */
function tryFlatePath(info: ImageInfo): RawPixels | null {
  if (info.filters.length !== 1 || (info.filters[0] !== "FlateDecode" && info.filters[0] !== "Fl"))
    return null;
  if (info.bpc !== 8 || info.isIndexed || (info.comps !== 1 && info.comps !== 3)) return null;
  if (!info.obj.get("Decode").isNull()) return null;
  const parms = info.obj.get("DecodeParms");
  if (!parms.isNull()) {
    const predictor = parms.get("Predictor");
    if (!parms.isDictionary() || (predictor.isNumber() && predictor.asNumber() > 1)) return null;
  }
  const expected = info.width * info.height * info.comps;
  let data: Buffer;
  try {
    const raw = info.obj.readRawStream();
    const bytes = raw.asUint8Array();
    data = zlib.inflateSync(bytes, {
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
      maxOutputLength: expected + 1024,
    });
    raw.destroy();
  } catch {
    return null;
  }
  if (data.length < expected) return null;
  return {
    data: data.length === expected ? data : data.subarray(0, expected),
    width: info.width,
    height: info.height,
    channels: info.comps as 1 | 3,
    ownColorSpace: true,
  };
}

/** MuPDF decode to gray or RGB, copied out of the WASM heap so the pixmap is freed at once. */
function decodeWithMupdf(doc: mupdf.PDFDocument, info: ImageInfo): RawPixels {
  const image = doc.loadImage(info.obj);
  let pix = image.toPixmap();
  try {
    const alpha = pix.getAlpha() ? 1 : 0;
    const cs = pix.getColorSpace();
    let n = pix.getNumberOfComponents() - alpha;
    let own = !info.isIndexed && n === info.comps;
    if (alpha || !cs || !(cs.isGray() || cs.isRGB()) || (n !== 1 && n !== 3)) {
      const rgb = pix.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, false);
      pix.destroy();
      pix = rgb;
      n = 3;
      own = false;
    }
    const w = pix.getWidth();
    const h = pix.getHeight();
    const stride = pix.getStride();
    const px = pix.getPixels();
    const rowBytes = w * n;
    const data = Buffer.alloc(rowBytes * h);
    if (stride === rowBytes) data.set(px.subarray(0, rowBytes * h));
    else for (let y = 0; y < h; y++) data.set(px.subarray(y * stride, y * stride + rowBytes), y * rowBytes);
    return { data, width: w, height: h, channels: n as 1 | 3, ownColorSpace: own };
  } finally {
    pix.destroy();
    image.destroy();
  }
}

async function tryJpegPath(
  info: ImageInfo,
  tw: number,
  th: number,
  resize: boolean,
): Promise<RawPixels | null> {
  if (info.filters.length !== 1 || (info.filters[0] !== "DCTDecode" && info.filters[0] !== "DCT"))
    return null;
  if (info.isIndexed || (info.comps !== 1 && info.comps !== 3)) return null;
  if (!info.obj.get("Decode").isNull() || !info.obj.get("DecodeParms").isNull()) return null;
  const raw = info.obj.readRawStream();
  const bytes = Buffer.from(raw.asUint8Array());
  raw.destroy();
  try {
    const meta = await sharp(bytes, { failOn: "none" }).metadata();
    if (
      meta.format !== "jpeg" ||
      meta.channels !== info.comps ||
      meta.icc ||
      meta.width !== info.width ||
      meta.height !== info.height
    ) {
      return null;
    }
    const channels = info.comps as 1 | 3;
    let pipeline = sharp(bytes, { failOn: "none", limitInputPixels: MAX_IMAGE_PIXELS });
    if (resize) pipeline = pipeline.resize(tw, th, { fit: "fill", kernel: "lanczos3" });
    const out = await pipeline
      .toColourspace(channels === 1 ? "b-w" : "srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (out.info.channels !== channels) return null;
    return { data: out.data, width: out.info.width, height: out.info.height, channels, ownColorSpace: true };
  } catch {
    return null; // let MuPDF try: it is more forgiving with damaged JPEGs
  }
}

/** True when an RGB image has no visible colour (scans and charts saved as RGB). */
export function isEffectivelyGray(px: RawPixels): boolean {
  if (px.channels !== 3) return true;
  const d = px.data;
  let sum = 0;
  for (let i = 0; i < d.length; i += 3) {
    const r = d[i];
    const g = d[i + 1];
    const b = d[i + 2];
    const m = Math.max(Math.abs(r - g), Math.abs(g - b), Math.abs(r - b));
    if (m > 24) return false;
    sum += m;
  }
  return sum / (d.length / 3) < 2.5;
}

/** RGB → one luminance channel (Rec. 601 weights, as PDF's DeviceRGB→DeviceGray). */
export function toGray(px: RawPixels): RawPixels {
  if (px.channels === 1) return px;
  const n = px.width * px.height;
  const out = Buffer.alloc(n);
  const d = px.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) out[i] = (d[j] * 77 + d[j + 1] * 150 + d[j + 2] * 29 + 128) >> 8;
  return { data: out, width: px.width, height: px.height, channels: 1, ownColorSpace: false };
}

export interface EncodedImage {
  bytes: Uint8Array;
  filter: "DCTDecode" | "FlateDecode" | "CCITTFaxDecode";
  decodeParms?: Record<string, number | boolean>;
  width: number;
  height: number;
  bpc: 1 | 8;
  /** "own" keeps the image's /ColorSpace (and /Decode, for 1-bit samples). */
  colorSpace: "own" | "DeviceGray" | "DeviceRGB";
}

export async function encodeJpeg(px: RawPixels, quality: number): Promise<EncodedImage> {
  const bytes = await sharp(px.data, { raw: { width: px.width, height: px.height, channels: px.channels } })
    .toColourspace(px.channels === 1 ? "b-w" : "srgb")
    .jpeg({ quality: Math.max(1, Math.min(100, Math.round(quality))), mozjpeg: true })
    .toBuffer();
  return {
    bytes,
    filter: "DCTDecode",
    width: px.width,
    height: px.height,
    bpc: 8,
    colorSpace: px.ownColorSpace ? "own" : px.channels === 1 ? "DeviceGray" : "DeviceRGB",
  };
}

/**
 * Flate with PNG row predictors (§7.4.4.4, Predictor 15): sharp writes a PNG, whose IDAT
 * chunks are exactly such a zlib stream.
 */
export async function encodeFlate(px: RawPixels): Promise<EncodedImage> {
  const png = await sharp(px.data, { raw: { width: px.width, height: px.height, channels: px.channels } })
    .toColourspace(px.channels === 1 ? "b-w" : "srgb")
    .png({ compressionLevel: 9, adaptiveFiltering: true, palette: false })
    .toBuffer();
  const idat = pngIdat(png, px.channels);
  const colorSpace = px.ownColorSpace ? "own" : px.channels === 1 ? "DeviceGray" : "DeviceRGB";
  if (idat) {
    return {
      bytes: idat,
      filter: "FlateDecode",
      decodeParms: { Predictor: 15, Colors: px.channels, BitsPerComponent: 8, Columns: px.width },
      width: px.width,
      height: px.height,
      bpc: 8,
      colorSpace,
    };
  }
  return {
    bytes: zlib.deflateSync(px.data, { level: 9 }),
    filter: "FlateDecode",
    width: px.width,
    height: px.height,
    bpc: 8,
    colorSpace,
  };
}

/** The concatenated IDAT data of a non-interlaced 8-bit gray/RGB PNG, or null for anything else. */
function pngIdat(png: Buffer, channels: 1 | 3): Buffer | null {
  if (png.length < 33 || png.readUInt32BE(12) !== 0x49484452) return null; // IHDR
  const depth = png[24];
  const colorType = png[25];
  const interlace = png[28];
  if (depth !== 8 || interlace !== 0 || colorType !== (channels === 1 ? 0 : 2)) return null;
  const parts: Buffer[] = [];
  let at = 8;
  while (at + 8 <= png.length) {
    const len = png.readUInt32BE(at);
    const type = png.readUInt32BE(at + 4);
    if (type === 0x49444154) parts.push(png.subarray(at + 8, at + 8 + len)); // IDAT
    at += 12 + len;
  }
  return parts.length ? Buffer.concat(parts) : null;
}

/** 1-bit samples packed MSB first, rows padded to a byte. */
export interface BitImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Reads the samples of a 1-bit image after its filters; null when they are not what the dictionary says. */
export function readBitImage(info: ImageInfo): BitImage | null {
  let buf: mupdf.Buffer;
  try {
    buf = info.obj.readStream();
  } catch {
    return null;
  }
  try {
    const data = buf.asUint8Array().slice();
    const stride = (info.width + 7) >> 3;
    if (data.length < stride * info.height) return null;
    return { data: data.subarray(0, stride * info.height), width: info.width, height: info.height };
  } finally {
    buf.destroy();
  }
}

/** Resizes a 1-bit image (through 8-bit gray, then a 50% threshold). */
export async function resizeBitImage(img: BitImage, tw: number, th: number): Promise<BitImage> {
  const gray = unpackBits(img);
  const out = await sharp(gray, { raw: { width: img.width, height: img.height, channels: 1 } })
    .resize(tw, th, { fit: "fill", kernel: "cubic" })
    .toColourspace("b-w")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return packBits(out.data, out.info.width, out.info.height, 128);
}

function unpackBits(img: BitImage): Buffer {
  const stride = (img.width + 7) >> 3;
  const out = Buffer.alloc(img.width * img.height);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      out[y * img.width + x] = (img.data[y * stride + (x >> 3)] >> (7 - (x & 7))) & 1 ? 255 : 0;
    }
  }
  return out;
}

/** 8-bit gray → 1 bit: samples at or above `threshold` become 1 (white). */
export function packBits(gray: Uint8Array, width: number, height: number, threshold: number): BitImage {
  const stride = (width + 7) >> 3;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const o = y * stride;
    for (let x = 0; x < width; x++) {
      if (gray[row + x] >= threshold) out[o + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return { data: out, width, height };
}

/** Otsu's threshold of an 8-bit gray histogram: the split that best separates ink from paper. */
export function otsuThreshold(gray: Uint8Array): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < gray.length; i++) hist[gray[i]]++;
  const total = gray.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i];
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t];
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      threshold = t + 1;
    }
  }
  return threshold;
}

export function encodeBitImage(
  img: BitImage,
  format: "ccitt-g4" | "ccitt-g3" | "zip",
  colorSpace: EncodedImage["colorSpace"],
): EncodedImage {
  const base = { width: img.width, height: img.height, bpc: 1 as const, colorSpace };
  if (format === "zip")
    return { ...base, bytes: zlib.deflateSync(img.data, { level: 9 }), filter: "FlateDecode" };
  const g4 = format === "ccitt-g4";
  return {
    ...base,
    bytes: g4
      ? encodeCcittG4(img.data, img.width, img.height)
      : encodeCcittG3(img.data, img.width, img.height),
    filter: "CCITTFaxDecode",
    decodeParms: { K: g4 ? -1 : 0, Columns: img.width, Rows: img.height },
  };
}

/** Replaces the image's stream and the dictionary entries that describe it. */
export function writeImage(doc: mupdf.PDFDocument, info: ImageInfo, enc: EncodedImage): void {
  const obj = info.obj;
  obj.writeRawStream(enc.bytes);
  obj.put("Filter", doc.newName(enc.filter));
  if (enc.decodeParms) {
    const parms = doc.newDictionary();
    for (const [k, v] of Object.entries(enc.decodeParms)) parms.put(k, v);
    obj.put("DecodeParms", parms);
  } else obj.delete("DecodeParms");
  obj.put("Width", enc.width);
  obj.put("Height", enc.height);
  for (const k of ["DL", "F", "FFilter", "FDecodeParms"]) obj.delete(k);
  if (info.isStencil) {
    obj.delete("BitsPerComponent");
    obj.put("BitsPerComponent", 1);
    return; // ImageMask, its /Decode and no colour space stay as they are
  }
  obj.put("BitsPerComponent", enc.bpc);
  if (enc.colorSpace !== "own") obj.put("ColorSpace", doc.newName(enc.colorSpace));
  // Decoded 8-bit pixels already have /Decode applied; raw 1-bit samples keep theirs.
  if (!(enc.bpc === 1 && enc.colorSpace === "own")) obj.delete("Decode");
}
