/**
 * PDFs with known tables for the extraction tests: bordered, borderless, merged cells,
 * multi-line cells, tables continued across pages, several tables per page, rotated pages.
 * Built with MuPDF from hand-written content streams, so every coordinate is known.
 * Coordinates in the specs are PDF points with a top-left origin (like the extracted words).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";
import type { z } from "zod";
import type { RunContext } from "@/lib/operations/runner-types";

mupdf.setLog(null);

export interface TableSpec {
  /** Left and top of the table (pt, top-left origin). */
  x: number;
  y: number;
  /** Column widths in pt. */
  cols: number[];
  /** Cell texts; "\n" inside a cell makes a multi-line cell. Empty string = empty cell. */
  rows: string[][];
  /** Borders: every cell edge, only horizontal rules, an outer box only, or none (default "all"). */
  borders?: "all" | "horizontal" | "outer" | "none";
  /** Font size (default 10). Row height = lines × 1.5 × size + 6. */
  fontSize?: number;
  /** Cells spanning several columns: the text sits in the first, the others must be "". */
  merges?: { row: number; col: number; colspan: number }[];
  /** Bold first row. */
  boldHeader?: boolean;
  /** Right-align numeric cells. */
  alignNumbersRight?: boolean;
}

export interface TextSpec {
  x: number;
  y: number;
  text: string;
  size?: number;
  bold?: boolean;
  italic?: boolean;
  /** [r, g, b] in 0..1. */
  color?: [number, number, number];
  font?: "Helvetica" | "Times-Roman" | "Courier";
  /** Render mode 3 (invisible). */
  invisible?: boolean;
}

export interface PageSpec {
  size?: [number, number];
  rotate?: 0 | 90 | 180 | 270;
  tables?: TableSpec[];
  texts?: TextSpec[];
}

/** Bottom y of a table in top-left coordinates (for placing the next thing below it). */
export function tableBottom(t: TableSpec): number {
  return t.y + rowHeights(t).reduce((a, b) => a + b, 0);
}

function rowHeights(t: TableSpec): number[] {
  const fs = t.fontSize ?? 10;
  return t.rows.map((r) => Math.max(...r.map((c) => c.split("\n").length)) * fs * 1.5 + 6);
}

