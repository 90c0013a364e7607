/** Readers for edited PDFs: characters with positions, pixels, links, fields. */
import * as mupdf from "mupdf";
import { editPdf } from "@/lib/engine/edit/edit-pdf";
import type { EditRequest, ImageLoader, TextAnnotation } from "@/lib/engine/edit/types";

export interface Char {
  c: string;
  /** Baseline origin in display space (points from the top-left). */
  x: number;
  y: number;
  size: number;
  font: string;
}

/** Every character of page `index` with its origin, size and font (MuPDF structured text). */
export function chars(bytes: Uint8Array, index = 0): Char[] {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  const page = doc.loadPage(index);
  const st = page.toStructuredText("preserve-whitespace");
  const out: Char[] = [];
  st.walk({
    onChar: (c, origin, font, size) =>
      out.push({ c, x: origin[0], y: origin[1], size, font: font.getName() }),
  });
  st.destroy();
  page.destroy();
  doc.destroy();
  return out;
}

/** The characters of `word`'s first occurrence on the page (throws when absent). */
export function find(bytes: Uint8Array, word: string, index = 0): Char[] {
  const all = chars(bytes, index);
  const text = all.map((c) => c.c).join("");
  const at = text.indexOf(word);
  if (at < 0) throw new Error(`"${word}" not found on page ${index}; page text: ${JSON.stringify(text)}`);
  return all.slice(at, at + [...word].length);
}

/** RGB of the pixel at (x, y) points when page `index` is rendered at `dpi`. */
export function pixel(
  bytes: Uint8Array,
  x: number,
  y: number,
  index = 0,
  dpi = 144,
): [number, number, number] {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  const page = doc.loadPage(index);
  const s = dpi / 72;
  const pix = page.toPixmap(mupdf.Matrix.scale(s, s), mupdf.ColorSpace.DeviceRGB, false);
  const px = pix.getPixels();
  const i = Math.round(y * s) * pix.getStride() + Math.round(x * s) * 3;
  const out: [number, number, number] = [px[i], px[i + 1], px[i + 2]];
  pix.destroy();
  page.destroy();
  doc.destroy();
  return out;
}

/** Pixels of a display-space rectangle that are not (near) white, as [r, g, b] triples. */
export function inkIn(
  bytes: Uint8Array,
  rect: [number, number, number, number],
  index = 0,
  dpi = 144,
): [number, number, number][] {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  const page = doc.loadPage(index);
  const s = dpi / 72;
  const pix = page.toPixmap(mupdf.Matrix.scale(s, s), mupdf.ColorSpace.DeviceRGB, false);
  const px = pix.getPixels();
  const stride = pix.getStride();
  const out: [number, number, number][] = [];
  for (let y = Math.round(rect[1] * s); y < Math.min(pix.getHeight(), Math.round(rect[3] * s)); y++) {
    for (let x = Math.round(rect[0] * s); x < Math.min(pix.getWidth(), Math.round(rect[2] * s)); x++) {
      const i = y * stride + x * 3;
      if (px[i] < 235 || px[i + 1] < 235 || px[i + 2] < 235) out.push([px[i], px[i + 1], px[i + 2]]);
    }
  }
  pix.destroy();
  page.destroy();
  doc.destroy();
  return out;
}

export function links(bytes: Uint8Array, index = 0): { uri: string; bounds: number[] }[] {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  const page = doc.loadPage(index);
  const out = page.getLinks().map((l) => ({ uri: l.getURI(), bounds: l.getBounds() }));
  page.destroy();
  doc.destroy();
  return out;
}

/** A text annotation with the contract's defaults. */
export function text(t: string, x: number, y: number, patch: Partial<TextAnnotation> = {}): TextAnnotation {
  return {
    text: t,
    x,
    y,
    type: "Text",
    alignment: "left",
    color: "#000000",
    size: 12,
    transparent: true,
    fontBold: false,
    fontItalic: false,
    fontUnderline: false,
    fontStrikeout: false,
    ...patch,
  };
}

const noFetch: ImageLoader = async (url) => {
  throw new Error(`unexpected fetch of ${url}`);
};

/** editPdf with empty defaults. */
export async function edit(
  input: Uint8Array,
  req: Partial<EditRequest>,
  loader: ImageLoader = noFetch,
): Promise<{ bytes: Uint8Array; notes: string[] }> {
  const r = await editPdf(input, { annotations: [], images: [], fields: [], ...req }, loader);
  return { bytes: r.bytes, notes: r.notes };
}
