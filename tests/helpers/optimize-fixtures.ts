/**
 * Image-heavy PDFs made by the tests (and bench/compress.ts) themselves: photo-like pictures
 * (smooth gradients, soft shapes, texture and sensor grain, saved as high-quality JPEG like a
 * camera would), scanned text pages (8-bit gray with paper noise, or 1-bit), placed at known
 * sizes so their resolution on the page is known.
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
import zlib from "node:zlib";

mupdf.setLog(null);

/** A small deterministic PRNG (xorshift32) so fixtures are identical on every run. */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

/**
 * Raw RGB pixels that look like a photo: a sky-to-ground gradient, soft blobs of colour,
 * hard-edged objects, multi-scale texture (fractal value noise, like foliage or fabric) and
 * sensor grain — detail at every scale, so JPEG has real work to do.
 */
export function photoPixels(width: number, height: number, seed = 1): Buffer {
  const rand = rng(seed);
  const out = Buffer.alloc(width * height * 3);
  const c0 = [rand() * 120 + 60, rand() * 120 + 60, rand() * 150 + 80];
  const c1 = [rand() * 200 + 40, rand() * 160 + 40, rand() * 100 + 20];
  const blobs = Array.from({ length: 6 }, () => ({
    x: rand() * width,
    y: rand() * height,
    r: (0.08 + rand() * 0.25) * Math.min(width, height),
    c: [rand() * 255, rand() * 255, rand() * 255],
  }));
  const boxes = Array.from({ length: 9 }, () => {
    const w = (0.05 + rand() * 0.25) * width;
    const h = (0.05 + rand() * 0.3) * height;
    return {
      x0: rand() * (width - w),
      y0: height * 0.3 + rand() * (height * 0.7 - h),
      w,
      h,
      c: [rand() * 255, rand() * 255, rand() * 255],
      round: rand() < 0.4,
    };
  });
  const octaves = [96, 48, 24, 12, 6, 3].map((cell, i) => ({
    cell,
    amp: [26, 20, 16, 12, 9, 6][i],
    grid: lattice(width, height, cell, rand),
  }));
  for (let y = 0; y < height; y++) {
    const v = y / height;
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const t = v * 0.8 + u * 0.2;
      let r = c0[0] * (1 - t) + c1[0] * t;
      let g = c0[1] * (1 - t) + c1[1] * t;
      let b = c0[2] * (1 - t) + c1[2] * t;
      for (const bl of blobs) {
        const dx = x - bl.x;
        const dy = y - bl.y;
        const k = Math.exp(-(dx * dx + dy * dy) / (2 * bl.r * bl.r));
        r += (bl.c[0] - r) * k * 0.7;
        g += (bl.c[1] - g) * k * 0.7;
        b += (bl.c[2] - b) * k * 0.7;
      }
      for (const bx of boxes) {
        const inX = x >= bx.x0 && x < bx.x0 + bx.w;
        const inY = y >= bx.y0 && y < bx.y0 + bx.h;
        if (!inX || !inY) continue;
        if (bx.round) {
          const dx = (x - bx.x0 - bx.w / 2) / (bx.w / 2);
          const dy = (y - bx.y0 - bx.h / 2) / (bx.h / 2);
          if (dx * dx + dy * dy > 1) continue;
        }
        const shade = 0.75 + 0.25 * ((y - bx.y0) / bx.h);
        r = bx.c[0] * shade;
        g = bx.c[1] * shade;
        b = bx.c[2] * shade;
      }
      let tex = 0;
      for (const o of octaves) tex += o.amp * sampleLattice(o.grid, x / o.cell, y / o.cell);
      const grain = (rand() - 0.5) * 12;
      const i = (y * width + x) * 3;
      out[i] = clamp(r + tex + grain);
      out[i + 1] = clamp(g + tex * 0.9 + grain);
      out[i + 2] = clamp(b + tex * 0.7 + grain);
    }
  }
  return out;
}

interface Lattice {
  cols: number;
  values: Float32Array;
}

function lattice(width: number, height: number, cell: number, rand: () => number): Lattice {
  const cols = Math.ceil(width / cell) + 2;
  const rows = Math.ceil(height / cell) + 2;
  const values = new Float32Array(cols * rows);
  for (let i = 0; i < values.length; i++) values[i] = rand() * 2 - 1;
  return { cols, values };
}

