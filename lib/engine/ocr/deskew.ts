/**
 * Skew detection and correction for scanned pages (pure functions on rasters, no I/O).
 *
 * detectSkew: the projection-profile method. Dark pixels of a reduced copy (about 100 dpi) are
 * projected onto the vertical axis at trial angles; when the trial angle matches the text's
 * slope, every text line falls into a few bins and the gaps between lines empty out, so the sum
 * of squared differences between neighbouring bins peaks. Coarse steps of 0.25° over ±MAX, then
 * 0.025° around the best. No verdict (0) when the best angle is not clearly better than level
 * (photos, blank pages, tables of rules only).
 *
 * rotateRaster turns the pixels level (large skews); levelBox maps boxes read on a slightly
 * skewed page onto the page turned level (small skews, where Tesseract reads the lines well and
 * resampling would only soften the glyphs). Either way rows are built from horizontal lines.
 */
import type { Raster } from "@/lib/engine/ocr/preprocess";

/** Largest skew looked for, in degrees (scanner feed skew; more is a turned page, see OSD). */
export const MAX_SKEW = 6;
/**
 * From this skew on, the page's pixels are turned level before recognition (measured: a dense
 * page at 2° loses three quarters of its lines in Tesseract; around 1° resampling costs as
 * much as it gains).
 */
export const RESAMPLE_SKEW = 1.5;
/** Skews below this are left alone: a level line stays within a pixel or two over a text column. */
export const MIN_SKEW = 0.15;

/** Dark pixels of a reduced copy of the page, as x/y pairs in reduced pixels. */
function darkPoints(r: Raster): { xs: Float32Array; ys: Float32Array; n: number; w: number; h: number } {
  const f = Math.max(1, Math.round(r.dpi / 100));
  const w = Math.floor(r.width / f);
  const h = Math.floor(r.height / f);
  // Mean of each f×f cell (luma; the green channel stands for it in colour); a cell is ink
  // when clearly darker than the page's background.
  const cells = new Uint8Array(w * h);
  const hist = new Uint32Array(256);
  const sums = new Uint32Array(w);
  const c = r.channels;
  const d = r.data;
  const g = c === 3 ? 1 : 0;
  const area = f * f;
  // 300 dpi, the usual OCR render: the 3×3 cells summed unrolled (a third of the time of the
  // general loop below, the same sums).
  const rows = f === 3 ? h : 0;
  const stride = r.width * c;
  for (let y = 0; y < rows; y++) {
    const b0 = y * 3 * stride + g;
    const b1 = b0 + stride;
    const b2 = b1 + stride;
    for (let x = 0, j = 0; x < w; x++, j += 3 * c) {
      const s = d[b0 + j] + d[b0 + j + c] + d[b0 + j + 2 * c] + d[b1 + j] + d[b1 + j + c] + d[b1 + j + 2 * c] + d[b2 + j] + d[b2 + j + c] + d[b2 + j + 2 * c];
      const v = (s / 9) | 0;
      cells[y * w + x] = v;
      hist[v]++;
    }
  }
  for (let y = rows ? h : 0; y < h; y++) {
    sums.fill(0);
    for (let dy = 0; dy < f; dy++) {
      let i = (y * f + dy) * r.width * c + g;
      for (let x = 0; x < w; x++) {
        let s = 0;
        for (let dx = 0; dx < f; dx++, i += c) s += d[i];
        sums[x] += s;
      }
    }
    for (let x = 0; x < w; x++) {
      const v = (sums[x] / area) | 0;
      cells[y * w + x] = v;
      hist[v]++;
    }
  }
  const threshold = otsu(hist, w * h);
  let n = 0;
  for (let i = 0; i < cells.length; i++) if (cells[i] < threshold) n++;
  // Mostly dark (a photo, an inverted page): no text lines to measure.
  const cap = 100_000;
  const step = n > cap ? n / cap : 1;
  const xs = new Float32Array(Math.min(n, cap) + 1);
  const ys = new Float32Array(xs.length);
  let k = 0;
  let seen = 0;
  let nextTake = 0;
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] >= threshold) continue;
    if (seen++ < nextTake) continue;
    nextTake += step;
    if (k >= xs.length) break;
    xs[k] = i % w;
    ys[k] = Math.floor(i / w);
    k++;
  }
  return { xs, ys, n: n > 0.4 * w * h ? 0 : k, w, h };
}

function otsu(hist: Uint32Array, total: number): number {
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i];
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * hist[t];
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t + 1;
    }
  }
  // Faint pages: never call the light background ink.
  return Math.min(threshold, 200);
}

/** Sharpness of the horizontal projection at `deg`: sum of squared neighbour differences. */
function profileScore(p: { xs: Float32Array; ys: Float32Array; n: number; w: number; h: number }, deg: number, bins: Int32Array): number {
  const t = Math.tan((deg * Math.PI) / 180);
  const off = Math.ceil(Math.abs(t) * p.w) + 1;
  bins.fill(0);
  for (let i = 0; i < p.n; i++) {
    const y = Math.round(p.ys[i] - p.xs[i] * t) + off;
    bins[y]++;
  }
  let s = 0;
  for (let i = 1; i < bins.length; i++) {
    const d = bins[i] - bins[i - 1];
    s += d * d;
  }
  return s;
}

