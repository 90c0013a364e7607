import "server-only";
import { renderWithoutText } from "@/lib/engine/pdf/render-without-text";
import * as mupdf from "mupdf";
import { pageDrawing } from "@/lib/engine/html/page-drawing";
import { collectGlyphs, fontFacts, FontTable, glyphFilter, turnMatrix, type FontFacts, type Glyph } from "@/lib/engine/html/page-glyphs";
import { assignGlyphs, runSpan, wordRuns } from "@/lib/engine/html/text-runs";
import { buildWebFonts, fontStyle, STACKS, type WebFonts } from "@/lib/engine/html/web-fonts";
import { BOX_FAMILY, boxFontFace, boxTextWidth } from "@/lib/engine/html/box-font";
import sharp from "sharp";
import { analysePage } from "@/lib/engine/tables/page-tables";
import type { Area } from "@/lib/engine/tables/extract-tables";
import type { Segment, Table, TableOptions } from "@/lib/engine/tables/types";
import { groupLines, type TextLine } from "@/lib/engine/tables/lines";
import { extractPageImages } from "@/lib/engine/text/images";
import { decodeImagePage, probeImage } from "@/lib/engine/text/page-texts";
import { loadPdfPage } from "@/lib/engine/pdf/open-pdf";
import { applyPoint, centreInArea, renderedSize } from "@/lib/engine/text/page-frame";
import type { Matrix, PageText, Word } from "@/lib/engine/text/types";

/**
 * PDF (or scan/image) pages → one HTML document.
 *
 * Positioned mode (default) reproduces each page: a box of OutputPageWidth pixels (height by the
 * page's ratio) holding the page drawn *without its text* (vector art, images, scans; inline SVG
 * for PDF pages, see page-drawing.ts) and the text as absolutely positioned spans. For PDF
 * pages the text is set in the document's own fonts (web fonts rebuilt from the glyphs MuPDF
 * draws, or metric-compatible Liberation fonts for fonts that are not embedded; web-fonts.ts),
 * each run at the PDF's pen position, size, glyph matrix (rotation, horizontal scaling) and
 * character spacing (text-runs.ts). Text that cannot be shown in its font (Type3 fonts,
 * outlined text, right-to-left words) stays in the drawing and is transparent text on top, so
 * it can still be selected and searched. Detected tables become <table> elements at their
 * place, their words positioned inside the cells. OCR words (scans) are transparent text over
 * the page image, so the page looks like the scan and its text can be selected and searched.
 *
 * Lightweight output (embedFonts and vectorGraphics false): the page drawing as one image and
 * every word in a local font stack (Arial / Times New Roman / Courier New), scaled to its width.
 *
 * simple: text flow without absolute positioning (headings, paragraphs, tables, images in
 * reading order). columns: like simple, but text columns of the page stay side by side.
 */
export interface HtmlOptions {
  simple?: boolean;
  columns?: boolean;
  /** Default true: images as JPEG at display resolution; false keeps PNG at full resolution. */
  optimizeImages?: boolean;
  /** Page width in CSS pixels (default 1024). */
  pageWidth?: number;
  /** CSS appended to the document's style sheet. */
  additionalCss?: string;
  /** 0 = no images, 1 = embedded data: URIs (default), 2 = separate files (returned in `images`). */
  saveImages?: number;
  table?: TableOptions;
  area?: Area;
  title?: string;
  /** Clockwise quarter turns the page texts were given (RotationAngle); the drawing follows. */
  rotation?: number;
  /** Default true: PDF text in web fonts rebuilt from the document's fonts (data: URIs). */
  embedFonts?: boolean;
  /** Default true: the page drawing of PDF pages as inline SVG (false: one image). */
  vectorGraphics?: boolean;
}

export interface HtmlResult {
  html: string;
  /** Image files referenced by name when saveImages is 2. */
  images: { name: string; bytes: Buffer; contentType: string }[];
}

/** A source of page pictures: a PDF document, or the decoded image pages of an image file. */
export type PageSource =
  | { kind: "pdf"; doc: mupdf.Document }
  | { kind: "image"; bytes: Uint8Array; pageCount: number };

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const px = (n: number) => `${Math.round(n * 100) / 100}px`;

/** CSS font stack for a PDF font name. */
export function fontStack(name: string): string {
  const n = name.toLowerCase();
  if (/courier|mono|consol|typewriter|fixed|menlo/.test(n)) return "'Courier New', Courier, monospace";
  if (/times|serif|georgia|garamond|cambria|minion|palatino|book|roman|century/.test(n) && !/sans/.test(n)) {
    return "'Times New Roman', Times, serif";
  }
  return "Arial, Helvetica, sans-serif";
}

const hex = (c: number) => `#${c.toString(16).padStart(6, "0")}`;

