import "server-only";
import * as mupdf from "mupdf";
import { mupdfRaw, type MupdfRaw } from "@/lib/engine/pdf/mupdf-handle";
import { LayerWord, shiftCharBoxes } from "@/lib/engine/text/char-boxes";
import { rotatePageText } from "@/lib/engine/text/rotate";
import { rtlOrder } from "@/lib/engine/text/rtl-order";
import type { PageText, Rule, Word } from "@/lib/engine/text/types";
import { loadPdfPage } from "@/lib/engine/pdf/open-pdf";

/**
 * Word boxes and ruling lines of PDF pages, from MuPDF's structured text.
 *
 * Coordinates are PDF points in the page's displayed space (after /Rotate, top-left origin,
 * y downwards) — the same space MuPDF renders in, so boxes line up with rendered pixels.
 *
 * Words are runs of non-space characters inside one MuPDF line; a word also ends at a gap wider
 * than ~0.4 em without a space character (tables typeset with positioned glyphs). Characters of
 * right-to-left scripts are ordered right to left inside a word, so `text` reads correctly
 * (lib/engine/text/rtl-order.ts).
 */
export interface ExtractOptions {
  /** Collect ruling lines (stroked lines, thin filled rectangles, rectangle edges). Default false. */
  withRules?: boolean;
  /**
   * Keep text drawn invisibly (render mode 3, the text layer of OCRed scans). Default true:
   * for an OCRed scan that layer is the only text there is.
   */
  includeInvisible?: boolean;
  /** Drop a word whose box sits within ~1pt of an identical word (shadow or bold-by-overprint text). Default true. */
  dropShadowText?: boolean;
  /**
   * Turn the page so that most of its text reads left to right (content drawn sideways or
   * upside down on an unrotated page). Default false; the result's width/height follow the turn.
   */
  autoUpright?: boolean;
}

/** Clockwise quarter turns that bring a page's dominant text direction upright (see ExtractOptions.autoUpright). */
export const uprightTurns = new WeakMap<PageText, number>();

/** Extracts the positioned words (and optionally rules) of the given 0-based pages. */
export function extractPageTexts(
  doc: mupdf.PDFDocument | mupdf.Document,
  pageIndices: number[],
  opts: ExtractOptions = {},
): PageText[] {
  return pageIndices.map((i) => extractPageText(doc, i, opts));
}

/** One page of extractPageTexts. */
export function extractPageText(
  doc: mupdf.PDFDocument | mupdf.Document,
  index: number,
  opts: ExtractOptions = {},
): PageText {
  const page = loadPdfPage(doc, index);
  try {
    const [bx0, by0, bx1, by1] = page.getBounds();
    const rotation = pageRotation(page);
    const needDevice = opts.withRules === true || opts.includeInvisible === false;
    const dirs = [0, 0, 0, 0]; // characters per text direction: right, down, left, up
    let words: Word[];
    let rules: Rule[] = [];
    if (needDevice) {
      const list = page.toDisplayList(false);
      try {
        const collected = collectGraphics(list, opts.withRules === true, opts.includeInvisible === false);
        rules = collected.rules;
        const stext = list.toStructuredText(STEXT_OPTIONS);
        try {
          words = wordsFromStext(stext, collected.invisible, dirs);
        } finally {
          stext.destroy();
        }
      } finally {
        list.destroy();
      }
    } else {
      const stext = page.toStructuredText(STEXT_OPTIONS);
      try {
        words = wordsFromStext(stext, null, dirs);
      } finally {
        stext.destroy();
      }
    }
    // The page box may not start at 0,0 (a cropped page): move everything to a 0-based origin.
    if (bx0 !== 0 || by0 !== 0) {
      for (const w of words) {
        w.x0 -= bx0;
        w.x1 -= bx0;
        w.y0 -= by0;
        w.y1 -= by0;
        shiftCharBoxes(w, bx0);
      }
      for (const r of rules) {
        r.x0 -= bx0;
        r.x1 -= bx0;
        r.y0 -= by0;
        r.y1 -= by0;
      }
    }
    if (opts.dropShadowText !== false) words = dropShadows(words);
    const result: PageText = { index, width: bx1 - bx0, height: by1 - by0, rotation, words, rules };
    if (opts.autoUpright) {
      const total = dirs[0] + dirs[1] + dirs[2] + dirs[3];
      const best = dirs.indexOf(Math.max(...dirs));
      // Text running down needs 3 clockwise turns, leftwards 2, up 1.
      const turns = [0, 3, 2, 1][best];
      if (turns && dirs[best] > 0.6 * total) {
        const turned = rotatePageText(result, turns);
        uprightTurns.set(turned, turns);
        return turned;
      }
    }
    return result;
  } finally {
    page.destroy();
  }
}

