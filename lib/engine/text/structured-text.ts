import type { Area } from "@/lib/engine/tables/extract-tables";
import { bbox, groupLines, joinWords, makeLine, type LineOptions } from "@/lib/engine/tables/lines";
import type { Segment } from "@/lib/engine/tables/types";
import { pageBox, renderedSize } from "@/lib/engine/text/page-frame";
import { wordsInArea } from "@/lib/engine/text/plain-text";
import type { PageText, Word } from "@/lib/engine/text/types";

/**
 * The page as rows of columns of text objects (each with its box, font and colour), the tree
 * behind PDF → JSON, JSON2 and XML:
 * - textRows: rows are visual lines, columns are the line's content groups (words closer than
 *   the column gap), as the public API's "text objects".
 * - tableRows: rows and cells of the table analysis (as in PDF → CSV): a table row's cells are
 *   its columns (empty cells kept), merged cells carry their span, text between tables is one
 *   row per line.
 * Boxes are in points from the page's top-left corner, on the page as rendered: the words of a
 * deskewed or turned scan are laid out level and upright, and their boxes placed back on the scan
 * (PageText.ocrFrame); such a page reports the correction (deskewAngle, orientation).
 */
export interface TextObject {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  fontName: string;
  fontSize: number;
  bold: boolean;
  italic: boolean;
  /** "#RRGGBB". */
  color: string;
}

export interface StructuredCell {
  /** Absent for an empty table cell. */
  object?: TextObject;
  rowSpan?: number;
  colSpan?: number;
}

export interface StructuredRow {
  /** 1-based number of the table the row belongs to, in document order; absent outside tables. */
  table?: number;
  cells: StructuredCell[];
}

export interface StructuredPage {
  index: number;
  width: number;
  height: number;
  rotation: number;
  /** OCRed scans: the skew corrected before recognition, degrees counter-clockwise. */
  deskewAngle?: number;
  /** OCRed scans: clockwise degrees the page was turned upright before recognition. */
  orientation?: number;
  rows: StructuredRow[];
}

/** The page fields of a structured page: its size as rendered and the OCR corrections. */
function pageHead(page: PageText): Omit<StructuredPage, "rows"> {
  const size = renderedSize(page);
  return {
    index: page.index,
    width: r2(size.width),
    height: r2(size.height),
    rotation: page.rotation,
    ...(page.ocrSkew ? { deskewAngle: page.ocrSkew } : {}),
    ...(page.ocrOrientation ? { orientation: page.ocrOrientation } : {}),
  };
}