function wordStyle(w: Word, s: number): string {
  const parts = [`font-family:${fontStack(w.fontName)}`, `font-size:${px(w.fontSize * s)}`];
  if (w.bold) parts.push("font-weight:bold");
  if (w.italic) parts.push("font-style:italic");
  if (w.ocr) parts.push("color:transparent");
  else if (w.color !== 0) parts.push(`color:${hex(w.color)}`);
  return parts.join(";");
}

/** Builds the HTML for pages already read (see getPageTexts). */
export async function pagesToHtml(pages: PageText[], source: PageSource, opts: HtmlOptions = {}): Promise<HtmlResult> {
  const images: HtmlResult["images"] = [];
  const flow = opts.simple === true || opts.columns === true;
  const width = opts.pageWidth ?? 1024;
  const body: string[] = [];
  const rich = !flow && source.kind === "pdf" && (opts.embedFonts !== false || opts.vectorGraphics !== false);
  let fontCss = "";
  if (rich) {
    const r = await richPages(pages, source.doc, opts, width, images);
    body.push(...r.body);
    fontCss = r.css;
  } else {
    for (const page of pages) {
      const segments = analysePage(page, opts.table ?? {}, opts.area);
      body.push(flow ? await flowPage(page, segments, source, opts, images) : await positionedPage(page, segments, source, opts, width, images));
    }
  }
  const css = [
    "body{margin:0;padding:16px;background:#e5e5e5;font-family:Arial,Helvetica,sans-serif}",
    ".page{position:relative;overflow:hidden;background:#fff;margin:0 auto 16px auto;box-shadow:0 1px 4px rgba(0,0,0,.3)}",
    ".page>img.bg{position:absolute;left:0;top:0;width:100%;height:100%;user-select:none}",
    ".page span.w{position:absolute;white-space:pre;line-height:1;transform-origin:0 0}",
    ".page>svg.bg{position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none;user-select:none}",
    ".page span.r{position:absolute;white-space:pre;line-height:1}",
    ".page table.t{position:absolute;border-collapse:collapse;table-layout:fixed;border-spacing:0}",
    ".page table.t td{position:relative;padding:0;vertical-align:top;overflow:visible}",
    ".flow{background:#fff;max-width:900px;margin:0 auto 16px auto;padding:24px 32px;box-shadow:0 1px 4px rgba(0,0,0,.3)}",
    ".flow table{border-collapse:collapse;margin:8px 0}.flow td,.flow th{border:1px solid #999;padding:2px 6px;vertical-align:top}",
    ".flow .cols{display:flex;gap:24px;align-items:flex-start}.flow .cols>div{flex:1 1 0;min-width:0}",
    ".flow img{max-width:100%}",
    ...(fontCss ? [fontCss] : []),
    // The box font, for transparent text (only when the pages have some).
    ...(body.some((b) => b.includes(`font-family:${BOX_FAMILY}`)) ? [boxFontFace()] : []),
  ].join("\n");
  const html =
    `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${esc(opts.title ?? "Document")}</title>\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<style>\n${css}\n${(opts.additionalCss ?? "").replace(/<\/style/gi, "<\\/style")}\n</style></head>\n<body>\n${body.join("\n")}\n</body></html>\n`;
  return { html, images };
}

// ---------------------------------------------------------------------------------------------
// Positioned pages