/** Every k-th point. */
function every(p: { xs: Float32Array; ys: Float32Array; n: number; w: number; h: number }, k: number) {
  const n = Math.floor(p.n / k);
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = p.xs[i * k];
    ys[i] = p.ys[i * k];
  }
  return { xs, ys, n, w: p.w, h: p.h };
}

/**
 * The page's skew in degrees: positive when text lines run downwards to the right (the page is
 * turned clockwise). 0 when below MIN_SKEW or undecided.
 */
export function detectSkew(r: Raster): number {
  const p = darkPoints(r);
  if (p.n < 200) return 0;
  const bins = new Int32Array(p.h + 2 * (Math.ceil(Math.tan((MAX_SKEW * Math.PI) / 180) * p.w) + 2));
  // The coarse search (49 angles) on every third point of a large set: the peak's place does
  // not need them all; the fine search below scores every point.
  const few = p.n > 30_000 ? every(p, 3) : p;
  let coarse = 0;
  let coarseScore = profileScore(few, 0, bins);
  for (let a = -MAX_SKEW; a <= MAX_SKEW + 1e-9; a += 0.25) {
    const s = profileScore(few, a, bins);
    if (s > coarseScore) {
      coarseScore = s;
      coarse = a;
    }
  }
  const level = profileScore(p, 0, bins);
  let best = 0;
  let bestScore = level;
  for (let a = coarse - 0.25; a <= coarse + 0.25 + 1e-9; a += 0.025) {
    const s = profileScore(p, a, bins);
    if (s > bestScore) {
      bestScore = s;
      best = a;
    }
  }
  // A clear peak: text lines. A flat response (noise, photos) changes little with the angle.
  if (Math.abs(best) < MIN_SKEW || bestScore < level * 1.1) return 0;
  return Math.round(best * 100) / 100;
}

/**
 * Maps a box read on a page skewed by `deg` (see detectSkew) to the page turned level about its
 * centre (w × h pixels): the centre of the box is turned, and the box's size is that of the
 * upright rectangle whose turned outline the axis-aligned box is (W = w·cos + h·sin,
 * H = w·sin + h·cos, solved for w and h).
 */
export function levelBox(
  box: { x0: number; y0: number; x1: number; y1: number },
  w: number,
  h: number,
  deg: number,
): { x0: number; y0: number; x1: number; y1: number } {
  if (!deg) return box;
  const a = (deg * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.abs(Math.sin(a));
  const cx = w / 2;
  const cy = h / 2;
  const mx = (box.x0 + box.x1) / 2 - cx;
  const my = (box.y0 + box.y1) / 2 - cy;
  // Turning the page counter-clockwise by deg (y grows downwards).
  const nx = cx + mx * cos + my * Math.sin(a);
  const ny = cy - mx * Math.sin(a) + my * cos;
  const W = box.x1 - box.x0;
  const H = box.y1 - box.y0;
  const det = cos * cos - sin * sin;
  const bw = Math.max(W * 0.5, Math.min(W, (W * cos - H * sin) / det));
  const bh = Math.max(H * 0.3, Math.min(H, (H * cos - W * sin) / det));
  return { x0: nx - bw / 2, y0: ny - bh / 2, x1: nx + bw / 2, y1: ny + bh / 2 };
}
/**
 * Turns a raster by `deg` degrees counter-clockwise about its centre (so deskewing a page of
 * skew s is rotateRaster(r, s)), same size, bilinear, white outside.
 */
export function rotateRaster(r: Raster, deg: number): Raster {
  if (!deg) return r;
  const { width: w, height: h, channels: c } = r;
  const src = r.data;
  const out = new Uint8Array(src.length);
  out.fill(255);
  const a = (deg * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  for (let y = 0; y < h; y++) {
    const dy = y - cy;
    // Source of (x, y): the destination point turned clockwise by deg about the centre.
    let sx = cx - cx * cos - dy * sin;
    let sy = cy - cx * sin + dy * cos;
    for (let x = 0; x < w; x++, sx += cos, sy += sin) {
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 >= w - 1 || y0 >= h - 1) continue;
      const fx = sx - x0;
      const fy = sy - y0;
      const i00 = (y0 * w + x0) * c;
      const i10 = i00 + c;
      const i01 = i00 + w * c;
      const i11 = i01 + c;
      const o = (y * w + x) * c;
      for (let k = 0; k < c; k++) {
        const top = src[i00 + k] + (src[i10 + k] - src[i00 + k]) * fx;
        const bottom = src[i01 + k] + (src[i11 + k] - src[i01 + k]) * fx;
        out[o + k] = top + (bottom - top) * fy + 0.5;
      }
    }
  }
  return { ...r, data: out };
}

