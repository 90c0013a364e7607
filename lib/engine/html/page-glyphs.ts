import "server-only";
import * as mupdf from "mupdf";

/**
 * The glyphs a PDF page draws, as MuPDF's interpreter shows them: font, glyph id, the Unicode
 * text MuPDF gives it (ToUnicode, encodings), the pen position and the glyph's matrix in the
 * page's displayed space (points, top-left origin, after RotationAngle). PDF → HTML positions
 * its text runs from these and builds the web fonts from the glyphs used.
 */
export interface Glyph {
  /** Index in the FontTable. */
  font: number;
  gid: number;
  /** Unicode text (several characters for a ligature; "" when the PDF gives none). */
  text: string;
  /** Pen position (baseline start). */
  x: number;
  y: number;
  /** Linear part of the glyph matrix: (a, b) the em's x axis, (c, d) its y axis (upwards), in points. */
  a: number;
  b: number;
  c: number;
  d: number;
  kind: "fill" | "stroke" | "invisible";
  /** Index among the page's filled and stroked glyph items (see glyphFilter); -1 for invisible text. */
  seq: number;
  wmode: number;
}

export interface FontEntry {
  font: mupdf.Font;
  /** Name without a subset prefix. */
  name: string;
  /** Glyph id → the texts it was shown with. */
  uses: Map<number, Set<string>>;
  advances: Map<number, number>;
  /** Pen advances seen on the pages (em), per glyph: the PDF's widths, which the font program may round differently. */
  seen: Map<number, number[]>;
}

/** Fonts met on the pages of one conversion, each kept alive until destroy(). */
export class FontTable {
  readonly entries: FontEntry[] = [];
  private readonly byPointer = new Map<number, number>();

  index(font: mupdf.Font): number {
    const ptr = font.pointer as unknown as number;
    let i = this.byPointer.get(ptr);
    if (i === undefined) {
      // A second reference: the font outlives the walk's wrapper (MuPDF counts references).
      const kept = new mupdf.Font(ptr as never);
      i = this.entries.length;
      this.entries.push({ font: kept, name: kept.getName().replace(/^[A-Z]{6}\+/, ""), uses: new Map(), advances: new Map(), seen: new Map() });
      this.byPointer.set(ptr, i);
    }
    return i;
  }

  /** Advance of a glyph in em: as the pages set it (median of what was seen), else the font's. */
  advance(font: number, gid: number, wmode = 0): number {
    const e = this.entries[font];
    let w = e.advances.get(gid);
    if (w === undefined) {
      w = this.ownAdvance(font, gid, wmode);
      const seen = e.seen.get(gid);
      if (seen?.length) w = [...seen].sort((a, b) => a - b)[seen.length >> 1];
      e.advances.set(gid, w);
    }
    return w;
  }

  /** The font program's advance (em). */
  ownAdvance(font: number, gid: number, wmode = 0): number {
    const w = gid >= 0 ? this.entries[font].font.advanceGlyph(gid, wmode) : 0;
    return Number.isFinite(w) ? w : 0;
  }

  /** Records a pen advance seen on a page; kept only near the font's own (a kern or a word gap is not a width). */
  observe(font: number, gid: number, advance: number): void {
    const e = this.entries[font];
    if (Math.abs(advance - this.ownAdvance(font, gid)) > 0.05) return;
    const list = e.seen.get(gid) ?? [];
    if (list.length < 15) list.push(advance);
    e.seen.set(gid, list);
    e.advances.delete(gid);
  }

  destroy(): void {
    for (const e of this.entries) e.font.destroy();
    this.entries.length = 0;
    this.byPointer.clear();
  }
}

export const expandLigatures = (s: string) => s.replace(/[\ufb00-\ufb06]/g, (c) => c.normalize("NFKC"));

