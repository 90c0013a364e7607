/**
 * Raster preparation before OCR: grayscale, gamma correction and rotation by quarter turns,
 * on raw 8-bit pixels (1 = gray, 3 = RGB channels, rows packed). Pure functions, no I/O.
 */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 3;
  /** Resolution, for converting pixels to points (72 / dpi pt per pixel). */
  dpi: number;
}

export interface PreprocessOptions {
  /** OCRImagePreprocessingFilters.AddGrayscale. */
  grayscale?: boolean;
  /** OCRImagePreprocessingFilters.AddGammaCorrection: each value applied in turn (out = in^(1/g)). */
  gamma?: number[];
  /** Clockwise quarter turns (RotationAngle 0–3). */
  rotate?: number;
}

/** Applies the filters in order: grayscale, gamma, rotation. Returns a new raster (or the same when nothing applies). */
export function preprocessRaster(r: Raster, o: PreprocessOptions): Raster {
  let out = r;
  if (o.grayscale && out.channels === 3) out = toGray(out);
  const gammas = (o.gamma ?? []).filter((g) => Number.isFinite(g) && g > 0 && g !== 1);
  if (gammas.length) out = applyGamma(out, gammas);
  const q = (((o.rotate ?? 0) % 4) + 4) % 4;
  if (q) out = rotateQuarter(out, q);
  return out;
}

export function toGray(r: Raster): Raster {
  if (r.channels === 1) return r;
  const n = r.width * r.height;
  const data = new Uint8Array(n);
  const s = r.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    // ITU-R BT.601 luma, in integers.
    data[i] = (s[j] * 299 + s[j + 1] * 587 + s[j + 2] * 114 + 500) / 1000;
  }
  return { ...r, data, channels: 1 };
}

/** Gamma correction with a lookup table: values > 1 lighten mid-tones, < 1 darken them. */
export function applyGamma(r: Raster, gammas: number[]): Raster {
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    let x = v / 255;
    for (const g of gammas) x = Math.pow(x, 1 / g);
    lut[v] = Math.round(x * 255);
  }
  const data = new Uint8Array(r.data.length);
  for (let i = 0; i < data.length; i++) data[i] = lut[r.data[i]];
  return { ...r, data };
}

/** Rotates clockwise by q quarter turns. */
export function rotateQuarter(r: Raster, q: number): Raster {
  const { width: w, height: h, channels: c } = r;
  const s = r.data;
  if (q === 2) {
    const data = new Uint8Array(s.length);
    const n = w * h;
    for (let i = 0; i < n; i++) {
      const si = i * c;
      const di = (n - 1 - i) * c;
      for (let k = 0; k < c; k++) data[di + k] = s[si + k];
    }
    return { ...r, data };
  }
  const data = new Uint8Array(s.length);
  const nw = h;
  const nh = w;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // Clockwise: (x, y) → (h-1-y, x); counter-clockwise: (x, y) → (y, w-1-x).
      const nx = q === 1 ? h - 1 - y : y;
      const ny = q === 1 ? x : w - 1 - x;
      const si = (y * w + x) * c;
      const di = (ny * nw + nx) * c;
      for (let k = 0; k < c; k++) data[di + k] = s[si + k];
    }
  }
  return { ...r, data, width: nw, height: nh };
}

/** Binary PNM (P5 gray / P6 RGB): trivial to write and read, so no PNG encode/decode per page. */
export function toPnm(r: Raster): Buffer {
  const header = Buffer.from(`${r.channels === 1 ? "P5" : "P6"}\n${r.width} ${r.height}\n255\n`, "ascii");
  return Buffer.concat([header, Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength)]);
}

/**
 * The image file handed to the native Tesseract: an 8-bit gray BMP (rows bottom-up, padded to
 * 4 bytes, a gray palette), which Leptonica reads with a copy per row — measured about 0.06 s of
 * CPU less per A4 page at 300 dpi than the same pixels as PNM, read a pixel at a time. Colour
 * (never the case in OCR, which recognises gray) stays PNM.
 */
export function toTesseractImage(r: Raster): Buffer {
  if (r.channels !== 1) return toPnm(r);
  const { width: w, height: h } = r;
  const rowSize = (w + 3) & ~3;
  const offset = 14 + 40 + 256 * 4;
  const out = Buffer.alloc(offset + rowSize * h);
  const ppm = Math.round(r.dpi / 0.0254);
  out.write("BM", 0, "latin1");
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(offset, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(w, 18);
  out.writeInt32LE(h, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(8, 28);
  out.writeUInt32LE(rowSize * h, 34);
  out.writeInt32LE(ppm, 38);
  out.writeInt32LE(ppm, 42);
  out.writeUInt32LE(256, 46);
  for (let k = 0; k < 256; k++) out.fill(k, 54 + k * 4, 57 + k * 4);
  const src = Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength);
  for (let y = 0; y < h; y++) src.copy(out, offset + (h - 1 - y) * rowSize, y * w, y * w + w);
  return out;
}