/** Ligatures are expanded so "ﬁ" matches "fi"; whitespace is kept to find word ends. */
const STEXT_OPTIONS = "preserve-whitespace,clip";

function pageRotation(page: mupdf.Page): number {
  if (page instanceof mupdf.PDFPage) {
    try {
      const r = page.getObject().getInheritable("Rotate");
      const n = r.isNumber() ? r.asNumber() : 0;
      return (((Math.round(n / 90) * 90) % 360) + 360) % 360;
    } catch {
      return 0;
    }
  }
  return 0;
}

interface FontInfo {
  name: string;
  bold: boolean;
  italic: boolean;
}

/** Whether a UTF-16 code unit is a right-to-left letter (Hebrew, Arabic, Syriac, Thaana, NKo…, presentation forms). */
function isRtlCode(u: number): boolean {
  return (u >= 0x0590 && u <= 0x08ff) || (u >= 0xfb1d && u <= 0xfdff) || (u >= 0xfe70 && u <= 0xfeff);
}

/** /\s/ (ECMAScript white space and line terminators) or a no-break space, for one UTF-16 code unit. */
function isSpaceCode(u: number): boolean {
  if (u <= 0x20) return u === 0x20 || (u >= 0x09 && u <= 0x0d);
  if (u < 0xa0) return false;
  return u === 0xa0 || u === 0x1680 || (u >= 0x2000 && u <= 0x200a) || u === 0x2028 || u === 0x2029 || u === 0x202f || u === 0x205f || u === 0x3000 || u === 0xfeff;
}

/**
 * The characters of the word being built, in reusable typed arrays (one page has thousands of
 * words: no object per character). Grown on demand; a word longer than this is rare.
 */
let codeBuf = new Uint16Array(256);
let boxBuf = new Float64Array(256 * 4);

function growCharBuffers(): void {
  const codes = new Uint16Array(codeBuf.length * 2);
  codes.set(codeBuf);
  const boxes = new Float64Array(boxBuf.length * 2);
  boxes.set(boxBuf);
  codeBuf = codes;
  boxBuf = boxes;
}

/**
 * The text of n UTF-16 code units (fromCharCode in slices: no argument-count limit). Short
 * words (most of them) pass their codes as arguments: no subarray and no apply per word.
 */