/** Builds a PDF from page specs. */
export function makeTablesPdf(pages: PageSpec[]): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const res = doc.addObject(doc.newDictionary());
    const fonts = doc.newDictionary();
    const fontNames: Record<string, string> = {
      F1: "Helvetica",
      F2: "Helvetica-Bold",
      F3: "Helvetica-Oblique",
      F4: "Times-Roman",
      F5: "Courier",
    };
    for (const [key, name] of Object.entries(fontNames)) fonts.put(key, doc.addSimpleFont(new mupdf.Font(name)));
    res.put("Font", fonts);
    for (const p of pages) {
      const [w, h] = p.size ?? [612, 792];
      const ops: string[] = [];
      for (const t of p.tables ?? []) ops.push(...tableOps(t, h));
      for (const t of p.texts ?? []) ops.push(textOp(t, h));
      const page = doc.addPage([0, 0, w, h], p.rotate ?? 0, res, ops.join("\n"));
      doc.insertPage(-1, page);
    }
    const buf = doc.saveToBuffer("compress");
    try {
      return Buffer.from(buf.asUint8Array());
    } finally {
      buf.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** PDF string body: Latin-1 characters above 0x7e as octal escapes (the content stream is written as UTF-8). */
function esc(s: string): string {
  return s
    .replace(/[^\x20-\xff]/g, "?")
    .replace(/[\\()]/g, (c) => `\\${c}`)
    .replace(/[\x7f-\xff]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`);
}

function textOp(t: TextSpec, pageH: number): string {
  const size = t.size ?? 10;
  const font =
    t.font === "Times-Roman" ? "F4" : t.font === "Courier" ? "F5" : t.bold ? "F2" : t.italic ? "F3" : "F1";
  const color = t.color ? `${t.color.join(" ")} rg ` : "0 g ";
  const mode = t.invisible ? "3 Tr " : "";
  return `BT ${color}${mode}/${font} ${size} Tf ${t.x.toFixed(2)} ${(pageH - t.y - size).toFixed(2)} Td (${esc(t.text)}) Tj ET`;
}

/** Approximate Helvetica width (for right alignment only). */
function approxWidth(s: string, size: number): number {
  return s.length * size * 0.55;
}

function tableOps(t: TableSpec, pageH: number): string[] {
  const ops: string[] = [];
  const fs = t.fontSize ?? 10;
  const heights = rowHeights(t);
  const xs = [t.x];
  for (const c of t.cols) xs.push(xs[xs.length - 1] + c);
  const ys = [t.y];
  for (const rh of heights) ys.push(ys[ys.length - 1] + rh);
  const Y = (y: number) => (pageH - y).toFixed(2);
  const merges = t.merges ?? [];
  const coveredBy = (r: number, c: number) =>
    merges.find((m) => m.row === r && c > m.col && c < m.col + m.colspan);
  const borders = t.borders ?? "all";
  if (borders !== "none") {
    ops.push("0 G 0.8 w");
    const hLines = borders === "outer" ? [0, ys.length - 1] : ys.map((_, i) => i);
    for (const i of hLines) ops.push(`${xs[0]} ${Y(ys[i])} m ${xs[xs.length - 1]} ${Y(ys[i])} l S`);
    if (borders === "all") {
      for (let c = 0; c < xs.length; c++) {
        // Vertical lines, broken where a merged cell spans across them.
        for (let r = 0; r < t.rows.length; r++) {
          const inside = merges.some((m) => m.row === r && c > m.col && c < m.col + m.colspan);
          if (!inside) ops.push(`${xs[c]} ${Y(ys[r])} m ${xs[c]} ${Y(ys[r + 1])} l S`);
        }
      }
    } else if (borders === "outer") {
      ops.push(`${xs[0]} ${Y(ys[0])} m ${xs[0]} ${Y(ys[ys.length - 1])} l S`);
      ops.push(`${xs[xs.length - 1]} ${Y(ys[0])} m ${xs[xs.length - 1]} ${Y(ys[ys.length - 1])} l S`);
    }
  }
  t.rows.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (cell === "" || coveredBy(r, c)) return;
      const m = merges.find((mm) => mm.row === r && mm.col === c);
      const right = xs[m ? c + m.colspan : c + 1];
      const font = t.boldHeader && r === 0 ? "F2" : "F1";
      cell.split("\n").forEach((line, n) => {
        const numeric = /^[-+$€]?[\d.,]+%?$/.test(line);
        const x = t.alignNumbersRight && numeric ? right - 4 - approxWidth(line, fs) : xs[c] + 4;
        const y = ys[r] + 3 + n * fs * 1.5 + fs;
        ops.push(`BT 0 g /${font} ${fs} Tf ${x.toFixed(2)} ${Y(y - 1)} Td (${esc(line)}) Tj ET`);
      });
    });
  });
  return ops;
}

/** Expected CSV for a table spec as the CSV writer should produce it (merged cells: text in the first cell). */
export function expectedCsv(rows: string[][], unwrap = true): string {
  return rows
    .map((r) => r.map((c) => `"${(unwrap ? c.replace(/\n/g, " ") : c).replace(/"/g, '""')}"`).join(",") + "\r\n")
    .join("");
}

/** A simple grid of n rows × cols with predictable cell text "r{i}c{j}" and a header row. */
export function gridRows(n: number, cols: number, header = true): string[][] {
  const rows: string[][] = [];
  if (header) rows.push(Array.from({ length: cols }, (_, j) => `Head ${j + 1}`));
  for (let i = 0; i < n; i++) rows.push(Array.from({ length: cols }, (_, j) => `r${i + 1}c${j + 1}`));
  return rows;
}

