import "server-only";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { renderWithoutText, runWithoutText, type TextFilter } from "@/lib/engine/pdf/render-without-text";

/**
 * The page drawn without the text that the HTML shows as text: vector art (rules, boxes, fills,
 * curves), images, shadings, and glyphs that stay drawings (Type3 fonts, outlined text, words
 * the HTML cannot show in their own font) — as inline SVG written by MuPDF's SVG writer, so
 * table and form lines stay crisp at any zoom. Images stay in their original encoding; with
 * optimizeImages an image more than twice as large as it is shown (at the output width) is
 * scaled down to twice its displayed size. A page whose SVG would be larger than
 * MAX_SVG_CHARS (dense maps and plots) is drawn as one image instead.
 */

const MAX_SVG_CHARS = 6_000_000;

export interface DrawingImage {
  name: string;
  bytes: Buffer;
  contentType: string;
}

export interface DrawingOptions {
  /** Page size in points (displayed, after the turn) and CSS px per point. */
  width: number;
  height: number;
  scale: number;
  /** Prefix making the SVG's ids unique in the document. */
  id: string;
  optimizeImages: boolean;
  /** 2: images become separate files (named in `images`), referenced by name. */
  saveImages: number;
  vector: boolean;
  /** Makes the text filter for one run over the page (see page-glyphs glyphFilter). */
  filter: () => TextFilter;
}

/** The drawing as HTML (an <svg> or an <img>), or null when the page has nothing but text. */
export async function pageDrawing(page: mupdf.Page, matrix: mupdf.Matrix, opts: DrawingOptions, images: DrawingImage[]): Promise<string | null> {
  if (opts.vector) {
    const svg = svgDrawing(page, matrix, opts);
    if (svg === null) return null;
    if (svg.length <= MAX_SVG_CHARS) return finishSvg(svg, opts, images);
  }
  return rasterDrawing(page, matrix, opts, images);
}

function svgDrawing(page: mupdf.Page, matrix: mupdf.Matrix, opts: DrawingOptions): string | null {
  const buf = new mupdf.Buffer();
  try {
    const writer = new mupdf.DocumentWriter(buf, "svg", "text=path,no-reuse-images");
    try {
      const dev = writer.beginPage([0, 0, opts.width, opts.height]);
      try {
        runWithoutText(page, dev, matrix, opts.filter());
        writer.endPage();
      } finally {
        dev.destroy();
      }
      writer.close();
    } finally {
      writer.destroy();
    }
    const svg = buf.asString();
    // Nothing but the root and empty defs: a text-only page.
    const body = svg.replace(/^[\s\S]*?<svg[^>]*>/, "").replace(/<\/svg>\s*$/, "").replace(/<defs>\s*<\/defs>/, "").trim();
    return body === "" ? null : svg;
  } finally {
    buf.destroy();
  }
}