function textOf(codes: Uint16Array, n: number): string {
  const c = codes;
  switch (n) {
    case 1:
      return String.fromCharCode(c[0]);
    case 2:
      return String.fromCharCode(c[0], c[1]);
    case 3:
      return String.fromCharCode(c[0], c[1], c[2]);
    case 4:
      return String.fromCharCode(c[0], c[1], c[2], c[3]);
    case 5:
      return String.fromCharCode(c[0], c[1], c[2], c[3], c[4]);
    case 6:
      return String.fromCharCode(c[0], c[1], c[2], c[3], c[4], c[5]);
    case 7:
      return String.fromCharCode(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
    case 8:
      return String.fromCharCode(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
  }
  let s = "";
  for (let i = 0; i < n; i += 2048) s += String.fromCharCode.apply(null, codes.subarray(i, Math.min(n, i + 2048)) as unknown as number[]);
  return s;
}

/** Floats per shared character-box array (two per character: a few pages' worth). */
const BOX_CHUNK = 16384;

function wordsFromStext(stext: mupdf.StructuredText, invisible: Set<string> | null, dirs: number[]): Word[] {
  const words: Word[] = [];
  const fonts = new Map<number, FontInfo>();
  let lineId = -1;
  let lineDir = 0;
  let n = 0; // characters of the current word
  let rtlCount = 0;
  let font: FontInfo | null = null;
  let size = 0;
  let color = 0;
  let lastX0 = Number.NaN;
  let lastX1 = Number.NaN;
  let boxStore = new Float32Array(0);
  let boxUsed = 0;

  const flush = () => {
    if (n === 0) return;
    const codes = codeBuf;
    const b = boxBuf;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0, k = 0; i < n; i++, k += 4) {
      if (b[k] < x0) x0 = b[k];
      if (b[k + 1] < y0) y0 = b[k + 1];
      if (b[k + 2] > x1) x1 = b[k + 2];
      if (b[k + 3] > y1) y1 = b[k + 3];
    }
    let text: string;
    let ltr = false;
    if (rtlCount * 2 > n) {
      // Right-to-left: the reading order is by decreasing position along the line, whatever
      // order the PDF drew them in; characters without a box keep to their glyph (rtl-order.ts).
      text = rtlOrder(b, n, lineDir).map((i) => String.fromCharCode(codes[i])).join("");
    } else {
      text = textOf(codes, n);
      ltr = true;
    }
    // Character boxes let table analysis cut a word that runs across a cell border: in the
    // page's shared arrays (see LayerWord), a new one when the current one is full.
    let at = 0;
    let boxes: Float32Array | undefined;
    if (ltr && n > 1) {
      if (boxUsed + 2 * n > boxStore.length) {
        boxStore = new Float32Array(Math.max(BOX_CHUNK, 2 * n));
        boxUsed = 0;
      }
      boxes = boxStore;
      at = boxUsed;
      for (let i = 0; i < n; i++) {
        boxes[at + 2 * i] = b[4 * i];
        boxes[at + 2 * i + 1] = b[4 * i + 2];
      }
      boxUsed += 2 * n;
    }
    words.push(new LayerWord(text, x0, y0, x1, y1, round2(size), font?.name ?? "", font?.bold ?? false, font?.italic ?? false, color, lineId, boxes, at, n));
    n = 0;
    rtlCount = 0;
  };

  const beginLine = (d0: number, d1: number) => {
    flush();
    lineId++;
    lineDir = Math.abs(d0) >= Math.abs(d1) ? (d0 >= 0 ? 0 : 2) : d1 >= 0 ? 1 : 3;
    lastX1 = Number.NaN;
  };
  /** One character; `code` is a UTF-16 code unit (MuPDF's rune cut to 16 bits, as String.fromCharCode does). */
  const onChar = (code: number, ox: number, oy: number, fontKey: number, f: mupdf.Font | null, sz: number, x0: number, y0: number, x1: number, y1: number, rgbInt: number) => {
    if (isSpaceCode(code)) {
      flush();
      lastX1 = Number.NaN;
      return;
    }
    if (invisible && invisible.has(originKey(ox, oy))) return;
    if (n > 0) {
      // A wide gap without a space, or a change of colour, starts a new word.
      // Distance between the boxes along x, whichever way the text runs (RTL runs leftwards).
      const gap = Math.max(x0 - lastX1, lastX0 - x1);
      if (gap > 0.4 * Math.max(sz, size) || rgbInt !== color) flush();
    }
    if (n === 0) {
      font = fontInfo(fontKey, f, fonts);
      size = sz;
      color = rgbInt;
    }
    if (n === codeBuf.length) growCharBuffers();
    codeBuf[n] = code;
    const k = 4 * n;
    boxBuf[k] = x0;
    boxBuf[k + 1] = y0;
    boxBuf[k + 2] = x1;
    boxBuf[k + 3] = y1;
    if (isRtlCode(code)) rtlCount++;
    n++;
    dirs[lineDir]++;
    lastX0 = x0;
    lastX1 = x1;
  };

  const raw = process.env.QUIRE_PLAIN_WALK === "1" ? null : mupdfRaw();
  if (!raw || !walkRaw(raw, stext, beginLine, onChar, flush)) {
    walkChars(stext, {
      beginLine(_bbox, _wmode, dir) {
        beginLine(dir[0], dir[1]);
      },
      onChar(c, origin, f, sz, quad, rgb) {
        const rgbInt = (Math.round((rgb[0] ?? 0) * 255) << 16) | (Math.round((rgb[1] ?? 0) * 255) << 8) | Math.round((rgb[2] ?? 0) * 255);
        onChar(
          c.charCodeAt(0),
          origin[0],
          origin[1],
          f.pointer as unknown as number,
          f,
          sz,
          Math.min(quad[0], quad[2], quad[4], quad[6]),
          Math.min(quad[1], quad[3], quad[5], quad[7]),
          Math.max(quad[0], quad[2], quad[4], quad[6]),
          Math.max(quad[1], quad[3], quad[5], quad[7]),
          rgbInt,
        );
      },
      endLine() {
        flush();
      },
    });
  }
  flush();
  return words;
}

/**
 * StructuredText.walk, minus its per-character cost: MuPDF.js wraps each character's font in a
 * new Font (a reference plus a FinalizationRegistry entry), which made a third of the time of
 * text extraction and most of its garbage. During the (synchronous) walk those wrappers are
 * recorded instead of registered, and their references are released right after it, so no
 * finalizer ever runs for them. The wrappers must not outlive the walk (fontInfo keeps only
 * plain data). Falls back to the plain walk when MuPDF.js's internals are not as expected.
 */
type FontStatics = { _finalizer?: unknown; _drop?: (ptr: number) => void };
export function walkChars(stext: mupdf.StructuredText, walker: Parameters<mupdf.StructuredText["walk"]>[0]): void {
  const F = mupdf.Font as unknown as FontStatics;
  const drop = F._drop;
  if (process.env.QUIRE_PLAIN_WALK === "1" || typeof drop !== "function" || !Object.prototype.hasOwnProperty.call(F, "_drop")) {
    stext.walk(walker);
    return;
  }
  const had = Object.prototype.hasOwnProperty.call(F, "_finalizer");
  const saved = F._finalizer;
  const held: number[] = [];
  F._finalizer = {
    register(_o: unknown, ptr: number) {
      held.push(ptr);
    },
    unregister() {},
  };
  try {
    stext.walk(walker);
  } finally {
    if (had) F._finalizer = saved;
    else delete F._finalizer;
    for (const ptr of held) drop(ptr);
  }
}

/**
 * Byte offsets of the fields of MuPDF's fz_stext_char (include/mupdf/fitz/structured-text.h:
 * c, bidi, flags, argb, origin, quad, size, font, next), found from the accessor functions and
 * checked against them on the first character of every page; null when they do not agree (a
 * MuPDF.js whose layout differs), and the walk then calls the accessors per character.
 */
interface CharLayout {
  origin: number;
  quad: number;
}

function charLayout(M: MupdfRaw, ch: number): CharLayout | null {
  const origin = M._wasm_stext_char_get_origin(ch) - ch;
  const quad = M._wasm_stext_char_get_quad(ch) - ch;
  if (origin !== 12 || quad !== 20) return null;
  const I = M.HEAP32;
  const U = M.HEAPU32;
  const F = M.HEAPF32;
  const ok =
    I[ch >> 2] === M._wasm_stext_char_get_c(ch) &&
    U[(ch + 8) >> 2] === M._wasm_stext_char_get_argb(ch) >>> 0 &&
    F[(ch + 52) >> 2] === M._wasm_stext_char_get_size(ch) &&
    U[(ch + 56) >> 2] === M._wasm_stext_char_get_font(ch) >>> 0 &&
    U[(ch + 60) >> 2] === M._wasm_stext_char_get_next(ch) >>> 0;
  return ok ? { origin, quad } : null;
}

/**
 * The structured text's lines and characters straight from MuPDF's memory (see
 * lib/engine/pdf/mupdf-handle.ts): the same values StructuredText.walk hands out, without its
 * wrapper objects and arrays per character, and without a call into WASM per field. Text
 * blocks only, in MuPDF's order. False (nothing walked) when the character layout is not the
 * expected one.
 */
function walkRaw(
  M: MupdfRaw,
  stext: mupdf.StructuredText,
  beginLine: (d0: number, d1: number) => void,
  onChar: (code: number, ox: number, oy: number, fontKey: number, f: mupdf.Font | null, sz: number, x0: number, y0: number, x1: number, y1: number, rgbInt: number) => void,
  endLine: () => void,
): boolean {
  let checked = false;
  let block = M._wasm_stext_page_get_first_block(stext.pointer as unknown as number);
  while (block) {
    if (M._wasm_stext_block_get_type(block) === 0) {
      let line = M._wasm_stext_block_get_first_line(block);
      while (line) {
        let ch = M._wasm_stext_line_get_first_char(line);
        if (!checked && ch) {
          if (!charLayout(M, ch)) return false;
          checked = true;
        }
        const a = M._wasm_stext_line_get_dir(line) >> 2;
        beginLine(M.HEAPF32[a], M.HEAPF32[a + 1]);
        while (ch) {
          // Views are read per character: a font looked up in onChar may grow WASM memory.
          const F = M.HEAPF32;
          const U = M.HEAPU32;
          const p = ch >> 2;
          const q0 = F[p + 5], q1 = F[p + 6], q2 = F[p + 7], q3 = F[p + 8], q4 = F[p + 9], q5 = F[p + 10], q6 = F[p + 11], q7 = F[p + 12];
          const next = U[p + 15];
          onChar(
            M.HEAP32[p] & 0xffff,
            F[p + 3],
            F[p + 4],
            U[p + 14],
            null,
            F[p + 13],
            Math.min(q0, q2, q4, q6),
            Math.min(q1, q3, q5, q7),
            Math.max(q0, q2, q4, q6),
            Math.max(q1, q3, q5, q7),
            U[p + 2] & 0xffffff,
          );
          ch = next;
        }
        endLine();
        line = M._wasm_stext_line_get_next(line);
      }
    }
    block = M._wasm_stext_block_get_next(block);
  }
  return true;
}

/** Font facts by font pointer; `f` is the walk's wrapper, or null to make (and drop) one on a miss. */
function fontInfo(key: number, f: mupdf.Font | null, cache: Map<number, FontInfo>): FontInfo {
  let info = cache.get(key);
  if (!info) {
    const own = f ?? new mupdf.Font(key as unknown as string);
    try {
      info = fontFacts(own);
    } finally {
      if (!f) own.destroy();
    }
    cache.set(key, info);
  }
  return info;
}

function fontFacts(f: mupdf.Font): FontInfo {
  const name = f.getName().replace(/^[A-Z]{6}\+/, "");
  return {
    name,
    bold: f.isBold() || /bold|black|heavy|semibold|demi/i.test(name),
    italic: f.isItalic() || /italic|oblique/i.test(name),
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function originKey(x: number, y: number): string {
  return `${Math.round(x * 2)},${Math.round(y * 2)}`;
}

/**
 * Shadow text: the same word drawn twice, offset by a point or so (a drop shadow or fake bold).
 * Keeping one copy avoids doubled cells. Words are compared within the same line only.
 */
function dropShadows(words: Word[]): Word[] {
  if (words.length < 2) return words;
  // Most texts occur once on a page: the first word of a text is kept alone, a list is made
  // only for a text seen again.
  const byText = new Map<string, Word | Word[]>();
  const out: Word[] = [];
  for (const w of words) {
    const same = byText.get(w.text);
    if (same === undefined) {
      byText.set(w.text, w);
      out.push(w);
      continue;
    }
    const tol = Math.max(1.2, w.fontSize * 0.12);
    if (Array.isArray(same)) {
      if (same.some((o) => shadowOf(o, w, tol))) continue;
      same.push(w);
    } else {
      if (shadowOf(same, w, tol)) continue;
      byText.set(w.text, [same, w]);
    }
    out.push(w);
  }
  return out.length === words.length ? words : out;
}

function shadowOf(o: Word, w: Word, tol: number): boolean {
  return Math.abs(o.x0 - w.x0) <= tol && Math.abs(o.y0 - w.y0) <= tol && Math.abs(o.x1 - w.x1) <= tol;
}

// ---------------------------------------------------------------------------------------------
// Ruling lines and invisible text, from one pass of a custom device over the display list.

type M6 = [number, number, number, number, number, number];

function apply(m: M6, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** Lines thicker than this (pt) are filled areas, not rules; their edges still count. */
const THIN = 3;

function collectGraphics(
  list: mupdf.DisplayList,
  wantRules: boolean,
  wantInvisible: boolean,
): { rules: Rule[]; invisible: Set<string> | null } {
  const rules: Rule[] = [];
  const invisible = wantInvisible ? new Set<string>() : null;
  const [px0, py0, px1, py1] = list.getBounds();
  const pageArea = (px1 - px0) * (py1 - py0);

  const addSegment = (ax: number, ay: number, bx: number, by: number) => {
    const dx = Math.abs(bx - ax);
    const dy = Math.abs(by - ay);
    if (dx < 0.5 && dy < 0.5) return;
    // Keep horizontal and vertical segments only (tolerating a slight skew).
    if (dy <= Math.max(0.8, dx * 0.02)) {
      const y = (ay + by) / 2;
      rules.push({ x0: Math.min(ax, bx), y0: y, x1: Math.max(ax, bx), y1: y });
    } else if (dx <= Math.max(0.8, dy * 0.02)) {
      const x = (ax + bx) / 2;
      rules.push({ x0: x, y0: Math.min(ay, by), x1: x, y1: Math.max(ay, by) });
    }
  };

  const addRect = (x0: number, y0: number, x1: number, y1: number, filled: boolean) => {
    const w = x1 - x0;
    const h = y1 - y0;
    if (filled && w * h > pageArea * 0.6) return; // a page background
    if (filled && h <= THIN && w > h) addSegment(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2);
    else if (filled && w <= THIN && h > w) addSegment((x0 + x1) / 2, y0, (x0 + x1) / 2, y1);
    else if (filled && (w < 12 || h < 6)) {
      // Small filled shapes (bullets, glyphs drawn as vectors, chart bars' dots) are not borders.
    } else {
      addSegment(x0, y0, x1, y0);
      addSegment(x0, y1, x1, y1);
      addSegment(x0, y0, x0, y1);
      addSegment(x1, y0, x1, y1);
    }
  };

  const walkPath = (walk: (points: PathPoints) => void, ctm: M6, filled: boolean) => {
    // Collect subpaths as point lists; an axis-aligned 4-corner closed subpath is a rectangle.
    const pp = pathPoints;
    pp.reset(ctm);
    walk(pp);
    pp.end();
    if (pp.curved && !filled) return; // rounded shapes, charts: not table rules
    const { xs, ys, subs } = pp;
    for (let s = 0; s < pp.nSubs; s++) {
      const from = subs[2 * s];
      const to = subs[2 * s + 1];
      if (rectOf(xs, ys, from, to, rectBuf)) {
        addRect(rectBuf[0], rectBuf[1], rectBuf[2], rectBuf[3], filled);
      } else if (!filled) {
        for (let i = from + 1; i < to; i++) addSegment(xs[i - 1], ys[i - 1], xs[i], ys[i]);
      }
    }
  };
  const rectBuf = new Float64Array(4);
  /** MuPDF.js's path walk fed into the point lists. */
  const walkOf = (path: mupdf.Path) => (pp: PathPoints) =>
    path.walk({
      moveTo: (x, y) => pp.moveTo(x, y),
      lineTo: (x, y) => pp.lineTo(x, y),
      curveTo: (_a, _b, _c, _d, x, y) => pp.curveTo(x, y),
      closePath: () => pp.closePath(),
    });

  // Every wrapper MuPDF.js hands to a device callback must be destroyed before the callback
  // returns: paths recorded in a display list live inside the list's memory, and a finalizer
  // dropping them after the list is gone corrupts the WASM heap.
  const callbacks: DeviceCallbacks = {
    fillPath(path, _eo, ctm, cs, color, alpha) {
      try {
        if (!wantRules || alpha === 0) return;
        // White fills are usually cell backgrounds or erasers, not lines.
        if (color.length >= 3 && color.every((c) => c > 0.97)) return;
        if (color.length === 1 && color[0] > 0.97) return;
        walkPath(walkOf(path), ctm as M6, true);
      } finally {
        path.destroy();
        cs.destroy();
      }
    },
    strokePath(path, stroke, ctm, cs, color, alpha) {
      try {
        if (!wantRules || alpha === 0) return;
        if (color.length >= 3 && color.every((c) => c > 0.97)) return;
        walkPath(walkOf(path), ctm as M6, false);
      } finally {
        path.destroy();
        stroke.destroy();
        cs.destroy();
      }
    },
    ignoreText(text, ctm) {
      try {
        if (!invisible) return;
        text.walk({
          showGlyph(_f, trm) {
            const [x, y] = apply(ctm as M6, trm[4], trm[5]);
            invisible.add(originKey(x, y));
          },
        });
      } finally {
        text.destroy();
      }
    },
  };
  // Callbacks left undefined cost nothing (MuPDF.js then creates no wrappers).
  if (!wantInvisible) delete callbacks.ignoreText;
  if (!wantRules) {
    delete callbacks.fillPath;
    delete callbacks.strokePath;
  }
  const device = new mupdf.Device(callbacks);
  try {
    // Every wrapper the callbacks get is destroyed in them: no finalizer entry is needed.
    const run = () => list.run(device, mupdf.Matrix.identity);
    withoutFinalizers([mupdf.Path, mupdf.ColorSpace, mupdf.StrokeState, mupdf.Text], () =>
      wantRules ? withRawPaths(walkPath, run) : run(),
    );
    device.close();
  } finally {
    device.destroy();
  }
  return { rules: wantRules ? mergeRules(rules) : rules, invisible };
}

/** MuPDF.js's dispatchers, which its WASM code calls for a JS device's paths and for a path walk. */
type Dispatch = Record<string, (...args: number[]) => void>;

/**
 * Runs `fn` (a synchronous device run) with the device's fillPath/strokePath served straight
 * from MuPDF's memory: MuPDF.js's dispatchers make three wrapper objects (path, colour space,
 * stroke), two arrays and a path table entry for each path, most of the time of ruling-line
 * detection on a page of table borders. During the run (synchronous: no other device can be
 * called) its dispatchers for fill_path, stroke_path and the path walk are swapped for ones that
 * read the matrix and colour from memory and walk the path by pointer into one reused
 * PathPoints, with the same checks as the callbacks (alpha, white) and the same `walkPath`. Plain `fn` when MuPDF.js's internals are
 * not as expected (or QUIRE_PLAIN_WALK=1).
 */
function withRawPaths(
  walkPath: (walk: (points: PathPoints) => void, ctm: M6, filled: boolean) => void,
  fn: () => void,
): void {
  const g = globalThis as { $libmupdf_device?: Dispatch; $libmupdf_path_walk?: Dispatch };
  const D = g.$libmupdf_device;
  const P = g.$libmupdf_path_walk;
  const M = process.env.QUIRE_PLAIN_WALK === "1" ? null : mupdfRaw();
  const walkFn = (M as unknown as { _wasm_walk_path?: (path: number, id: number) => void } | null)?._wasm_walk_path;
  const names = ["fill_path", "stroke_path", "moveto", "lineto", "curveto", "closepath"];
  if (!M || !D || !P || typeof walkFn !== "function" || !names.every((k) => typeof (k.endsWith("_path") ? D[k] : P[k]) === "function")) {
    fn();
    return;
  }
  // One matrix and one walk target, reused: the run is synchronous and paths do not nest.
  const ctmOf = new Array<number>(6) as M6;
  const readCtm = (ptr: number) => {
    const F = M.HEAPF32;
    const at = ptr >> 2;
    for (let i = 0; i < 6; i++) ctmOf[i] = F[at + i];
    return ctmOf;
  };
  /** White (every component above 0.97, gray or 3+ components), read in place. */
  const isWhite = (colors: number, n: number) => {
    if (n !== 1 && n < 3) return false;
    const F = M.HEAPF32;
    const at = colors >> 2;
    for (let i = 0; i < n; i++) if (!(F[at + i] > 0.97)) return false;
    return true;
  };
  let target: PathPoints | null = null;
  let current = 0;
  const byPointer = (pp: PathPoints) => {
    target = pp;
    try {
      walkFn(current, 0);
    } finally {
      target = null;
    }
  };
  const saved = { fill: D.fill_path, stroke: D.stroke_path, moveto: P.moveto, lineto: P.lineto, curveto: P.curveto, closepath: P.closepath };
  D.fill_path = (_id, path, _evenOdd, ctm, _cs, n, colors, alpha) => {
    if (alpha === 0) return;
    // White fills are usually cell backgrounds or erasers, not lines.
    if (isWhite(colors, n)) return;
    current = path;
    walkPath(byPointer, readCtm(ctm), true);
  };
  D.stroke_path = (_id, path, _stroke, ctm, _cs, n, colors, alpha) => {
    if (alpha === 0) return;
    if (n >= 3 && isWhite(colors, n)) return;
    current = path;
    walkPath(byPointer, readCtm(ctm), false);
  };
  P.moveto = (_id, x, y) => target?.moveTo(x, y);
  P.lineto = (_id, x, y) => target?.lineTo(x, y);
  P.curveto = (_id, _x1, _y1, _x2, _y2, x3, y3) => target?.curveTo(x3, y3);
  P.closepath = () => target?.closePath();
  try {
    fn();
  } finally {
    D.fill_path = saved.fill;
    D.stroke_path = saved.stroke;
    P.moveto = saved.moveto;
    P.lineto = saved.lineto;
    P.curveto = saved.curveto;
    P.closepath = saved.closepath;
  }
}

/**
 * Runs `fn` (synchronous) with MuPDF.js's finalizer registration switched off for the wrapper
 * classes given: each wrapper MuPDF.js makes costs a FinalizationRegistry entry (and its
 * removal), a large share of a device run over a page of table borders. Only for code that
 * destroys every wrapper of those classes it is handed before returning (a destroyed wrapper
 * needs no finalizer); wrappers that would outlive it must not be made inside.
 */
function withoutFinalizers(classes: unknown[], fn: () => void): void {
  const noop = { register() {}, unregister() {} };
  const saved = classes.map((c) => {
    const k = c as { _finalizer?: unknown };
    const own = Object.prototype.hasOwnProperty.call(k, "_finalizer");
    const before = { k, own, value: k._finalizer };
    k._finalizer = noop;
    return before;
  });
  try {
    fn();
  } finally {
    for (const { k, own, value } of saved) {
      if (own) k._finalizer = value;
      else delete k._finalizer;
    }
  }
}

/** The part of MuPDF.js's (unexported) DeviceFunctions used here. */
interface DeviceCallbacks {
  fillPath?(path: mupdf.Path, evenOdd: boolean, ctm: mupdf.Matrix, cs: mupdf.ColorSpace, color: number[], alpha: number): void;
  strokePath?(path: mupdf.Path, stroke: mupdf.StrokeState, ctm: mupdf.Matrix, cs: mupdf.ColorSpace, color: number[], alpha: number): void;
  ignoreText?(text: mupdf.Text, ctm: mupdf.Matrix): void;
}

/**
 * The points of one path's subpaths (in page space), in flat arrays reused from path to path:
 * a page of table borders has thousands of paths. `subs` holds [from, to) point ranges of the
 * subpaths kept (two points or more), as the walk of MuPDF.js's path gives them: a close adds
 * the start point and the next subpath starts there again.
 */
class PathPoints {
  xs = new Float64Array(64);
  ys = new Float64Array(64);
  n = 0;
  subs = new Int32Array(32);
  nSubs = 0;
  curved = false;
  private from = 0;
  private hasStart = false;
  private sx = 0;
  private sy = 0;
  private m: M6 = [1, 0, 0, 1, 0, 0];

  reset(m: M6): void {
    this.m = m;
    this.n = 0;
    this.nSubs = 0;
    this.from = 0;
    this.hasStart = false;
    this.curved = false;
  }

  private push(x: number, y: number): void {
    if (this.n === this.xs.length) {
      const xs = new Float64Array(this.n * 2);
      xs.set(this.xs);
      const ys = new Float64Array(this.n * 2);
      ys.set(this.ys);
      this.xs = xs;
      this.ys = ys;
    }
    this.xs[this.n] = x;
    this.ys[this.n] = y;
    this.n++;
  }

  private pushPage(x: number, y: number): void {
    const m = this.m;
    this.push(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
  }

  /** Ends the current subpath: kept with two points or more, else its points are dropped. */
  private cut(): void {
    if (this.n - this.from > 1) {
      if (2 * this.nSubs + 2 > this.subs.length) {
        const subs = new Int32Array(this.subs.length * 2);
        subs.set(this.subs);
        this.subs = subs;
      }
      this.subs[2 * this.nSubs] = this.from;
      this.subs[2 * this.nSubs + 1] = this.n;
      this.nSubs++;
    } else {
      this.n = this.from;
    }
    this.from = this.n;
  }

  moveTo(x: number, y: number): void {
    this.cut();
    const m = this.m;
    this.sx = m[0] * x + m[2] * y + m[4];
    this.sy = m[1] * x + m[3] * y + m[5];
    this.hasStart = true;
    this.push(this.sx, this.sy);
  }

  lineTo(x: number, y: number): void {
    this.pushPage(x, y);
  }

  curveTo(x: number, y: number): void {
    this.curved = true;
    this.pushPage(x, y);
  }

  closePath(): void {
    if (this.hasStart) this.push(this.sx, this.sy);
    this.cut();
    if (this.hasStart) this.push(this.sx, this.sy);
  }

  end(): void {
    this.cut();
  }
}

const pathPoints = new PathPoints();

/**
 * Whether points [from, to) are an axis-aligned rectangle: 4 corners, or 5 with the last back
 * on the first (closed); its box goes to `out` (x0, y0, x1, y1).
 */
function rectOf(xs: Float64Array, ys: Float64Array, from: number, to: number, out: Float64Array): boolean {
  let n = to - from;
  if (n === 5 && Math.abs(xs[from] - xs[from + 4]) < 0.5 && Math.abs(ys[from] - ys[from + 4]) < 0.5) n = 4;
  if (n !== 4) return false;
  for (let i = 0; i < 4; i++) {
    const a = from + i;
    const b = from + ((i + 1) % 4);
    if (Math.abs(xs[a] - xs[b]) > 0.5 && Math.abs(ys[a] - ys[b]) > 0.5) return false;
  }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = from; i < from + 4; i++) {
    if (xs[i] < x0) x0 = xs[i];
    if (xs[i] > x1) x1 = xs[i];
    if (ys[i] < y0) y0 = ys[i];
    if (ys[i] > y1) y1 = ys[i];
  }
  out[0] = x0;
  out[1] = y0;
  out[2] = x1;
  out[3] = y1;
  return true;
}

/**
 * Joins collinear rules that touch or overlap (a border drawn cell by cell becomes one line),
 * so table detection sees whole lines. Exported for the table engine's tests.
 */
export function mergeRules(rules: Rule[], tol = 1.5): Rule[] {
  const horiz = rules.filter((r) => r.y1 - r.y0 < r.x1 - r.x0 || (r.x1 - r.x0 === 0 && r.y1 - r.y0 === 0));
  const vert = rules.filter((r) => !(r.y1 - r.y0 < r.x1 - r.x0 || (r.x1 - r.x0 === 0 && r.y1 - r.y0 === 0)));
  const merge = (items: Rule[], horizontal: boolean): Rule[] => {
    const key = (r: Rule) => (horizontal ? (r.y0 + r.y1) / 2 : (r.x0 + r.x1) / 2);
    const lo = (r: Rule) => (horizontal ? r.x0 : r.y0);
    const hi = (r: Rule) => (horizontal ? r.x1 : r.y1);
    items.sort((a, b) => key(a) - key(b) || lo(a) - lo(b));
    const out: Rule[] = [];
    // Group by position (within tol), then sweep along the line.
    let i = 0;
    while (i < items.length) {
      let j = i + 1;
      while (j < items.length && key(items[j]) - key(items[j - 1]) <= tol * 0.5) j++;
      const group = items.slice(i, j).sort((a, b) => lo(a) - lo(b));
      const pos = group.reduce((s, r) => s + key(r), 0) / group.length;
      let a = lo(group[0]);
      let b = hi(group[0]);
      for (let k = 1; k < group.length; k++) {
        if (lo(group[k]) <= b + tol) b = Math.max(b, hi(group[k]));
        else {
          out.push(horizontal ? { x0: a, y0: pos, x1: b, y1: pos } : { x0: pos, y0: a, x1: pos, y1: b });
          a = lo(group[k]);
          b = hi(group[k]);
        }
      }
      out.push(horizontal ? { x0: a, y0: pos, x1: b, y1: pos } : { x0: pos, y0: a, x1: pos, y1: b });
      i = j;
    }
    return out;
  };
  return [...merge(horiz, true), ...merge(vert, false)];
}