async function positionedPage(
  page: PageText,
  segments: Segment[],
  source: PageSource,
  opts: HtmlOptions,
  width: number,
  images: HtmlResult["images"],
): Promise<string> {
  // The page as rendered (a scan OCRed turned upright keeps its own shape).
  const size = renderedSize(page);
  const s = width / size.width;
  const height = size.height * s;
  const out: string[] = [`<div class="page" id="page${page.index}"${ocrAttrs(page)} style="width:${px(width)};height:${px(height)}">`];
  if ((opts.saveImages ?? 1) !== 0) {
    const bg = await background(page, source, width, height, opts);
    if (bg) out.push(`<img class="bg" alt="" src="${imageRef(bg, `page${page.index}-background`, images, opts)}">`);
  }
  const tables = segments.flatMap((x) => (x.kind === "table" ? [x.table] : []));
  const inTable = new Set<Word>();
  const render = (w: Word, offX: number, offY: number) => span(w, s, w.x0 * s - offX, w.y0 * s - offY, false, ocrTurn(page, s, offX, offY));
  for (const t of tables) out.push(positionedTable(t, page.words, s, inTable, render));
  const inArea = (w: Word) => centreInArea(page, w, opts.area);
  for (const w of page.words) {
    if (inTable.has(w) || !inArea(w)) continue;
    out.push(render(w, 0, 0));
  }
  out.push("</div>");
  return out.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Positioned PDF pages in the document's fonts over a vector drawing

/**
 * Every page's glyphs are read first (a web font holds the glyphs of all pages), then the fonts
 * are built, then each page is written: drawing, tables, runs.
 */
async function richPages(pages: PageText[], doc: mupdf.Document, opts: HtmlOptions, width: number, images: HtmlResult["images"]): Promise<{ body: string[]; css: string }> {
  const embed = opts.embedFonts !== false;
  const q = (((opts.rotation ?? 0) % 4) + 4) % 4;
  const table = new FontTable();
  const facts = new Map<string, FontFacts>();
  const pdf = doc instanceof mupdf.PDFDocument ? doc : null;
  try {
    const glyphsOf: Glyph[][] = [];
    for (const page of pages) {
      let glyphs: Glyph[] = [];
      if (embed) {
        const p = loadPdfPage(doc, page.index);
        try {
          glyphs = collectGlyphs(p, displayMatrix(p, q), table);
          if (pdf) fontFacts(pdf, page.index, facts);
        } catch {
          // Glyphs unreadable (a damaged content stream): the page's words are placed by their boxes.
          glyphs = [];
        } finally {
          p.destroy();
        }
      }
      glyphsOf.push(glyphs);
    }
    const fonts = embed ? await buildWebFonts(table, facts) : null;
    const body: string[] = [];
    for (const [i, page] of pages.entries()) body.push(await richPage(page, glyphsOf[i], table, fonts, doc, opts, width, q, images));
    return { body, css: fonts?.css ?? "" };
  } finally {
    table.destroy();
  }
}

/** Page space (MuPDF's, from the page box's corner) → the displayed page (RotationAngle applied), in points. */
function displayMatrix(p: mupdf.Page, q: number): mupdf.Matrix {
  const [bx0, by0, bx1, by1] = p.getBounds();
  return mupdf.Matrix.concat(mupdf.Matrix.translate(-bx0, -by0), turnMatrix(q, bx1 - bx0, by1 - by0));
}

async function richPage(
  page: PageText,
  glyphs: Glyph[],
  table: FontTable,
  fonts: WebFonts | null,
  doc: mupdf.Document,
  opts: HtmlOptions,
  width: number,
  q: number,
  images: HtmlResult["images"],
): Promise<string> {
  // The page as rendered (a scan OCRed turned upright keeps its own shape).
  const size = renderedSize(page);
  const s = width / size.width;
  const height = size.height * s;
  const drawn = (opts.saveImages ?? 1) !== 0;
  const out: string[] = [`<div class="page" id="page${page.index}"${ocrAttrs(page)} style="width:${px(width)};height:${px(height)}">`];
  const inArea = (x: number, y: number) => !opts.area || within(x, y, opts.area);
  // Glyphs the drawing keeps: all but those the HTML shows as text (and those outside the area).
  const seqs = glyphs.reduce((m, g) => Math.max(m, g.seq), -1) + 1;
  const keep = new Uint8Array(seqs);
  if (fonts) {
    for (const g of glyphs) if (g.seq >= 0 && inArea(g.x, g.y)) keep[g.seq] = 1;
  }
  // OCR words have no glyphs: the text layer's glyphs under them stay drawn.
  const byWord = fonts ? assignGlyphs(page.words.filter((w) => !w.ocr), glyphs, table) : new Map<Word, Glyph[]>();
  const render = (w: Word, offX: number, offY: number): string => {
    const gl = byWord.get(w) ?? [];
    const runs = fonts && gl.length > 0 ? wordRuns(w, gl, table, fonts) : null;
    if (runs) {
      const color = !w.ocr && w.color !== 0 ? hex(w.color) : null;
      const stack = STACKS[fontStyle(w.fontName, null).generic];
      return runs
        .map((r) => {
          // A run without a web font (variant -1) stays in the drawing under transparent text.
          const asPaths = r.variant < 0 && drawn;
          if (!asPaths) for (const g of r.glyphs) if (g.seq >= 0) keep[g.seq] = 0;
          return runSpan(r, table, fonts, s, offX, offY, color, stack, asPaths);
        })
        .join("");
    }
    // Placed by its box: transparent over its glyphs when they are drawn (or invisible text).
    const invisible = gl.length > 0 && gl.every((g) => g.kind === "invisible");
    const transparent = invisible || (drawn && gl.length > 0);
    if (!transparent) for (const g of gl) if (g.seq >= 0) keep[g.seq] = 0;
    return span(w, s, w.x0 * s - offX, w.y0 * s - offY, transparent, ocrTurn(page, s, offX, offY));
  };
  // Words outside the area are left out, their glyphs too.
  if (opts.area) for (const w of page.words) if (!inArea((w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2)) for (const g of byWord.get(w) ?? []) if (g.seq >= 0) keep[g.seq] = 0;
  const segments = analysePage(page, opts.table ?? {}, opts.area);
  const tables = segments.flatMap((x) => (x.kind === "table" ? [x.table] : []));
  const inTable = new Set<Word>();
  // Tables take the place of their first word, so the document reads in the page's order.
  const tableAt = new Map<Word, string>();
  for (const t of tables) {
    const before = new Set(inTable);
    const html = positionedTable(t, page.words, s, inTable, render, joinWords);
    const first = page.words.find((w) => inTable.has(w) && !before.has(w));
    if (first) tableAt.set(first, html);
  }
  const free: Word[] = [];
  const texts: string[] = [];
  const flush = () => {
    if (free.length) texts.push(joinWords(free, (w) => render(w, 0, 0)));
    free.length = 0;
  };
  for (const w of page.words) {
    const t = tableAt.get(w);
    if (t) {
      flush();
      texts.push(t);
    }
    if (inTable.has(w) || !inArea((w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2)) continue;
    free.push(w);
  }
  flush();
  if (drawn) {
    const p = loadPdfPage(doc, page.index);
    try {
      const drawing = await pageDrawing(
        p,
        displayMatrix(p, q),
        {
          width: page.width,
          height: page.height,
          scale: s,
          id: `p${page.index}`,
          optimizeImages: opts.optimizeImages !== false,
          saveImages: opts.saveImages ?? 1,
          vector: opts.vectorGraphics !== false,
          filter: () => ({ keepText: glyphFilter(keep) }),
        },
        images,
      );
      if (drawing) out.push(drawing);
    } finally {
      p.destroy();
    }
  }
  out.push(...texts, "</div>");
  return out.join("\n");
}

/**
 * Spans of words in order, apart by a line break (whitespace in the text) unless the next word
 * touches this one on the same line: a word cut by a colour change reads as one word.
 */
function joinWords(words: Word[], one: (w: Word) => string): string {
  let out = "";
  words.forEach((w, i) => {
    if (i > 0 && !touching(words[i - 1], w)) out += "\n";
    out += one(w);
  });
  return out;
}

/** Left-to-right neighbours on one line, the second starting where the first ends. */
function touching(p: Word, w: Word): boolean {
  if (p.lineId !== w.lineId || RTL.test(p.text) || RTL.test(w.text)) return false;
  const f = Math.max(p.fontSize, w.fontSize);
  const gap = w.x0 - p.x1;
  const dy = Math.max(p.y0, w.y0) - Math.min(p.y1, w.y1);
  return dy < -0.5 * Math.min(p.y1 - p.y0, w.y1 - w.y0) && gap > -0.2 * f && gap < 0.1 * f && w.x1 > p.x1;
}

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;

function within(x: number, y: number, a: Area): boolean {
  return x >= a.x && x <= a.x + a.width && y >= a.y && y <= a.y + a.height;
}

/**
 * OCR words of a deskewed or turned scan are positioned on the level, upright page (see
 * PageText.ocrFrame); over the scan as it is, each is moved back to where it was read and turned
 * with its line.
 */
interface OcrTurn {
  frame: Matrix;
  /** Clockwise degrees of the words' baseline on the page. */
  deg: number;
  s: number;
  offX: number;
  offY: number;
}

function ocrTurn(page: PageText, s: number, offX = 0, offY = 0): OcrTurn | undefined {
  const frame = page.ocrFrame;
  if (!frame) return undefined;
  return { frame, deg: Math.round((Math.atan2(frame[1], frame[0]) * 180) / Math.PI * 1000) / 1000, s, offX, offY };
}

/** data- attributes of a page div: the skew and orientation corrections of an OCRed scan. */
function ocrAttrs(page: PageText): string {
  return `${page.ocrSkew ? ` data-ocr-skew="${page.ocrSkew}"` : ""}${page.ocrOrientation ? ` data-ocr-orientation="${page.ocrOrientation}"` : ""}`;
}

function span(w: Word, s: number, left: number, top: number, transparent = false, turn?: OcrTurn): string {
  // The span's box is the word's box: top at the ascender, height to the descender. The browser's
  // font is not the PDF's: a horizontal scale makes the word exactly as wide as in the PDF.
  const h = Math.max(1, (w.y1 - w.y0) * s);
  // Transparent text only marks where the words are: set in the box font (every character of a
  // known width, box-font.ts) at the box's height, so the text's box is the word's box exactly;
  // visible text in its local stack, scaled within reason.
  const boxed = transparent || w.ocr;
  const natural = boxed ? boxTextWidth(w.text) * h : measureText(w.text, fontStack(w.fontName), w.bold, w.italic) * w.fontSize * s;
  const [lo, hi] = boxed ? [0.05, 20] : [0.5, 2];
  const k = natural > 0 ? Math.min(hi, Math.max(lo, ((w.x1 - w.x0) * s) / natural)) : 1;
  let scale = Math.abs(k - 1) > 0.01 ? `;transform:scaleX(${k.toFixed(3)})` : "";
  if (turn && w.ocr) {
    // The span turns about its centre (CSS's default origin): place that centre where it was read.
    const [cx, cy] = applyPoint(turn.frame, (w.x0 + w.x1) / 2, w.y0 + h / s / 2);
    left = cx * turn.s - turn.offX - ((w.x1 - w.x0) * s) / 2;
    top = cy * turn.s - turn.offY - h / 2;
    scale = `;transform:rotate(${turn.deg}deg)${Math.abs(k - 1) > 0.01 ? ` scaleX(${k.toFixed(3)})` : ""}`;
  }
  const style = boxed ? `font-family:${BOX_FAMILY};font-size:${px(h)};color:transparent` : wordStyle(w, s);
  return `<span class="w" style="left:${px(left)};top:${px(top)};height:${px(h)};line-height:${px(h)};${style}${scale}">${esc(w.text)}</span>`;
}

const metricFonts = new Map<string, { font: mupdf.Font; widths: Map<string, number> }>();

/**
 * Width in em of text in the CSS fallback font, from the metric-compatible base-14 fonts
 * (Arial ≈ Helvetica, Times New Roman ≈ Times, Courier New ≈ Courier).
 */
export function measureText(text: string, stack: string, bold: boolean, italic: boolean): number {
  const family = stack.startsWith("'Courier") ? "Courier" : stack.startsWith("'Times") ? "Times" : "Helvetica";
  let style: string;
  if (family === "Times") style = bold && italic ? "-BoldItalic" : bold ? "-Bold" : italic ? "-Italic" : "-Roman";
  else style = bold && italic ? "-BoldOblique" : bold ? "-Bold" : italic ? "-Oblique" : "";
  const name = family + style;
  let entry = metricFonts.get(name);
  if (!entry) {
    entry = { font: new mupdf.Font(name), widths: new Map() };
    metricFonts.set(name, entry);
  }
  let total = 0;
  for (const ch of text) {
    let w = entry.widths.get(ch);
    if (w === undefined) {
      const gid = entry.font.encodeCharacter(ch.codePointAt(0) ?? 32);
      w = gid > 0 ? entry.font.advanceGlyph(gid, 0) : 0.55;
      entry.widths.set(ch, w);
    }
    total += w;
  }
  return total;
}

/**
 * A <table> at the table's place; its words keep their exact position inside their cell.
 * `render` draws a word given its cell's position (px).
 */
function positionedTable(
  t: Table,
  words: Word[],
  s: number,
  used: Set<Word>,
  render: (w: Word, offX: number, offY: number) => string,
  join: (ws: Word[], one: (w: Word) => string) => string = (ws, one) => ws.map(one).join(" "),
): string {
  const xs = t.columnEdges;
  const ys = t.rowEdges.length === t.rows.length + 1 ? t.rowEdges : evenEdges(t.y0, t.y1, t.rows.length);
  const nCols = xs.length - 1;
  const nRows = ys.length - 1;
  const { owner, spanAt, covered } = mergedCells(t, nRows, nCols);
  // Words by cell (merged cells: their top-left cell).
  const cellWords = new Map<string, Word[]>();
  for (const w of words) {
    // A word already in an earlier table (detected tables may overlap) is shown once.
    if (used.has(w)) continue;
    const cx = (w.x0 + w.x1) / 2;
    const cy = (w.y0 + w.y1) / 2;
    if (cx < xs[0] || cx > xs[nCols] || cy < ys[0] || cy > ys[nRows]) continue;
    const c = xs.findIndex((x, i) => i < nCols && cx >= x && cx <= xs[i + 1]);
    const r = ys.findIndex((y, i) => i < nRows && cy >= y && cy <= ys[i + 1]);
    if (c < 0 || r < 0) continue;
    const sp = owner.get(`${r},${c}`);
    const key = sp ? `${sp.row},${sp.col}` : `${r},${c}`;
    const list = cellWords.get(key) ?? [];
    list.push(w);
    cellWords.set(key, list);
    used.add(w);
  }
  const out: string[] = [
    `<table class="t" style="left:${px(xs[0] * s)};top:${px(ys[0] * s)};width:${px((xs[nCols] - xs[0]) * s)}">`,
    "<colgroup>" + xs.slice(0, -1).map((x, i) => `<col style="width:${px((xs[i + 1] - x) * s)}">`).join("") + "</colgroup>",
  ];
  for (let r = 0; r < nRows; r++) {
    out.push(`<tr style="height:${px((ys[r + 1] - ys[r]) * s)}">`);
    for (let c = 0; c < nCols; c++) {
      const key = `${r},${c}`;
      if (covered.has(key)) continue;
      const sp = spanAt.get(key);
      const attrs = sp ? `${sp.colSpan > 1 ? ` colspan="${sp.colSpan}"` : ""}${sp.rowSpan > 1 ? ` rowspan="${sp.rowSpan}"` : ""}` : "";
      // Words apart by a space, so that the cell's text copies as words.
      const inner = join(cellWords.get(key) ?? [], (w) => render(w, xs[c] * s, ys[r] * s));
      out.push(`<td${attrs}>${inner}</td>`);
    }
    out.push("</tr>");
  }
  out.push("</table>");
  // Line breaks between cells and rows: the table's text reads as words (layout ignores them).
  return out.join("\n");
}

type CellSpan = Table["spans"][number];

/**
 * A table's merged cells, each cell in at most one: a span overlapping an earlier one (table
 * analysis can return such) is left out and its cells stay single. Otherwise a cell would be
 * hidden under a span that is not its own, and the words in it lost. `owner`: cell → its span;
 * `covered`: cells of a span other than its top-left one (not written).
 */
export function mergedCells(t: Pick<Table, "spans">, nRows: number, nCols: number): { owner: Map<string, CellSpan>; spanAt: Map<string, CellSpan>; covered: Set<string> } {
  const owner = new Map<string, CellSpan>();
  const spanAt = new Map<string, CellSpan>();
  for (const sp of t.spans) {
    const cells: string[] = [];
    for (let r = sp.row; r < Math.min(nRows, sp.row + sp.rowSpan); r++) for (let c = sp.col; c < Math.min(nCols, sp.col + sp.colSpan); c++) cells.push(`${r},${c}`);
    if (cells.length === 0 || cells.some((k) => owner.has(k))) continue;
    for (const k of cells) owner.set(k, sp);
    spanAt.set(`${sp.row},${sp.col}`, sp);
  }
  const covered = new Set<string>();
  for (const [k, sp] of owner) if (k !== `${sp.row},${sp.col}`) covered.add(k);
  return { owner, spanAt, covered };
}

function evenEdges(a: number, b: number, n: number): number[] {
  return Array.from({ length: n + 1 }, (_, i) => a + ((b - a) * i) / Math.max(1, n));
}

/**
 * The page drawn without its text (so the text spans are the only text), as an image of the
 * output size. Null when that drawing is blank (a text-only page needs no background).
 */
async function background(page: PageText, source: PageSource, width: number, height: number, opts: HtmlOptions): Promise<{ bytes: Buffer; type: string } | null> {
  // Full resolution when OptimizeImages is false: 2× the display size, capped; else display size.
  const scaleUp = opts.optimizeImages === false ? 2 : 1;
  const w = Math.min(Math.round(width * scaleUp), 4096);
  const h = Math.max(1, Math.round((height * w) / width));
  // RotationAngle turned the words; the drawing is rendered as stored, then turned the same way.
  const q = (((opts.rotation ?? 0) % 4) + 4) % 4;
  const [rw, rh] = q % 2 ? [h, w] : [w, h];
  let raw: { data: Uint8Array; width: number; height: number; channels: 3 } | null = null;
  if (source.kind === "pdf") {
    const p = loadPdfPage(source.doc, page.index);
    try {
      const [bx0, by0, bx1, by1] = p.getBounds();
      const sx = rw / (bx1 - bx0);
      const sy = rh / (by1 - by0);
      const pix = renderWithoutText(p, mupdf.Matrix.scale(sx, sy), mupdf.ColorSpace.DeviceRGB);
      try {
        raw = { data: new Uint8Array(pix.getPixels()), width: pix.getWidth(), height: pix.getHeight(), channels: 3 };
        if (pix.getStride() !== pix.getWidth() * 3) raw = repack(pix);
      } finally {
        pix.destroy();
      }
    } finally {
      p.destroy();
    }
    if (isBlank(raw.data)) return null;
  } else {
    const probe = await probeImage(source.bytes);
    const page0 = await decodeImagePage(source.bytes, page.index, source.pageCount, probe.dpi, probe.decoder);
    const rgb = page0.channels === 3 ? page0.data : Uint8Array.from({ length: page0.data.length * 3 }, (_, i) => page0.data[Math.floor(i / 3)]);
    const data = await sharp(rgb, { raw: { width: page0.width, height: page0.height, channels: 3 } }).resize(rw, rh, { fit: "fill" }).raw().toBuffer();
    raw = { data: new Uint8Array(data), width: rw, height: rh, channels: 3 };
  }
  let img = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 3 } });
  if (q) img = sharp(await img.rotate(q * 90).raw().toBuffer(), { raw: { width: q % 2 ? raw.height : raw.width, height: q % 2 ? raw.width : raw.height, channels: 3 } });
  if (opts.optimizeImages === false) return { bytes: await img.png().toBuffer(), type: "image/png" };
  return { bytes: await img.jpeg({ quality: 80, mozjpeg: true }).toBuffer(), type: "image/jpeg" };
}