/** Runs the page through a device that records its glyphs (nothing is drawn). */
export function collectGlyphs(page: mupdf.Page, matrix: mupdf.Matrix, table: FontTable): Glyph[] {
  const glyphs: Glyph[] = [];
  let seq = 0;
  const walk = (text: mupdf.Text, ctm: mupdf.Matrix, kind: Glyph["kind"]) => {
    let last: Glyph | null = null;
    text.walk({
      showGlyph(font, trm, gid, uni, wmode) {
        const s = kind === "invisible" ? -1 : seq++;
        // Ligature characters (U+FB00–FB06) as their letters, as the page's words have them.
        const ch = uni > 0 && uni <= 0x10ffff ? expandLigatures(String.fromCodePoint(uni)) : "";
        if (gid < 0) {
          // The further characters of a glyph that stands for several (a ligature).
          if (last) last.text += ch;
          return;
        }
        const m = mupdf.Matrix.concat(trm, ctm);
        const g: Glyph = { font: table.index(font), gid, text: ch, x: m[4], y: m[5], a: m[0], b: m[1], c: m[2], d: m[3], kind, seq: s, wmode: wmode ?? 0 };
        // The previous glyph's advance as set on the page: the pen moved along the same matrix.
        if (last && last.font === g.font && last.a === g.a && last.b === g.b && last.c === g.c && last.d === g.d) {
          const ux = Math.hypot(g.a, g.b);
          if (ux > 0) table.observe(last.font, last.gid, ((g.x - last.x) * g.a + (g.y - last.y) * g.b) / (ux * ux));
        }
        last = g;
        glyphs.push(g);
      },
    });
  };
  const device = new mupdf.Device({
    fillText(text, ctm, cs) {
      try {
        walk(text, ctm, "fill");
      } finally {
        text.destroy();
        cs.destroy();
      }
    },
    strokeText(text, stroke, ctm, cs) {
      try {
        walk(text, ctm, "stroke");
      } finally {
        text.destroy();
        stroke.destroy();
        cs.destroy();
      }
    },
    ignoreText(text, ctm) {
      try {
        walk(text, ctm, "invisible");
      } finally {
        text.destroy();
      }
    },
    clipText(text, ctm) {
      try {
        walk(text, ctm, "invisible");
      } finally {
        text.destroy();
      }
    },
  });
  try {
    page.run(device, matrix);
    device.close();
  } finally {
    device.destroy();
  }
  for (const g of glyphs) {
    const uses = table.entries[g.font].uses;
    const set = uses.get(g.gid) ?? new Set<string>();
    set.add(g.text);
    uses.set(g.gid, set);
  }
  return glyphs;
}

/**
 * A TextFilter's keepText (lib/engine/pdf/render-without-text.ts) keeping the glyph items whose
 * sequence number (counted as in collectGlyphs over the same page and matrix) is marked in `keep`.
 */
export function glyphFilter(keep: Uint8Array): (text: mupdf.Text) => mupdf.Text | null {
  let seq = 0;
  return (text) => {
    let out: mupdf.Text | null = null;
    let keepLast = false;
    text.walk({
      showGlyph(font, trm, gid, uni, wmode) {
        const s = seq++;
        const k = gid < 0 ? keepLast : keep[s] === 1;
        if (gid >= 0) keepLast = k;
        if (!k) return;
        out ??= new mupdf.Text();
        out.showGlyph(font, trm, gid, uni, wmode ?? 0);
      },
    });
    return out;
  };
}

/** Clockwise quarter turns (RotationAngle) of a page of size w × h as a matrix on displayed coordinates. */
export function turnMatrix(q: number, w: number, h: number): mupdf.Matrix {
  switch (((q % 4) + 4) % 4) {
    case 1:
      return [0, 1, -1, 0, h, 0];
    case 2:
      return [-1, 0, 0, -1, w, h];
    case 3:
      return [0, -1, 1, 0, 0, w];
    default:
      return mupdf.Matrix.identity;
  }
}

export interface FontFacts {
  /** A font program is embedded (FontFile, FontFile2 or FontFile3). */
  embedded: boolean;
  type3: boolean;
}

const normName = (n: string) => n.replace(/^[A-Z]{6}\+/, "").toLowerCase();

/**
 * Embedded or not, by font name, for the fonts a page's resources reach (forms, patterns,
 * soft masks, annotation appearances, Type3 glyph resources). MuPDF names a font after its
 * BaseFont, so the HTML side can tell a substituted standard font from an embedded one.
 */
