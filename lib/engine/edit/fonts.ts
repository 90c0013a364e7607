import "server-only";
import { existsSync } from "node:fs";
import * as mupdf from "mupdf";

/**
 * Fonts for added text. Latin-1/WinAnsi text uses the standard 14 fonts, referenced without
 * embedding (every viewer has them; MuPDF draws them with its metric-compatible Nimbus
 * faces). Other characters are drawn with embedded, subset fonts that MuPDF ships: the same
 * Nimbus face as a CID font (Latin Extended, Greek, Cyrillic), then Droid Sans Fallback
 * (Chinese, Japanese, Korean), then fonts found on the machine for other scripts. Characters no
 * font covers become "?" and are counted.
 */

export type Family = "Helvetica" | "Times" | "Courier";

export interface Face {
  family: Family;
  bold: boolean;
  italic: boolean;
}

const SERIF = /times|serif|georgia|garamond|cambria|book|palatino|minion|roman|baskerville|century|charis/;
const MONO = /courier|mono|consol|code|typewriter|lucida console|menlo|monaco|fixed/;

/**
 * Maps a font name to a standard family: Times New Roman/Georgia/… → Times, Courier New/Consolas/…
 * → Courier, everything else (Arial, Helvetica, Calibri, Verdana…) → Helvetica. "Bold"/"Italic"
 * in the name count like fontBold/fontItalic.
 */
export function resolveFace(fontName: string | undefined, bold: boolean, italic: boolean): Face {
  const name = (fontName ?? "").toLowerCase();
  const family: Family = MONO.test(name)
    ? "Courier"
    : SERIF.test(name) && !/sans/.test(name)
      ? "Times"
      : "Helvetica";
  return {
    family,
    bold: bold || /bold|black|heavy|semibold/.test(name),
    italic: italic || /italic|oblique/.test(name),
  };
}

/** The standard 14 font name of a face, e.g. Times-BoldItalic. */
function base14Name(f: Face): string {
  if (f.family === "Times")
    return f.bold && f.italic
      ? "Times-BoldItalic"
      : f.bold
        ? "Times-Bold"
        : f.italic
          ? "Times-Italic"
          : "Times-Roman";
  const suffix = f.bold && f.italic ? "-BoldOblique" : f.bold ? "-Bold" : f.italic ? "-Oblique" : "";
  return `${f.family}${suffix}`;
}

// Windows-1252 bytes 0x80..0x9F (WinAnsiEncoding, ISO 32000-1 Annex D).
// prettier-ignore
const WIN_ANSI_HIGH: Record<number, number> = {
  0x20ac: 0x80, 0x201a: 0x82, 0x0192: 0x83, 0x201e: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87,
  0x02c6: 0x88, 0x2030: 0x89, 0x0160: 0x8a, 0x2039: 0x8b, 0x0152: 0x8c, 0x017d: 0x8e, 0x2018: 0x91,
  0x2019: 0x92, 0x201c: 0x93, 0x201d: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02dc: 0x98,
  0x2122: 0x99, 0x0161: 0x9a, 0x203a: 0x9b, 0x0153: 0x9c, 0x017e: 0x9e, 0x0178: 0x9f,
};

/** The WinAnsi byte of a code point, or -1. */
export function winAnsiCode(cp: number): number {
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return WIN_ANSI_HIGH[cp] ?? -1;
}

/** Fonts on the machine tried last, for scripts MuPDF's built-in fonts lack (Arabic, Hebrew, Thai, Indic...). */
const SYSTEM_FALLBACKS = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
  "/usr/share/fonts/opentype/noto/NotoSans-Regular.ttf",
  "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
  "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
  "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf",
  "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
  "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
];

/** One font usable in content streams: a simple WinAnsi font or an embedded CID font. */
export interface FontHandle {
  key: string;
  kind: "simple" | "cid";
  font: mupdf.Font;
  /** The font's dictionary in the target document; set by FontBook.finalize(). */
  ref?: mupdf.PDFObject;
  /** CID fonts: glyphs used, for subsetting. */
  glyphs: Set<number>;
  /** Can be made bold/italic by the font itself (false: fallbacks, emboldened by stroking). */
  styled: boolean;
}

/** A piece of a line drawn with one font. */
export interface Run {
  font: FontHandle;
  /** Encoded for a content stream: a literal string (simple) or hex glyph ids (CID). */
  code: string;
  /** Advance width for size 1 (em units). */
  width: number;
  text: string;
}

export class FontBook {
  private handles = new Map<string, FontHandle>();
  private fallbacks: mupdf.Font[] | null = null;
  private cjk: mupdf.Font | null = null;
  /** Characters that no font could draw (shown as "?"). */
  missing = new Set<string>();

  constructor(private doc: mupdf.PDFDocument) {}

  private handle(key: string, kind: FontHandle["kind"], make: () => mupdf.Font, styled: boolean): FontHandle {
    let h = this.handles.get(key);
    if (!h) {
      h = { key, kind, font: make(), glyphs: new Set(), styled };
      this.handles.set(key, h);
    }
    return h;
  }