/** Raster (PNG) of a PDF page at `dpi`, for OCR tests. */
export function renderPagePng(pdf: Uint8Array, index = 0, dpi = 300, gray = true): Buffer {
  const doc = new mupdf.PDFDocument(Buffer.from(pdf));
  try {
    const page = doc.loadPage(index);
    const s = dpi / 72;
    const pix = page.toPixmap(mupdf.Matrix.scale(s, s), gray ? mupdf.ColorSpace.DeviceGray : mupdf.ColorSpace.DeviceRGB, false, true);
    try {
      return Buffer.from(pix.asPNG());
    } finally {
      pix.destroy();
      page.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** Wraps an image (PNG/JPEG bytes) as a one-page PDF without a text layer: a "scan". */
export function imageToPdf(img: Uint8Array, dpi = 300): Buffer {
  return imageToPdfPages([img], dpi);
}

/** A scanned document: one page per image (identical inputs share one image object). */
export function imageToPdfPages(imgs: Uint8Array[], dpi = 300): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const cache = new Map<Uint8Array, { ref: mupdf.PDFObject; w: number; h: number }>();
    for (const img of imgs) {
      let entry = cache.get(img);
      if (!entry) {
        const image = new mupdf.Image(Buffer.from(img));
        entry = { ref: doc.addImage(image), w: (image.getWidth() * 72) / dpi, h: (image.getHeight() * 72) / dpi };
        cache.set(img, entry);
      }
      const res = doc.addObject(doc.newDictionary());
      const xo = doc.newDictionary();
      xo.put("Im0", entry.ref);
      res.put("XObject", xo);
      const page = doc.addPage([0, 0, entry.w, entry.h], 0, res, `q ${entry.w} 0 0 ${entry.h} 0 0 cm /Im0 Do Q`);
      doc.insertPage(-1, page);
    }
    const buf = doc.saveToBuffer("compress");
    try {
      return Buffer.from(buf.asUint8Array());
    } finally {
      buf.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** Gray 8-bit pixels of a PDF page rendered at `dpi`. */
export function renderPageGray(pdf: Uint8Array, index = 0, dpi = 300): { data: Uint8Array; width: number; height: number } {
  const doc = new mupdf.PDFDocument(Buffer.from(pdf));
  try {
    const page = doc.loadPage(index);
    const s = dpi / 72;
    const pix = page.toPixmap(mupdf.Matrix.scale(s, s), mupdf.ColorSpace.DeviceGray, false, true);
    try {
      const w = pix.getWidth();
      const h = pix.getHeight();
      const stride = pix.getStride();
      const src = pix.getPixels();
      const data = new Uint8Array(w * h);
      for (let y = 0; y < h; y++) data.set(src.subarray(y * stride, y * stride + w), y * w);
      return { data, width: w, height: h };
    } finally {
      pix.destroy();
      page.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/**
 * A multi-page, uncompressed, 8-bit grayscale baseline TIFF (one IFD per page), for testing
 * multi-page image input without an encoder that writes such files.
 */
export function makeMultiPageTiff(pages: { data: Uint8Array; width: number; height: number }[], dpi = 300): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.write("II", 0, "latin1");
  header.writeUInt16LE(42, 2);
  parts.push(header);
  let offset = 8;
  const ifdOffsets: number[] = [];
  const entriesPerIfd = 11;
  const ifdSize = 2 + entriesPerIfd * 12 + 4;
  // Layout per page: pixel data, resolution rationals (16 bytes), then the IFD.
  const layout = pages.map((p) => {
    const dataAt = offset;
    offset += p.data.length;
    if (offset % 2) offset++;
    const resAt = offset;
    offset += 16;
    const ifdAt = offset;
    offset += ifdSize;
    ifdOffsets.push(ifdAt);
    return { dataAt, resAt, ifdAt };
  });
  header.writeUInt32LE(ifdOffsets[0], 4);
  pages.forEach((p, i) => {
    const { dataAt, resAt } = layout[i];
    const data = Buffer.from(p.data);
    parts.push(data);
    if ((dataAt + data.length) % 2) parts.push(Buffer.alloc(1));
    const res = Buffer.alloc(16);
    res.writeUInt32LE(dpi, 0);
    res.writeUInt32LE(1, 4);
    res.writeUInt32LE(dpi, 8);
    res.writeUInt32LE(1, 12);
    parts.push(res);
    const ifd = Buffer.alloc(ifdSize);
    ifd.writeUInt16LE(entriesPerIfd, 0);
    const entries: [number, number, number, number][] = [
      [256, 4, 1, p.width], // ImageWidth
      [257, 4, 1, p.height], // ImageLength
      [258, 3, 1, 8], // BitsPerSample
      [259, 3, 1, 1], // Compression: none
      [262, 3, 1, 1], // Photometric: BlackIsZero
      [273, 4, 1, dataAt], // StripOffsets
      [277, 3, 1, 1], // SamplesPerPixel
      [278, 4, 1, p.height], // RowsPerStrip
      [279, 4, 1, p.data.length], // StripByteCounts
      [282, 5, 1, resAt], // XResolution
      [283, 5, 1, resAt + 8], // YResolution
    ];
    entries.forEach(([tag, type, count, value], k) => {
      const at = 2 + k * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(count, at + 4);
      if (type === 3) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value, at + 8);
    });
    ifd.writeUInt32LE(i + 1 < pages.length ? ifdOffsets[i + 1] : 0, 2 + entriesPerIfd * 12);
    parts.push(ifd);
  });
  return Buffer.concat(parts);
}

/** 5×7 pixel glyphs for vector-drawn text fixtures. */
const PIXEL_FONT: Record<string, string[]> = {
  H: ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
  E: ["#####", "#....", "#....", "####.", "#....", "#....", "#####"],
  L: ["#....", "#....", "#....", "#....", "#....", "#....", "#####"],
  O: [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
  T: ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."],
  " ": [".....", ".....", ".....", ".....", ".....", ".....", "....."],
};

/**
 * A PDF whose only text is drawn as vector shapes (filled squares of a 5×7 pixel font), so it
 * has no text objects at all: only OCR of the rendered page can read it.
 */
export function makeVectorTextPdf(text: string, x = 72, y = 72, pixel = 5): Buffer {
  const doc = new mupdf.PDFDocument();
  try {
    const h = 792;
    const ops: string[] = ["0 g"];
    [...text.toUpperCase()].forEach((ch, n) => {
      const glyph = PIXEL_FONT[ch] ?? PIXEL_FONT[" "];
      glyph.forEach((row, r) => {
        [...row].forEach((cell, c) => {
          if (cell !== "#") return;
          const px = x + n * 6 * pixel + c * pixel;
          const py = h - (y + (r + 1) * pixel);
          ops.push(`${px} ${py} ${pixel} ${pixel} re f`);
        });
      });
    });
    const page = doc.addPage([0, 0, 612, h], 0, doc.newDictionary(), ops.join("\n"));
    doc.insertPage(-1, page);
    const buf = doc.saveToBuffer("compress");
    try {
      return Buffer.from(buf.asUint8Array());
    } finally {
      buf.destroy();
    }
  } finally {
    doc.destroy();
  }
}


/**
 * RunContexts for the extraction runners' unit tests (pdf-convert-to-csv, pdf-convert-to-html):
 * the source on disk, a private work dir, params parsed by the contract's schema.
 */
const dirs: string[] = [];

export async function cleanupContexts(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export async function contextFor<P>(
  schema: z.ZodType<P>,
  bytes: Uint8Array,
  params: Record<string, unknown> = {},
  fileName = "source.pdf",
): Promise<RunContext<P> & { logs: string[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), "quire-extract-"));
  dirs.push(dir);
  const source = path.join(dir, fileName);
  await writeFile(source, bytes);
  const workDir = path.join(dir, "work");
  await mkdir(workDir);
  const logs: string[] = [];
  return {
    params: schema.parse({ url: `https://example.com/${fileName}`, ...params }),
    sources: [{ path: source, name: fileName, contentType: "", size: bytes.byteLength, url: `https://example.com/${fileName}` }],
    workDir,
    fetchUrl: async () => {
      throw new Error("no secondary fetches expected");
    },
    log: (m) => logs.push(m),
    logs,
  };
}