/** Value noise: smooth interpolation of random lattice values, in -1..1. */
function sampleLattice(l: Lattice, fx: number, fy: number): number {
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const sx = fx - x0;
  const sy = fy - y0;
  const wx = sx * sx * (3 - 2 * sx);
  const wy = sy * sy * (3 - 2 * sy);
  const i = y0 * l.cols + x0;
  const a = l.values[i] + (l.values[i + 1] - l.values[i]) * wx;
  const b = l.values[i + l.cols] + (l.values[i + l.cols + 1] - l.values[i + l.cols]) * wx;
  return a + (b - a) * wy;
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/** A photo-like JPEG as a camera or scanner app would save it (quality 92 by default). */
export async function photoJpeg(width: number, height: number, seed = 1, quality = 92): Promise<Buffer> {
  return sharp(photoPixels(width, height, seed), { raw: { width, height, channels: 3 } })
    .jpeg({ quality, chromaSubsampling: "4:4:4" })
    .toBuffer();
}

const LOREM =
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.";

/** Lines of text for a scanned page. */
export function scanText(lines = 40, seed = 1): string[] {
  const rand = rng(seed);
  const words = LOREM.split(" ");
  return Array.from({ length: lines }, () => {
    const n = 8 + Math.floor(rand() * 5);
    const start = Math.floor(rand() * (words.length - n));
    return words.slice(start, start + n).join(" ");
  });
}

/**
 * An 8-bit gray scan of a text page at `dpi` (Letter size): text rendered by MuPDF, a slightly
 * uneven paper tone, scanner noise and a small skew-free blur.
 */
export async function scanPixels(
  dpi = 300,
  seed = 1,
): Promise<{ data: Buffer; width: number; height: number }> {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Times-Roman"));
  const res = doc.addObject(doc.newDictionary());
  res.put("Font", doc.newDictionary()).put("F1", font);
  const lines = scanText(44, seed);
  const ops = lines.map((l, i) => `BT /F1 11 Tf 72 ${720 - i * 14.5} Td (${l.replace(/[()\\]/g, "")}) Tj ET`);
  doc.insertPage(
    -1,
    doc.addPage([0, 0, 612, 792], 0, res, `0 g\n${ops.join("\n")}\nq 0.2 g 72 60 468 1 re f Q`),
  );
  const page = doc.loadPage(0);
  const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
  const width = pix.getWidth();
  const height = pix.getHeight();
  const src = pix.getPixels();
  const stride = pix.getStride();
  const rand = rng(seed * 7 + 3);
  const data = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ink = src[y * stride + x];
      const paper = 236 + 8 * Math.sin(x / 400 + y / 900);
      const v = (ink / 255) * paper + (1 - ink / 255) * 28 + (rand() - 0.5) * 18;
      data[y * width + x] = clamp(v);
    }
  }
  pix.destroy();
  page.destroy();
  doc.destroy();
  const blurred = await sharp(data, { raw: { width, height, channels: 1 } })
    .blur(0.6)
    .toColourspace("b-w")
    .raw()
    .toBuffer();
  return { data: blurred, width, height };
}

/** 8-bit gray → packed 1-bit samples (1 = white), as a bilevel scanner writes them. */
export function grayToBits(gray: Uint8Array, width: number, height: number, threshold = 128): Buffer {
  const stride = (width + 7) >> 3;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      if (gray[y * width + x] >= threshold) out[y * stride + (x >> 3)] |= 0x80 >> (x & 7);
  }
  return out;
}

export type ImageSpec =
  | { type: "jpeg"; data: Buffer }
  | {
      type: "raw";
      data: Uint8Array;
      width: number;
      height: number;
      colorSpace: "DeviceGray" | "DeviceRGB" | "DeviceCMYK";
      bpc: 1 | 8;
      imageMask?: boolean;
      decode?: number[];
      smask?: ImageSpec;
      /** Store the samples uncompressed instead of Flate. */
      uncompressed?: boolean;
    };

export interface PlacedImage {
  image: ImageSpec;
  /** Placement in points from the page's top-left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ImagePage {
  size?: [number, number];
  images: PlacedImage[];
  /** Text lines drawn in Helvetica 12 from the top (mixed pages). */
  text?: string[];
}

