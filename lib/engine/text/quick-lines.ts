import "server-only";
import * as mupdf from "mupdf";
import { mupdfRaw, type MupdfRaw } from "@/lib/engine/pdf/mupdf-handle";
import { QuireError } from "@/lib/core/errors";
import { parsePages } from "@/lib/engine/pages";
import { parseLanguages } from "@/lib/engine/ocr/languages";
import { openPdf, loadPdfPage } from "@/lib/engine/pdf/open-pdf";
import { getPageTexts, sniffKind, type PageTextsOptions, type PageTextsResult } from "@/lib/engine/text/page-texts";
import type { PageText, Word } from "@/lib/engine/text/types";

/**
 * A fast reading of a page's text layer for plain-text output: MuPDF's structured text as JSON
 * (one call into WASM per page instead of one callback per character, about 3× faster than
 * words.ts), each MuPDF line one "word" with the line's box and font. Good for layout and
 * reading-order text, which place whole runs; not for table analysis, which needs real word and
 * character boxes (lib/engine/text/words.ts).
 *
 * Returns null for a page the fast reading cannot serve and that must go through getPageTexts:
 * too little text (it may need OCR) or text that is not horizontal (it is turned upright there).
 */

/** A line of MuPDF's structured text as its JSON output gives it (stext-output.c). */
interface StextLine {
  wmode: number;
  /** Whole points, each truncated as MuPDF's JSON prints them. */
  bbox: { x: number; y: number; w: number; h: number };
  font: { name: string; weight: string; style: string; size: number };
  text: string;
  dir?: { x: number; y: number };
}

interface StextJson {
  blocks: { type: string; lines?: StextLine[] }[];
}

export function quickPageText(doc: mupdf.Document, index: number, minTextLength: number): PageText | null {
  const page = loadPdfPage(doc, index);
  try {
    const [bx0, by0, bx1, by1] = page.getBounds();
    const stext = page.toStructuredText("preserve-whitespace,clip");
    let lines: StextLine[];
    try {
      const raw = process.env.QUIRE_PLAIN_WALK === "1" ? null : mupdfRaw();
      lines = (raw && rawLines(raw, stext)) || jsonLines(stext);
    } finally {
      stext.destroy();
    }
    const words: Word[] = [];
    let chars = 0;
    let lineId = 0;
    let sideways = 0;
    for (const line of lines) {
      const text = squeezeSpaces(line.text);
      if (!text) continue;
      lineId++;
      chars += text.length - spacesIn(text);
      if (line.wmode !== 0 || (line.dir && Math.abs(line.dir.y) > Math.abs(line.dir.x))) sideways += text.length;
      words.push({
        text,
        x0: line.bbox.x - bx0,
        y0: line.bbox.y - by0,
        x1: line.bbox.x + line.bbox.w - bx0,
        y1: line.bbox.y + line.bbox.h - by0,
        fontSize: line.font.size,
        fontName: line.font.name,
        bold: line.font.weight === "bold",
        italic: line.font.style === "italic",
        color: 0,
        lineId,
      });
    }
    if (chars < minTextLength || sideways * 2 > chars) return null;
    return { index, width: bx1 - bx0, height: by1 - by0, rotation: 0, words, rules: [] };
  } finally {
    page.destroy();
  }
}

/** /\s/ for one UTF-16 code unit (ECMAScript white space and line terminators). */
function isWhiteCode(u: number): boolean {
  if (u <= 0x20) return u === 0x20 || (u >= 0x09 && u <= 0x0d);
  if (u < 0xa0) return false;
  return u === 0xa0 || u === 0x1680 || (u >= 0x2000 && u <= 0x200a) || u === 0x2028 || u === 0x2029 || u === 0x202f || u === 0x205f || u === 0x3000 || u === 0xfeff;
}

/**
 * `t.replace(/\s+/g, " ").trim()`, without the two regular expressions for a line that has
 * nothing to change (single spaces between words: most lines).
 */
function squeezeSpaces(t: string): string {
  const last = t.length - 1;
  for (let i = 0; i <= last; i++) {
    const u = t.charCodeAt(i);
    if (u === 0x20 ? i === 0 || i === last || t.charCodeAt(i - 1) === 0x20 : isWhiteCode(u)) return t.replace(/\s+/g, " ").trim();
  }
  return t;
}

function spacesIn(t: string): number {
  let n = 0;
  for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) === 0x20) n++;
  return n;
}

/** The text lines of MuPDF's JSON output of the page. */
function jsonLines(stext: mupdf.StructuredText): StextLine[] {
  const json = JSON.parse(stext.asJSON()) as StextJson;
  return json.blocks.flatMap((b) => b.lines ?? []);
}