function hex(color: number): string {
  return `#${(color & 0xffffff).toString(16).padStart(6, "0").toUpperCase()}`;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

/** One text object for words (their box, on the page as rendered; the font of the majority of characters). */
export function textObject(words: Word[], text?: string, page: Pick<PageText, "ocrFrame"> = {}): TextObject {
  const box = pageBox(page, bbox(words));
  const weight = new Map<Word, number>();
  for (const w of words) weight.set(w, w.text.length);
  const main = [...words].sort((a, b) => (weight.get(b) ?? 0) - (weight.get(a) ?? 0))[0];
  const chars = words.reduce((s, w) => s + w.text.length, 0) || 1;
  const boldChars = words.filter((w) => w.bold).reduce((s, w) => s + w.text.length, 0);
  const italicChars = words.filter((w) => w.italic).reduce((s, w) => s + w.text.length, 0);
  return {
    text: text ?? joinWords(words),
    x: r2(box.x0),
    y: r2(box.y0),
    width: r2(box.x1 - box.x0),
    height: r2(box.y1 - box.y0),
    fontName: main.fontName,
    fontSize: r2(main.fontSize),
    bold: boldChars * 2 > chars,
    italic: italicChars * 2 > chars,
    color: hex(main.color),
  };
}

/** Rows = visual lines, columns = content groups (see the top of this file). */
export function textRows(page: PageText, area?: Area, opts: LineOptions = {}): StructuredPage {
  const lines = groupLines(wordsInArea(page.words, area, page), opts);
  return { ...pageHead(page), rows: lines.map((l) => ({ cells: l.chunks.map((c) => ({ object: textObject(c.words, undefined, page) })) })) };
}

function inBox(w: Word, x0: number, y0: number, x1: number, y1: number): boolean {
  const cx = (w.x0 + w.x1) / 2;
  const cy = (w.y0 + w.y1) / 2;
  return cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
}

/** Rows and cells of the table analysis per page (see the top of this file). */
export function tableRows(pages: PageText[], segments: Segment[], area?: Area): StructuredPage[] {
  const byIndex = new Map(pages.map((p) => [p.index, p]));
  const out = new Map<number, StructuredRow[]>(pages.map((p) => [p.index, []]));
  let tableNo = 0;
  for (const s of segments) {
    if (s.kind === "text") {
      const page = byIndex.get(s.page);
      const words = page ? wordsInArea(page.words, area, page).filter((w) => inBox(w, s.x0 - 1, s.y0 - 1, Infinity, s.y1 + 1)) : [];
      const chunks = words.length ? makeLine(words).chunks : [];
      const cells: StructuredCell[] =
        chunks.length === s.cells.length
          ? chunks.map((c, i) => ({ object: textObject(c.words, s.cells[i], page) }))
          : s.cells.map((text) => ({ object: words.length ? { ...textObject(words, undefined, page), text } : undefined }));
      out.get(s.page)?.push({ cells });
      continue;
    }
    const t = s.table;
    tableNo++;
    const page = byIndex.get(t.page);
    const words = page ? wordsInArea(page.words, area, page) : [];
    const spans = new Map(t.spans.map((sp) => [`${sp.row},${sp.col}`, sp]));
    const covered = new Set<string>();
    for (const sp of t.spans) {
      for (let r = sp.row; r < sp.row + sp.rowSpan; r++) {
        for (let c = sp.col; c < sp.col + sp.colSpan; c++) if (r !== sp.row || c !== sp.col) covered.add(`${r},${c}`);
      }
    }
    t.rows.forEach((row, r) => {
      // Rows joined from a following page have no edges on the table's first page.
      const hasEdges = r + 1 < t.rowEdges.length;
      const cells: StructuredCell[] = row.map((text, c) => {
        if (covered.has(`${r},${c}`)) return {};
        const sp = spans.get(`${r},${c}`);
        const cell: StructuredCell = sp && (sp.rowSpan > 1 || sp.colSpan > 1) ? { rowSpan: sp.rowSpan, colSpan: sp.colSpan } : {};
        if (text === "") return cell;
        const c1 = c + (sp?.colSpan ?? 1);
        const r1 = r + (sp?.rowSpan ?? 1);
        const mine = hasEdges
          ? words.filter((w) => inBox(w, t.columnEdges[c] - 0.5, t.rowEdges[r] - 0.5, t.columnEdges[Math.min(c1, t.columnEdges.length - 1)] + 0.5, t.rowEdges[Math.min(r1, t.rowEdges.length - 1)] + 0.5))
          : [];
        cell.object = mine.length
          ? textObject(mine, text, page)
          : { text, x: 0, y: 0, width: 0, height: 0, fontName: "", fontSize: 0, bold: false, italic: false, color: "#000000" };
        return cell;
      });
      out.get(t.page)?.push({ table: tableNo, cells });
    });
  }
  return pages.map((p) => ({ ...pageHead(p), rows: out.get(p.index) ?? [] }));
}

function fontStyle(o: TextObject): string {
  return o.bold && o.italic ? "BoldItalic" : o.bold ? "Bold" : o.italic ? "Italic" : "Regular";
}

const f2 = (n: number) => n.toFixed(2);

/**
 * The seed's JSON tree (json, json-meta): document → page[] → row[] → column[] → text, the
 * attributes prefixed with "@" and every value a string (as the XML it mirrors), the text in
 * "#text".
 */
export function toJsonTree(pages: StructuredPage[], info?: Record<string, unknown>): Record<string, unknown> {
  const page = pages.map((p) => ({
    "@index": String(p.index),
    "@width": f2(p.width),
    "@height": f2(p.height),
    ...(p.deskewAngle ? { "@deskewAngle": f2(p.deskewAngle) } : {}),
    ...(p.orientation ? { "@orientation": String(p.orientation) } : {}),
    row: p.rows.map((row) => ({
      ...(row.table !== undefined ? { "@table": String(row.table) } : {}),
      column: row.cells.map((cell) => ({
        ...(cell.rowSpan ? { "@rowSpan": String(cell.rowSpan) } : {}),
        ...(cell.colSpan ? { "@colSpan": String(cell.colSpan) } : {}),
        ...(cell.object
          ? {
              text: {
                "@fontName": cell.object.fontName,
                "@fontSize": f2(cell.object.fontSize),
                "@fontStyle": fontStyle(cell.object),
                "@color": cell.object.color,
                "@x": f2(cell.object.x),
                "@y": f2(cell.object.y),
                "@width": f2(cell.object.width),
                "@height": f2(cell.object.height),
                "#text": cell.object.text,
              },
            }
          : {}),
      })),
    })),
  }));
  return { document: { ...(info ? { info } : {}), page } };
}

/**
 * The JSON2 tree: the same document → page[] → row[] → column[] without prefixes, numbers as
 * numbers, each column holding its text as a string beside its box and font (so `column.text`
 * reads as text), and the document's page counts.
 */
export function toJson2Tree(pages: StructuredPage[], pageCount: number, ocrPageCount: number): Record<string, unknown> {
  const page = pages.map((p) => ({
    index: p.index,
    width: p.width,
    height: p.height,
    ...(p.deskewAngle ? { deskewAngle: p.deskewAngle } : {}),
    ...(p.orientation ? { orientation: p.orientation } : {}),
    row: p.rows.map((row) => ({
      ...(row.table !== undefined ? { table: row.table } : {}),
      column: row.cells.map((cell) => {
        const o = cell.object;
        return {
          text: o?.text ?? "",
          ...(o
            ? {
                x: o.x,
                y: o.y,
                width: o.width,
                height: o.height,
                fontName: o.fontName,
                fontSize: o.fontSize,
                fontStyle: fontStyle(o),
                fontIsBold: o.bold,
                fontIsItalic: o.italic,
                color: o.color,
              }
            : {}),
          ...(cell.rowSpan ? { rowSpan: cell.rowSpan } : {}),
          ...(cell.colSpan ? { colSpan: cell.colSpan } : {}),
        };
      }),
    })),
  }));
  return { document: { pageCount, pageCountWithOCRPerformed: ocrPageCount, page } };
}

function esc(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** The same tree as XML (UTF-8, two-space indent). */
export function toXml(pages: StructuredPage[]): string {
  const out: string[] = ['<?xml version="1.0" encoding="utf-8"?>', "<document>"];
  for (const p of pages) {
    const ocr = `${p.deskewAngle ? ` deskewAngle="${f2(p.deskewAngle)}"` : ""}${p.orientation ? ` orientation="${p.orientation}"` : ""}`;
    out.push(`  <page index="${p.index}" width="${f2(p.width)}" height="${f2(p.height)}"${ocr}>`);
    for (const row of p.rows) {
      out.push(row.table !== undefined ? `    <row table="${row.table}">` : "    <row>");
      for (const cell of row.cells) {
        const span = `${cell.rowSpan ? ` rowSpan="${cell.rowSpan}"` : ""}${cell.colSpan ? ` colSpan="${cell.colSpan}"` : ""}`;
        const o = cell.object;
        if (!o) {
          out.push(`      <column${span} />`);
          continue;
        }
        out.push(`      <column${span}>`);
        out.push(
          `        <text fontName="${esc(o.fontName)}" fontSize="${f2(o.fontSize)}" fontStyle="${fontStyle(o)}" color="${o.color}" x="${f2(o.x)}" y="${f2(o.y)}" width="${f2(o.width)}" height="${f2(o.height)}">${esc(o.text)}</text>`,
        );
        out.push("      </column>");
      }
      out.push("    </row>");
    }
    out.push("  </page>");
  }
  out.push("</document>");
  return out.join("\r\n") + "\r\n";
}
