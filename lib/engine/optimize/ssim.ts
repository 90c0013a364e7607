/**
 * Structural similarity (SSIM, Wang et al. 2004) of two 8-bit grayscale images of the same
 * size: an 11×11 Gaussian window (σ = 1.5), K1 = 0.01, K2 = 0.03, L = 255, averaged over the
 * image. 1 means identical. Used by the compression benchmark and tests to check that a smaller
 * file still looks the same. Pure and universal.
 */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

function gaussianKernel(radius: number, sigma: number): Float64Array {
  const k = new Float64Array(radius * 2 + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) {
    k[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
    sum += k[i + radius];
  }
  for (let i = 0; i < k.length; i++) k[i] /= sum;
  return k;
}

/** Separable blur with clamped edges. */
function blur(src: Float64Array, w: number, h: number, k: Float64Array): Float64Array {
  const r = (k.length - 1) >> 1;
  const tmp = new Float64Array(w * h);
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++) {
        const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
        s += src[row + xx] * k[i + r];
      }
      tmp[row + x] = s;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++) {
        const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i;
        s += tmp[yy * w + x] * k[i + r];
      }
      out[y * w + x] = s;
    }
  }
  return out;
}

/** Mean SSIM of `a` and `b`; throws when their sizes differ. */
export function ssim(a: GrayImage, b: GrayImage): number {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`ssim: sizes differ (${a.width}×${a.height} vs ${b.width}×${b.height})`);
  }
  const { width: w, height: h } = a;
  const n = w * h;
  if (n === 0) return 1;
  const k = gaussianKernel(5, 1.5);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const xx = new Float64Array(n);
  const yy = new Float64Array(n);
  const xy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = a.data[i];
    const q = b.data[i];
    x[i] = p;
    y[i] = q;
    xx[i] = p * p;
    yy[i] = q * q;
    xy[i] = p * q;
  }
  const mx = blur(x, w, h, k);
  const my = blur(y, w, h, k);
  const sxx = blur(xx, w, h, k);
  const syy = blur(yy, w, h, k);
  const sxy = blur(xy, w, h, k);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const ux = mx[i];
    const uy = my[i];
    const vx = sxx[i] - ux * ux;
    const vy = syy[i] - uy * uy;
    const cxy = sxy[i] - ux * uy;
    total += ((2 * ux * uy + C1) * (2 * cxy + C2)) / ((ux * ux + uy * uy + C1) * (vx + vy + C2));
  }
  return total / n;
}