/** A PDF whose pages show the given images at the given sizes. */
export function makeImagePdf(pages: ImagePage[]): Buffer {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
  for (const p of pages) {
    const [pw, ph] = p.size ?? [612, 792];
    const res = doc.addObject(doc.newDictionary());
    res.put("Font", doc.newDictionary()).put("F1", font);
    const xobjects = res.put("XObject", doc.newDictionary());
    const ops: string[] = [];
    p.images.forEach((pl, i) => {
      const ref = addImage(doc, pl.image);
      xobjects.put(`Im${i}`, ref);
      ops.push(`q ${pl.width} 0 0 ${pl.height} ${pl.x} ${ph - pl.y - pl.height} cm /Im${i} Do Q`);
    });
    (p.text ?? []).forEach((line, i) => {
      ops.push(`BT /F1 12 Tf 72 ${ph - 72 - i * 15} Td (${line.replace(/[()\\]/g, "")}) Tj ET`);
    });
    doc.insertPage(-1, doc.addPage([0, 0, pw, ph], 0, res, ops.join("\n")));
  }
  // "compress" would also encode uncompressed images (MuPDF writes 1-bit ones as CCITT G4).
  const keepRaw = pages.some((p) => p.images.some((i) => i.image.type === "raw" && i.image.uncompressed));
  const buf = doc.saveToBuffer(keepRaw ? "" : "compress");
  const out = Buffer.from(buf.asUint8Array());
  buf.destroy();
  doc.destroy();
  return out;
}

/** Adds an image XObject as specified and returns its reference. */
export function addImage(doc: mupdf.PDFDocument, spec: ImageSpec): mupdf.PDFObject {
  if (spec.type === "jpeg") {
    const size = jpegSize(spec.data);
    const cs = size.components === 1 ? "DeviceGray" : "DeviceRGB";
    return doc.addRawStream(spec.data, {
      Type: "XObject",
      Subtype: "Image",
      Filter: "DCTDecode",
      Width: size.width,
      Height: size.height,
      BitsPerComponent: 8,
      ColorSpace: cs,
    });
  }
  const dict: Record<string, unknown> = {
    Type: "XObject",
    Subtype: "Image",
    Width: spec.width,
    Height: spec.height,
    BitsPerComponent: spec.bpc,
  };
  if (spec.imageMask) dict.ImageMask = true;
  else dict.ColorSpace = spec.colorSpace;
  if (spec.decode) dict.Decode = spec.decode;
  if (!spec.uncompressed) dict.Filter = "FlateDecode";
  const data = spec.uncompressed ? Buffer.from(spec.data) : zlib.deflateSync(spec.data);
  const ref = doc.addRawStream(data, dict);
  if (spec.smask) ref.put("SMask", addImage(doc, spec.smask));
  return ref;
}

/** Width, height and component count from a JPEG's SOF marker. */
export function jpegSize(data: Buffer): { width: number; height: number; components: number } {
  let i = 2;
  while (i + 9 < data.length) {
    if (data[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = data[i + 1];
    const len = data.readUInt16BE(i + 2);
    if (
      (marker >= 0xc0 && marker <= 0xc3) ||
      (marker >= 0xc5 && marker <= 0xcb && marker !== 0xc8) ||
      (marker >= 0xcd && marker <= 0xcf)
    ) {
      return { height: data.readUInt16BE(i + 5), width: data.readUInt16BE(i + 7), components: data[i + 9] };
    }
    i += 2 + len;
  }
  throw new Error("not a JPEG");
}

/** Renders page `index` to 8-bit gray pixels at `dpi` (for SSIM and pixel checks). */
export function renderGray(
  bytes: Uint8Array,
  index: number,
  dpi = 100,
): { data: Uint8Array; width: number; height: number } {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    const page = doc.loadPage(index);
    const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
    const width = pix.getWidth();
    const height = pix.getHeight();
    const stride = pix.getStride();
    const src = pix.getPixels();
    const data = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) data.set(src.subarray(y * stride, y * stride + width), y * width);
    pix.destroy();
    page.destroy();
    return { data, width, height };
  } finally {
    doc.destroy();
  }
}

/** Summary of every image XObject of a PDF: filter, size, colour space, bits. */
export function listImages(bytes: Uint8Array): {
  num: number;
  filter: string;
  width: number;
  height: number;
  colorSpace: string;
  bpc: number;
  length: number;
  decodeParms: string;
}[] {
  const doc = new mupdf.PDFDocument(Buffer.from(bytes));
  try {
    const out = [];
    for (let n = 1; n < doc.countObjects(); n++) {
      const o = doc.newIndirect(n);
      if (!o.isStream() || o.get("Subtype").toString() !== "/Image") continue;
      out.push({
        num: n,
        filter: o.get("Filter").toString(),
        width: o.get("Width").asNumber(),
        height: o.get("Height").asNumber(),
        colorSpace: o.get("ColorSpace").isNull() ? "" : o.get("ColorSpace").resolve().toString(),
        bpc: o.get("BitsPerComponent").isNumber() ? o.get("BitsPerComponent").asNumber() : 0,
        length: o.get("Length").asNumber(),
        decodeParms: o.get("DecodeParms").toString(),
      });
    }
    return out;
  } finally {
    doc.destroy();
  }
}