/**
 * The same lines as jsonLines, read from MuPDF's memory (lib/engine/pdf/mupdf-handle.ts):
 * printing and parsing the JSON cost more than making the structured text. Values as MuPDF's
 * JSON writer gives them: boxes and sizes cast to int, the font of the line's first character.
 * Null (the caller then takes the JSON) for what the JSON writer may print otherwise: a
 * character that is not a Unicode scalar value, a line without characters, a huge coordinate.
 */
function rawLines(M: MupdfRaw, stext: mupdf.StructuredText): StextLine[] | null {
  const out: StextLine[] = [];
  const fonts = new Map<number, StextLine["font"]>();
  const codes: number[] = [];
  const int = (v: number) => (Math.abs(v) < 2 ** 31 ? Math.trunc(v) : Number.NaN);
  let block = M._wasm_stext_page_get_first_block(stext.pointer as unknown as number);
  while (block) {
    if (M._wasm_stext_block_get_type(block) === 0) {
      let line = M._wasm_stext_block_get_first_line(block);
      while (line) {
        let ch = M._wasm_stext_line_get_first_char(line);
        if (!ch) return null;
        const fontPtr = M._wasm_stext_char_get_font(ch);
        const size = M._wasm_stext_char_get_size(ch);
        codes.length = 0;
        while (ch) {
          const c = M._wasm_stext_char_get_c(ch);
          if (c <= 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return null;
          codes.push(c);
          ch = M._wasm_stext_char_get_next(ch);
        }
        let text = "";
        for (let i = 0; i < codes.length; i += 2048) text += String.fromCodePoint(...codes.slice(i, i + 2048));
        const b = M._wasm_stext_line_get_bbox(line) >> 2;
        const F = M.HEAPF32;
        const x0 = F[b], y0 = F[b + 1], x1 = F[b + 2], y1 = F[b + 3];
        // C's float arithmetic: the width is a float before the cast.
        const bbox = { x: int(x0), y: int(y0), w: int(Math.fround(x1 - x0)), h: int(Math.fround(y1 - y0)) };
        if (Number.isNaN(bbox.x + bbox.y + bbox.w + bbox.h)) return null;
        let font = fonts.get(fontPtr);
        if (!font) {
          const f = new mupdf.Font(fontPtr as unknown as string);
          try {
            font = { name: f.getName(), weight: f.isBold() ? "bold" : "normal", style: f.isItalic() ? "italic" : "normal", size: 0 };
          } finally {
            f.destroy();
          }
          fonts.set(fontPtr, font);
        }
        out.push({ wmode: M._wasm_stext_line_get_wmode(line), bbox, font: { ...font, size: int(size) }, text });
        line = M._wasm_stext_line_get_next(line);
      }
    }
    block = M._wasm_stext_block_get_next(block);
  }
  return out;
}

/**
 * getPageTexts for plain-text output: the fast reading above where it serves, getPageTexts
 * (OCR, turning sideways pages) for the pages it does not and for images, an explicit rotation,
 * OCR modes other than Auto/Never and hidden-text filtering.
 */
export async function plainTextPages(bytes: Uint8Array, opts: PageTextsOptions): Promise<PageTextsResult> {
  const mode = opts.ocrMode ?? "Auto";
  const fast = sniffKind(bytes) === "pdf" && (mode === "Auto" || mode === "Never") && opts.rotation === undefined && opts.includeInvisible !== false;
  if (!fast) return getPageTexts(bytes, opts);
  parseLanguages(opts.lang); // a typo in lang is an error even when no page needs OCR
  const doc = opts.document ?? openPdf(bytes, opts.password);
  let pages: (PageText | null)[];
  let count: number;
  let indices: number[];
  try {
    count = doc.countPages();
    indices = opts.pageIndices ?? parsePages(opts.pages, count, 0);
    for (const i of indices) {
      if (!Number.isInteger(i) || i < 0 || i >= count) {
        throw new QuireError(449, `pages: page ${i} is past the last page (${count - 1}); the document has ${count} page(s).`);
      }
    }
    const min = mode === "Never" ? 0 : (opts.minTextLength ?? 8);
    pages = indices.map((i, n) => {
      const p = quickPageText(doc, i, min);
      opts.onProgress?.(n + 1, indices.length);
      return p;
    });
  } finally {
    if (!opts.document) doc.destroy();
  }
  const rest = indices.filter((_, n) => pages[n] === null);
  const deferred = opts.deferOcr ? { deferredPages: [] as number[] } : {};
  if (rest.length === 0) return { pages: pages as PageText[], pageCount: count, kind: "pdf", ocrPages: [], ...deferred };
  const slow = await getPageTexts(bytes, { ...opts, pageIndices: rest, onProgress: undefined });
  const byIndex = new Map(slow.pages.map((p) => [p.index, p]));
  return { pages: indices.map((i, n) => pages[n] ?? byIndex.get(i)!), pageCount: count, kind: "pdf", ocrPages: slow.ocrPages, ...(opts.deferOcr ? { deferredPages: slow.deferredPages ?? [] } : {}) };
}