export function fontFacts(doc: mupdf.PDFDocument, pageIndex: number, into = new Map<string, FontFacts>()): Map<string, FontFacts> {
  // Every PDFObject wrapper made here is destroyed before returning: a wrapper left to the
  // garbage collector may drop its object after the document is gone, which traps the WASM
  // module (memory access out of bounds) in whatever job runs next.
  const made: mupdf.PDFObject[] = [];
  const T = (o: mupdf.PDFObject) => (made.push(o), o);
  const get = (o: mupdf.PDFObject, key: string | number) => T(T(o.get(key)).resolve());
  const seen = new Set<number>();
  let budget = 5000;
  const visitFont = (font: mupdf.PDFObject) => {
    if (!font.isDictionary()) return;
    const st = get(font, "Subtype");
    const subtype = st.isName() ? st.asName() : "";
    const base = get(font, "BaseFont");
    let name = base.isName() ? base.asName() : "";
    let desc = get(font, "FontDescriptor");
    if (subtype === "Type0") {
      const d0 = get(font, "DescendantFonts");
      const child = d0.isArray() ? get(d0, 0) : d0;
      if (child.isDictionary()) {
        desc = get(child, "FontDescriptor");
        const cb = get(child, "BaseFont");
        if (!name && cb.isName()) name = cb.asName();
      }
    }
    if (subtype === "Type3") {
      visitResources(T(font.get("Resources")));
      if (name) into.set(normName(name), { embedded: false, type3: true });
      return;
    }
    if (!name) return;
    const embedded = desc.isDictionary() && ["FontFile", "FontFile2", "FontFile3"].some((k) => !T(desc.get(k)).isNull());
    const key = normName(name);
    const prev = into.get(key);
    // One embedded copy is enough: MuPDF's outlines for it are the real ones.
    into.set(key, { embedded: embedded || (prev?.embedded ?? false), type3: false });
  };
  const visitXObjects = (d: mupdf.PDFObject) => {
    if (!d.isDictionary()) return;
    d.forEach((x) => {
      T(x);
      if (budget-- <= 0) return;
      if (x.isIndirect()) {
        const n = x.asIndirect();
        if (seen.has(n)) return;
        seen.add(n);
      }
      const o = T(x.resolve());
      if (o.isDictionary() || o.isStream()) visitResources(T(o.get("Resources")));
    });
  };
  const visitResources = (res: mupdf.PDFObject) => {
    if (budget-- <= 0) return;
    if (res.isIndirect()) {
      const n = res.asIndirect();
      if (seen.has(n)) return;
      seen.add(n);
    }
    const r = T(res.resolve());
    if (!r.isDictionary()) return;
    const fonts = get(r, "Font");
    if (fonts.isDictionary()) fonts.forEach((f) => visitFont(T(T(f).resolve())));
    visitXObjects(get(r, "XObject"));
    visitXObjects(get(r, "Pattern"));
    const gs = get(r, "ExtGState");
    if (gs.isDictionary()) {
      gs.forEach((x) => {
        const mask = get(T(T(x).resolve()), "SMask");
        if (mask.isDictionary()) visitResources(T(get(mask, "G").get("Resources")));
      });
    }
  };
  try {
    const page = T(doc.findPage(pageIndex));
    visitResources(T(page.getInheritable("Resources")));
    const annots = get(page, "Annots");
    if (annots.isArray()) {
      annots.forEach((a) => {
        const ap = get(T(T(a).resolve()), "AP");
        if (!ap.isDictionary()) return;
        ap.forEach((state) => {
          const st = T(T(state).resolve());
          if (st.isStream()) visitResources(T(st.get("Resources")));
          else if (st.isDictionary()) st.forEach((x) => visitResources(T(T(T(x).resolve()).get("Resources"))));
        });
      });
    }
  } catch {
    // Damaged resources: the names found so far are enough; unknown fonts count as embedded.
  } finally {
    for (const o of made) o.destroy();
  }
  return into;
}

/** Facts about a MuPDF font by its name (unknown names: treated as embedded). */
export function factsFor(facts: Map<string, FontFacts>, fontName: string): FontFacts {
  return facts.get(normName(fontName)) ?? { embedded: true, type3: false };
}