  private simple(face: Face): FontHandle {
    const name = base14Name(face);
    return this.handle(`simple:${name}`, "simple", () => new mupdf.Font(name), true);
  }

  private cidBase(face: Face): FontHandle {
    const name = base14Name(face);
    return this.handle(`cid:${name}`, "cid", () => new mupdf.Font(name), true);
  }

  private cjkFont(): FontHandle {
    return this.handle("cid:cjk", "cid", () => (this.cjk ??= new mupdf.Font("zh-Hans")), false);
  }

  private systemFonts(): mupdf.Font[] {
    if (!this.fallbacks) {
      this.fallbacks = [];
      for (const file of SYSTEM_FALLBACKS) {
        try {
          if (existsSync(file))
            this.fallbacks.push(new mupdf.Font(file.replace(/^.*\//, "").replace(/\.\w+$/, ""), file));
        } catch {
          /* an unreadable font file is skipped */
        }
      }
    }
    return this.fallbacks;
  }

  /** The font that draws code point `cp` in `face`, with the glyph or byte to use. */
  private pick(cp: number, face: Face): { h: FontHandle; glyph: number } | null {
    const byte = winAnsiCode(cp);
    if (byte >= 0) {
      const h = this.simple(face);
      return { h, glyph: byte };
    }
    const base = this.cidBase(face);
    let g = base.font.encodeCharacter(cp);
    if (g > 0) return { h: base, glyph: g };
    const cjk = this.cjkFont();
    g = cjk.font.encodeCharacter(cp);
    if (g > 0) return { h: cjk, glyph: g };
    for (const f of this.systemFonts()) {
      g = f.encodeCharacter(cp);
      if (g > 0) {
        const h = this.handle(`cid:sys:${f.getName()}`, "cid", () => f, false);
        return { h, glyph: g };
      }
    }
    return null;
  }

  /** Splits `text` (one line, no newlines) into runs of one font each. */
  runs(text: string, face: Face): Run[] {
    const out: Run[] = [];
    let cur: Run | null = null;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x20) continue; // control characters draw nothing
      let picked: { h: FontHandle; glyph: number } | null = this.pick(cp, face);
      // Keep spaces in the current run's font so runs do not fragment around them.
      if (cur && cp === 0x20 && cur.font.kind === "cid") {
        const g = cur.font.font.encodeCharacter(0x20);
        if (g > 0) picked = { h: cur.font, glyph: g };
      }
      let shown = ch;
      if (!picked) {
        this.missing.add(ch);
        picked = { h: this.simple(face), glyph: 0x3f }; // "?"
        shown = "?";
      }
      const h: FontHandle = picked.h;
      const glyph: number = picked.glyph;
      if (!cur || cur.font !== h) {
        cur = { font: h, code: "", width: 0, text: "" };
        out.push(cur);
      }
      if (h.kind === "simple") {
        cur.code += escapeByte(glyph);
        cur.width += h.font.advanceGlyph(h.font.encodeCharacter(byteToUnicode(glyph)));
      } else {
        h.glyphs.add(glyph);
        cur.code += glyph.toString(16).padStart(4, "0");
        cur.width += h.font.advanceGlyph(glyph);
      }
      cur.text += shown;
    }
    return out;
  }

  /** Width of `text` at size 1. */
  measure(text: string, face: Face): number {
    return this.runs(text, face).reduce((w, r) => w + r.width, 0);
  }

  /**
   * Creates the font objects in the document. CID fonts are embedded as subsets holding only
   * the glyphs used: built in a scratch document, subset there by MuPDF (glyph ids are kept),
   * then grafted in, so the document's own fonts are never touched.
   */
  finalize(): void {
    for (const h of this.handles.values()) {
      if (h.ref) continue;
      if (h.kind === "simple") {
        h.ref = this.doc.addSimpleFont(h.font, "Latin");
        continue;
      }
      const scratch = new mupdf.PDFDocument();
      try {
        const ref = scratch.addFont(h.font);
        const res = scratch.addObject(scratch.newDictionary());
        res.put("Font", scratch.newDictionary()).put("F", ref);
        const hex = [...h.glyphs].map((g) => g.toString(16).padStart(4, "0")).join("");
        scratch.insertPage(-1, scratch.addPage([0, 0, 100, 100], 0, res, `BT /F 1 Tf <${hex}> Tj ET`));
        scratch.subsetFonts();
        h.ref = this.doc.graftObject(ref);
      } finally {
        scratch.destroy();
      }
    }
  }
}

function byteToUnicode(b: number): number {
  if (b < 0x80 || b >= 0xa0) return b;
  for (const [cp, v] of Object.entries(WIN_ANSI_HIGH)) if (v === b) return Number(cp);
  return 0x3f;
}

/** One byte inside a PDF literal string. */
function escapeByte(b: number): string {
  if (b === 0x28 || b === 0x29 || b === 0x5c) return `\\${String.fromCharCode(b)}`;
  if (b < 0x20 || b > 0x7e) return `\\${b.toString(8).padStart(3, "0")}`;
  return String.fromCharCode(b);
}