function repack(pix: mupdf.Pixmap): { data: Uint8Array; width: number; height: number; channels: 3 } {
  const w = pix.getWidth();
  const h = pix.getHeight();
  const n = pix.getNumberOfComponents(); // MuPDF counts the alpha channel in n
  const stride = pix.getStride();
  const src = pix.getPixels();
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let k = 0; k < 3; k++) data[(y * w + x) * 3 + k] = src[y * stride + x * n + k];
  return { data, width: w, height: h, channels: 3 };
}

function isBlank(data: Uint8Array): boolean {
  for (let i = 0; i < data.length; i += 7) if (data[i] < 250) return false;
  return true;
}


function imageRef(img: { bytes: Buffer; type: string }, base: string, images: HtmlResult["images"], opts: HtmlOptions): string {
  if ((opts.saveImages ?? 1) === 2) {
    const name = `${base}.${img.type === "image/png" ? "png" : "jpg"}`;
    images.push({ name, bytes: img.bytes, contentType: img.type });
    return esc(name);
  }
  return `data:${img.type};base64,${img.bytes.toString("base64")}`;
}

// ---------------------------------------------------------------------------------------------
// Flow pages (simple / columns)

async function flowPage(
  page: PageText,
  segments: Segment[],
  source: PageSource,
  opts: HtmlOptions,
  images: HtmlResult["images"],
): Promise<string> {
  const out: string[] = [`<div class="flow" id="page${page.index}">`];
  const items: { y: number; x: number; html: string }[] = [];
  // Images in reading order (PDF sources only; a scan's page image is not repeated in flow).
  if (source.kind === "pdf" && (opts.saveImages ?? 1) !== 0) {
    const pageImages = extractPageImages(source.doc, page.index);
    for (const [n, im] of pageImages.entries()) {
      if (opts.area && !within((im.x0 + im.x1) / 2, (im.y0 + im.y1) / 2, opts.area)) continue;
      let bytes = im.png;
      let type = "image/png";
      const displayW = Math.max(1, Math.round((im.x1 - im.x0) * 1.5));
      if (opts.optimizeImages !== false) {
        bytes = await sharp(im.png).resize({ width: Math.min(im.width, displayW), withoutEnlargement: true }).flatten({ background: "#ffffff" }).jpeg({ quality: 80 }).toBuffer();
        type = "image/jpeg";
      }
      const src = imageRef({ bytes, type }, `page${page.index}-image${n + 1}`, images, opts);
      items.push({ y: im.y0, x: im.x0, html: `<p><img alt="" src="${src}" style="width:${px((im.x1 - im.x0) * 1.33)}"></p>` });
    }
  }
  const words = page.words.filter((w) => centreInArea(page, w, opts.area));
  const sizes = words.map((w) => w.fontSize).sort((a, b) => a - b);
  const bodySize = sizes[sizes.length >> 1] ?? 10;
  // columns: text columns (gutters no line crosses) are laid side by side, each analysed alone;
  // ruled tables keep their place in the flow.
  const ruled = segments.flatMap((x) => (x.kind === "table" && x.table.source === "borders" ? [x.table] : []));
  const inRuled = (w: Word) => ruled.some((t) => within((w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2, { x: t.x0 - 1, y: t.y0 - 1, width: t.x1 - t.x0 + 2, height: t.y1 - t.y0 + 2 }));
  const columns = opts.columns ? splitColumns(words.filter((w) => !inRuled(w)), page.width) : [];
  if (columns.length > 1) {
    for (const t of ruled) items.push({ y: t.y0, x: t.x0, html: flowTable(t) });
    const colHtml = columns.map((ws) => {
      const sub: PageText = { ...page, words: ws, rules: [] };
      const subItems = flowItems(sub, analysePage(sub, opts.table ?? {}), ws, bodySize);
      return `<div>${subItems.map((i) => i.html).join("\n")}</div>`;
    });
    items.push({ y: Math.min(...columns.flat().map((w) => w.y0)), x: 0, html: `<div class="cols">${colHtml.join("\n")}</div>` });
  } else {
    items.push(...flowItems(page, segments, words, bodySize));
  }
  items.sort((a, b) => a.y - b.y || a.x - b.x);
  out.push(...items.map((i) => i.html));
  out.push("</div>");
  return out.join("\n");
}

/** Tables and paragraphs of some words, each with its position for ordering. */
function flowItems(page: PageText, segments: Segment[], words: Word[], bodySize: number): { y: number; x: number; html: string }[] {
  const items: { y: number; x: number; html: string }[] = [];
  const tables = segments.flatMap((x) => (x.kind === "table" ? [x.table] : []));
  for (const t of tables) items.push({ y: t.y0, x: t.x0, html: flowTable(t) });
  const free = words.filter(
    (w) => !tables.some((t) => t.page === page.index && within((w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2, { x: t.x0 - 1, y: t.y0 - 1, width: t.x1 - t.x0 + 2, height: t.y1 - t.y0 + 2 })),
  );
  for (const block of blocks(groupLines(free))) items.push({ y: block[0].y0, x: block[0].x0, html: paragraphs([...block], bodySize).join("\n") });
  return items;
}

/** Lines cut into blocks at paragraph gaps. */
function blocks(lines: TextLine[]): TextLine[][] {
  const out: TextLine[][] = [];
  for (const l of lines) {
    const cur = out[out.length - 1];
    const prev = cur?.[cur.length - 1];
    if (prev && l.y0 - prev.y1 <= 0.6 * Math.max(l.fontSize, prev.fontSize) && Math.abs(l.fontSize - prev.fontSize) < 1.5) cur.push(l);
    else out.push([l]);
  }
  return out;
}

/** Paragraphs (<p>, or <h1>/<h2> for large text) of consecutive lines; inline bold/italic/colour. */
function paragraphs(lines: TextLine[], body: number): string[] {
  const out: string[] = [];
  for (const block of blocks(lines)) {
    const size = block[0].fontSize;
    const tag = size >= body * 1.6 ? "h1" : size >= body * 1.25 ? "h2" : "p";
    const text = block.map((l) => inline(l.words)).join(tag === "p" ? " " : " ");
    out.push(`<${tag}>${text}</${tag}>`);
  }
  return out;
}

function inline(words: Word[]): string {
  // Runs of words with the same style share one element.
  const ordered = [...words].sort((a, b) => a.x0 - b.x0);
  const runs: { style: string; w: Word; text: string[] }[] = [];
  for (const w of ordered) {
    const style = `${w.bold ? "b" : ""}${w.italic ? "i" : ""}${!w.ocr && w.color !== 0 ? hex(w.color) : ""}`;
    const last = runs[runs.length - 1];
    if (last && last.style === style) last.text.push(esc(w.text));
    else runs.push({ style, w, text: [esc(w.text)] });
  }
  return runs
    .map(({ w, text }) => {
      let t = text.join(" ");
      if (w.bold) t = `<b>${t}</b>`;
      if (w.italic) t = `<i>${t}</i>`;
      if (!w.ocr && w.color !== 0) t = `<span style="color:${hex(w.color)}">${t}</span>`;
      return t;
    })
    .join(" ");
}

function flowTable(t: Table): string {
  const { spanAt, covered } = mergedCells(t, t.rows.length, t.rows[0]?.length ?? 0);
  const rows = t.rows.map((row, r) => {
    const cells = row
      .map((text, c) => {
        const key = `${r},${c}`;
        if (covered.has(key)) return "";
        const sp = spanAt.get(key);
        const attrs = sp ? `${sp.colSpan > 1 ? ` colspan="${sp.colSpan}"` : ""}${sp.rowSpan > 1 ? ` rowspan="${sp.rowSpan}"` : ""}` : "";
        return `<td${attrs}>${esc(text).replace(/\n/g, "<br>")}</td>`;
      })
      .join("");
    return `<tr>${cells}</tr>`;
  });
  return `<table>${rows.join("")}</table>`;
}

/**
 * Text columns of a page: vertical gutters that no line crosses over most of the page height.
 * Returns the words of each column, left to right (one group when there is no gutter).
 */
export function splitColumns(words: Word[], pageWidth: number): Word[][] {
  if (words.length < 20) return [words];
  const lines = groupLines(words);
  const bins = Math.ceil(pageWidth);
  const cover = new Uint16Array(bins + 1);
  for (const l of lines) {
    for (const c of l.chunks) {
      for (let x = Math.max(0, Math.floor(c.x0)); x <= Math.min(bins, Math.ceil(c.x1)); x++) cover[x]++;
    }
  }
  const minX = Math.min(...words.map((w) => w.x0));
  const maxX = Math.max(...words.map((w) => w.x1));
  // Gutters: runs of ≥ 8 pt inside the text area crossed by at most 5% of lines.
  const limit = Math.max(0, Math.floor(lines.length * 0.05));
  const cuts: number[] = [];
  let start = -1;
  for (let x = Math.ceil(minX); x <= Math.floor(maxX); x++) {
    if (cover[x] <= limit) {
      if (start < 0) start = x;
    } else if (start >= 0) {
      if (x - start >= 8) cuts.push((start + x) / 2);
      start = -1;
    }
  }
  if (cuts.length === 0) return [words];
  const groups: Word[][] = Array.from({ length: cuts.length + 1 }, () => []);
  for (const w of words) {
    const cx = (w.x0 + w.x1) / 2;
    let i = 0;
    while (i < cuts.length && cx > cuts[i]) i++;
    groups[i].push(w);
  }
  // A column needs a real share of the text; otherwise it is a margin note.
  const big = groups.filter((g) => g.length >= words.length * 0.15);
  return big.length > 1 ? groups.filter((g) => g.length > 0) : [words];
}