async function finishSvg(svg: string, opts: DrawingOptions, images: DrawingImage[]): Promise<string> {
  const p = opts.id;
  let body = svg
    .replace(/^[\s\S]*?<svg[^>]*>/, "")
    .replace(/<\/svg>\s*$/, "")
    .replace(/ id="([^"]+)"/g, ` id="${p}-$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${p}-$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${p}-$1"`);
  body = await processImages(body, opts, images);
  return (
    `<svg class="bg" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
    `viewBox="0 0 ${opts.width} ${opts.height}" preserveAspectRatio="none" aria-hidden="true">${body}</svg>`
  );
}

/** Scales down oversized images (optimizeImages) and moves images to files (saveImages 2). */
async function processImages(body: string, opts: DrawingOptions, images: DrawingImage[]): Promise<string> {
  const re = /<image\b([^>]*?)xlink:href="data:(image\/[a-z+]+);base64,([^"]*)"/g;
  const parts: string[] = [];
  let last = 0;
  let n = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    parts.push(body.slice(last, m.index));
    last = m.index + m[0].length;
    const attrs = m[1];
    let type = m[2];
    let bytes: Buffer = Buffer.from(m[3].replace(/\s+/g, ""), "base64");
    // Shown size: the image's user-space size times the nearest transform before it.
    const w = Number(/width="([\d.]+)"/.exec(attrs)?.[1] ?? 0);
    const h = Number(/height="([\d.]+)"/.exec(attrs)?.[1] ?? 0);
    const before = body.slice(Math.max(0, m.index - 400), m.index);
    const tm = [...before.matchAll(/transform="matrix\(([^)]*)\)"/g)].pop()?.[1].split(",").map(Number);
    const shownW = w * (tm ? Math.hypot(tm[0], tm[1]) : 1) * opts.scale;
    const shownH = h * (tm ? Math.hypot(tm[2], tm[3]) : 1) * opts.scale;
    // A few pixels blown up (a pixel-art image, a scan shown at 4×): square pixels, as PDF viewers draw them.
    const pixels = w > 0 ? shownW / w : 0;
    const extra = pixels >= 4 ? ' style="image-rendering:pixelated"' : "";
    if (opts.optimizeImages) {
      const smaller = await shrink(bytes, type, shownW, shownH);
      if (smaller) {
        bytes = smaller.bytes;
        type = smaller.type;
      }
    }
    let href: string;
    if (opts.saveImages === 2) {
      const name = `${opts.id}-image${++n}.${type === "image/jpeg" ? "jpg" : "png"}`;
      images.push({ name, bytes, contentType: type });
      href = name;
    } else {
      href = `data:${type};base64,${bytes.toString("base64")}`;
    }
    parts.push(`<image${attrs}${extra ? `${extra.trim()} ` : ""}xlink:href="${href}"`);
  }
  parts.push(body.slice(last));
  return parts.join("");
}

/**
 * The image at most twice its shown size, in its own format; a photograph stored losslessly
 * (an opaque PNG that JPEG halves) as JPEG. Null to keep it as it is.
 */
async function shrink(bytes: Buffer, type: string, shownW: number, shownH: number): Promise<{ bytes: Buffer; type: string } | null> {
  if (!(shownW > 0 && shownH > 0) || (type !== "image/jpeg" && type !== "image/png")) return null;
  try {
    const meta = await sharp(bytes).metadata();
    const w = meta.width ?? 0;
    const h = meta.height ?? 0;
    const tw = Math.max(1, Math.round(shownW * 2));
    const th = Math.max(1, Math.round(shownH * 2));
    const resize = w > tw * 1.25 && h > th * 1.25;
    const photo = type === "image/png" && !meta.hasAlpha && bytes.length > 64 * 1024;
    if (!resize && !photo) return null;
    let img = sharp(bytes);
    if (resize) img = img.resize(tw, th, { fit: "fill" });
    let best: { bytes: Buffer; type: string } | null = null;
    if (type === "image/jpeg") best = { bytes: await img.jpeg({ quality: 85, mozjpeg: true }).toBuffer(), type };
    else {
      const png = resize ? await img.clone().png({ compressionLevel: 9 }).toBuffer() : bytes;
      best = { bytes: png, type };
      if (photo) {
        const jpg = await img.clone().jpeg({ quality: 85, mozjpeg: true }).toBuffer();
        if (jpg.length * 2 < png.length) best = { bytes: jpg, type: "image/jpeg" };
      }
    }
    return best.bytes.length < bytes.length ? best : null;
  } catch {
    return null;
  }
}

/** The drawing as one image (JPEG, or PNG at twice the size without optimizeImages). */
async function rasterDrawing(page: mupdf.Page, matrix: mupdf.Matrix, opts: DrawingOptions, images: DrawingImage[]): Promise<string | null> {
  const up = opts.optimizeImages ? 1 : 2;
  const k = Math.min(opts.scale * up, 4096 / Math.max(opts.width, opts.height));
  const pix = renderWithoutText(page, mupdf.Matrix.concat(matrix, mupdf.Matrix.scale(k, k)), mupdf.ColorSpace.DeviceRGB, opts.filter());
  let png: Buffer;
  let blank = true;
  try {
    const px = pix.getPixels();
    for (let i = 0; i < px.length; i += 7) {
      if (px[i] < 250) {
        blank = false;
        break;
      }
    }
    png = blank ? Buffer.alloc(0) : Buffer.from(pix.asPNG());
  } finally {
    pix.destroy();
  }
  if (blank) return null;
  const bytes = opts.optimizeImages ? await sharp(png).jpeg({ quality: 80, mozjpeg: true }).toBuffer() : png;
  const type = opts.optimizeImages ? "image/jpeg" : "image/png";
  let src: string;
  if (opts.saveImages === 2) {
    const name = `${opts.id}-background.${opts.optimizeImages ? "jpg" : "png"}`;
    images.push({ name, bytes, contentType: type });
    src = name;
  } else {
    src = `data:${type};base64,${bytes.toString("base64")}`;
  }
  return `<img class="bg" alt="" src="${src}">`;
}
